import type { z } from 'zod/v3';
import { flag, fraction, num, section } from '../settings/fields.js';
import type { RankedCandidate } from '../types.js';
import { byScoreThenId } from './rank.js';
import type { RankedStage } from './stage.js';

export const sessionsSettings = section({
  enabled: flag()
    .default(false)
    .describe('sessions stage: results in the sessions that hold most of the ranking’s evidence raised (sessions before turns)'),
  head: num({ int: true, min: 1, max: 200 })
    .default(50)
    .describe('results at the top of the ranking whose scores count as their session’s evidence'),
  perSession: num({ int: true, min: 1, max: 20 }).default(3).describe('best results of a session summed into its evidence'),
  weight: fraction()
    .default(0.3)
    .describe('raise of a result of the best session: score × (1 + weight × its session’s evidence ÷ the best session’s)'),
});
export type SessionsSettings = z.output<typeof sessionsSettings>;

/**
 * The sessions stage, pure: in a large namespace the session that holds an answer is easier to
 * find than the turn (several of its turns match a little), so each session's evidence is the sum
 * of its best `perSession` scores among the top `head` results, and every result of a session —
 * in the head or below it — is raised by `weight` × its session's evidence relative to the best
 * session's. A result without a session is a session of its own. Explains `session` (the factor,
 * 1 = not applied). Failure rule: keep what came in (it only reorders, invariant 3).
 */
export const sessionsStage: RankedStage<SessionsSettings> = {
  name: 'sessions',
  onFailure: 'keep-input',
  enabled: (settings, ranked) => settings.enabled && settings.weight > 0 && ranked.length >= 2,
  run: (ranked, run, settings) => raiseBySession(ranked, (id) => run.memories.get(id)?.record.sessionId ?? null, settings),
};

export function raiseBySession(
  ranked: readonly RankedCandidate[],
  sessionOf: (memoryId: string) => string | null,
  settings: Pick<SessionsSettings, 'head' | 'perSession' | 'weight'>,
): RankedCandidate[] {
  const key = (r: RankedCandidate) => sessionOf(r.candidate.memoryId) ?? `memory:${r.candidate.memoryId}`;
  const scores = new Map<string, number[]>();
  for (const r of ranked.slice(0, settings.head)) {
    const list = scores.get(key(r)) ?? [];
    if (list.length < settings.perSession) list.push(Math.max(0, r.score));
    scores.set(key(r), list);
  }
  const evidence = new Map([...scores].map(([session, list]) => [session, list.reduce((sum, s) => sum + s, 0)]));
  const best = Math.max(0, ...evidence.values());
  if (best <= 0) return [...ranked];
  return ranked
    .map((r) => {
      const factor = 1 + settings.weight * ((evidence.get(key(r)) ?? 0) / best);
      const score = r.score * factor;
      return { candidate: r.candidate, score, explanation: { ...r.explanation, session: factor, final: score } };
    })
    .sort(byScoreThenId);
}
