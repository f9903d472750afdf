/**
 * Per-question figures of one ranked answer, in the forms peers publish:
 * - recall@k (turns): |evidence ∩ turns of the top k items| / |evidence|;
 * - reciprocal rank: 1 / rank of the first item holding an evidence turn (0 if none is returned);
 * - session recall@k: the ranked items mapped to their sessions (first appearance keeps its
 *   rank, so k counts distinct sessions, as in LongMemEval's session-level retrieval), and
 *   |evidence sessions ∩ top k sessions| / |evidence sessions|, an evidence session being one
 *   that holds any evidence turn: any turn of it found counts, evidence or not.
 */
export const TURN_KS = [1, 5, 10, 20] as const;
export const SESSION_KS = [5, 10] as const;

export interface RankingScore {
  hits: Record<number, number>;
  reciprocalRank: number;
  sessionHits: Record<number, number>;
}

/**
 * @param ranked the external ids (turns) each returned item stands for, best first
 * @param sessionOf turn external id → session id
 */
export function scoreRanking(
  ranked: readonly string[][],
  evidence: readonly string[],
  sessionOf: ReadonlyMap<string, string>,
): RankingScore {
  const hits: Record<number, number> = {};
  for (const k of TURN_KS) {
    const found = new Set(ranked.slice(0, k).flat());
    hits[k] = evidence.filter((e) => found.has(e)).length / evidence.length;
  }
  const wanted = new Set(evidence);
  const first = ranked.findIndex((ids) => ids.some((id) => wanted.has(id)));
  const sessions: string[] = [];
  for (const ids of ranked) {
    for (const id of ids) {
      const session = sessionOf.get(id);
      if (session !== undefined && !sessions.includes(session)) sessions.push(session);
    }
  }
  const evidenceSessions = new Set(evidence.flatMap((e) => sessionOf.get(e) ?? []));
  const sessionHits: Record<number, number> = {};
  for (const k of SESSION_KS) {
    const top = new Set(sessions.slice(0, k));
    sessionHits[k] = evidenceSessions.size === 0 ? 0 : [...evidenceSessions].filter((s) => top.has(s)).length / evidenceSessions.size;
  }
  return { hits, reciprocalRank: first < 0 ? 0 : 1 / (first + 1), sessionHits };
}
