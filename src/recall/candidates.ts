import type { LegScore, RecallCandidate, RecallMemory } from './types.js';

/** One row from a leg's index query; a memory may appear several times (one per chunk or hint). */
export interface LegHit {
  memoryId: string;
  score: number;
}

export interface LegResults {
  vector?: readonly LegHit[];
  keyword?: readonly LegHit[];
  hints?: readonly LegHit[];
  entity?: readonly LegHit[];
  /** Graph boost: memoryId → link strength in [0, 1]. */
  graph?: ReadonlyMap<string, number>;
}

/** Every memory id the legs found, first appearance first — the ids to load. */
export function candidateIds(legs: LegResults, options: { includeGraphOnly?: boolean } = {}): string[] {
  const ids = new Set<string>();
  for (const hits of [legs.vector, legs.keyword, legs.hints, legs.entity]) for (const hit of hits ?? []) ids.add(hit.memoryId);
  if (options.includeGraphOnly ?? true) for (const id of legs.graph?.keys() ?? []) ids.add(id);
  return [...ids];
}

/**
 * Merges leg results into one candidate per memory: each leg keeps a memory's best score and
 * ranks memories by it (1-based). Ids without a loaded memory (deleted meanwhile, other
 * namespace) are dropped. With `includeGraphOnly: false`, the graph only boosts memories a leg found.
 */
export function assembleCandidates(
  legs: LegResults,
  memories: ReadonlyMap<string, RecallMemory>,
  options: { includeGraphOnly?: boolean } = {},
): RecallCandidate[] {
  const vector = rankLeg(legs.vector);
  const keyword = rankLeg(legs.keyword);
  const hint = rankLeg(legs.hints);
  const entity = rankLeg(legs.entity);
  const out: RecallCandidate[] = [];
  for (const id of candidateIds(legs, options)) {
    const memory = memories.get(id);
    if (!memory) continue;
    const candidate: RecallCandidate = { ...memory, graphBoost: legs.graph?.get(id) ?? 0 };
    const v = vector.get(id);
    const k = keyword.get(id);
    const h = hint.get(id);
    const e = entity.get(id);
    if (e) candidate.entity = e;
    if (v) candidate.vector = v;
    if (k) candidate.keyword = k;
    if (h) candidate.hint = h;
    out.push(candidate);
  }
  return out;
}

function rankLeg(hits: readonly LegHit[] | undefined): Map<string, LegScore> {
  const best = new Map<string, number>();
  for (const { memoryId, score } of hits ?? []) {
    if (!Number.isFinite(score)) continue;
    const previous = best.get(memoryId);
    if (previous === undefined || score > previous) best.set(memoryId, score);
  }
  // Stable sort keeps the leg's own order among equal scores.
  const ordered = [...best.entries()].sort((a, b) => b[1] - a[1]);
  return new Map(ordered.map(([memoryId, raw], i) => [memoryId, { raw, rank: i + 1 }]));
}
