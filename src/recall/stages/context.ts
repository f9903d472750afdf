import type { z } from 'zod/v3';
import { cosineFromIndexScore } from '../../db/index.js';
import { recallContextRows } from '../../db/search/index.js';
import { flag, fraction, num, section } from '../settings/fields.js';
import type { RankedCandidate, RecallCandidate } from '../types.js';
import { type HydrationRun, loaded, type LoadedMemory, MAX_DUPLICATES_PER_MEMORY } from './hydrate.js';
import { byScoreThenId, usableSimilarity } from './rank.js';
import type { RankedStage } from './stage.js';

export const contextSettings = section({
  enabled: flag().default(true).describe('context stage: session neighbours of the top results gain part of their score'),
  weight: fraction()
    .default(0.5)
    .describe("share of an anchor's score given to its session neighbours (chosen on both dev sets, docs/recall-quality.md)"),
  window: num({ int: true, min: 0, max: 5 }).default(2).describe('session neighbours on each side of an anchor (memories)'),
  anchors: num({ int: true, min: 0, max: 100 }).default(20).describe('top results whose neighbours gain weight'),
  similarityGate: flag().default(true).describe("scale a neighbour's gain by its similarity to the question relative to its anchor's"),
});
export type ContextSettings = z.output<typeof contextSettings>;

/**
 * The context stage: the memories just before and after each of the top `anchors` results in its
 * session, read in one statement with the newcomers among them hydrated as candidates are
 * (db/search/load-memories.ts's RECALL_CONTEXT: fields, similarity, open near-duplicates), then
 * applyContextBoost. Explains `context`. Failure rule: keep what came in (additive only, invariant 3).
 */
export const contextStage: RankedStage<ContextSettings> = {
  name: 'context',
  onFailure: 'keep-input',
  enabled: (settings, ranked) => contextWindow(settings) > 0 && ranked.length > 0,
  async run(ranked, run, settings) {
    const anchors = ranked.slice(0, settings.anchors).map((r) => r.candidate.memoryId);
    if (anchors.length === 0) return ranked;
    const neighbours = await sessionNeighbours(run, anchors, settings.window);
    const ids = contextNewcomerIds(ranked, neighbours);
    const candidates = new Map(
      ids.flatMap((id) => {
        const memory = run.memories.get(id);
        return memory ? [[id, { ...memory, graphBoost: 0 }] as const] : [];
      }),
    );
    return applyContextBoost(ranked, neighbours, candidates, settings, (id) => run.memories.get(id)?.similarity);
  },
};

/**
 * Up to `window` session neighbours on each side of each anchor, as {anchorId, memoryId} pairs, in
 * one statement that also hydrates the neighbours `run.memories` does not hold yet (added to it).
 */
export async function sessionNeighbours(
  run: HydrationRun & { memories: Map<string, LoadedMemory> },
  anchors: string[],
  window: number,
): Promise<Array<{ anchorId: string; memoryId: string }>> {
  const rows = await recallContextRows(run.executor, anchors, [...run.memories.keys()], {
    namespace: run.namespace,
    ...run.include,
    vector: run.vector,
    window,
    maxDuplicates: MAX_DUPLICATES_PER_MEMORY,
  });
  for (const row of rows) if (row.memory) run.memories.set(row.memoryId, loaded(row.memory, row.memory.duplicates));
  return rows.flatMap((row) => row.anchors.map((anchorId) => ({ anchorId, memoryId: row.memoryId })));
}

/** The session window the stage reads: 0 when it does not run. */
export function contextWindow(settings: ContextSettings): number {
  return settings.enabled && settings.weight > 0 ? settings.window : 0;
}

/**
 * The context boost (the timeline's neighbours, applied inside recall): each neighbour in the same session
 * of one of the top `anchors` results gains `weight × anchor score` (the best anchor counts). A
 * neighbour no leg found joins with that score alone. Additive only: it never removes a result.
 *
 * With `similarityGate`, the gain is scaled by how close the neighbour is to the question
 * relative to its anchor (cosine ratio, in [0, 1]): a reply that continues the matched turn keeps
 * its lift, an unrelated message that merely sits next to it (one person's separate requests)
 * gets little. Without a similarity for either, the gain is not scaled.
 */
export function applyContextBoost(
  ranked: readonly RankedCandidate[],
  neighbours: ReadonlyArray<{ anchorId: string; memoryId: string }>,
  newcomers: ReadonlyMap<string, RecallCandidate>,
  settings: ContextSettings,
  similarity: (memoryId: string) => number | null | undefined = () => null,
): RankedCandidate[] {
  const anchorScore = new Map(ranked.slice(0, settings.anchors).map((r) => [r.candidate.memoryId, r.score]));
  const boost = new Map<string, number>();
  for (const { anchorId, memoryId } of neighbours) {
    const score = anchorScore.get(anchorId);
    if (score === undefined || memoryId === anchorId) continue;
    const gate = settings.similarityGate ? similarityRatio(similarity(memoryId), similarity(anchorId)) : 1;
    if (gate > 0) boost.set(memoryId, Math.max(boost.get(memoryId) ?? 0, settings.weight * score * gate));
  }
  const present = new Set(ranked.map((r) => r.candidate.memoryId));
  const boosted = ranked.map((r) => {
    const add = boost.get(r.candidate.memoryId) ?? 0;
    return add === 0 ? r : { ...r, score: r.score + add, explanation: { ...r.explanation, context: add, final: r.score + add } };
  });
  const joined: RankedCandidate[] = [...boost]
    .filter(([id]) => !present.has(id) && newcomers.has(id))
    .map(([id, add]) => ({
      candidate: newcomers.get(id)!,
      score: add,
      explanation: {
        method: ranked[0]?.explanation.method ?? 'weighted',
        vector: null,
        keyword: null,
        hint: null,
        entity: null,
        fused: 0,
        graphBoost: 0,
        resolution: 1,
        importance: 1,
        time: 1,
        stale: 1,
        staleReason: newcomers.get(id)!.staleReason ?? null,
        pinned: newcomers.get(id)!.pinned === true,
        context: add,
        rerank: null,
        similarity: usableSimilarity(newcomers.get(id)!.similarity),
        final: add,
      },
    }));
  return [...boosted, ...joined].sort(byScoreThenId);
}

/** Ids the context stage needs loaded: neighbours of anchors that no leg returned. */
function contextNewcomerIds(ranked: readonly RankedCandidate[], neighbours: ReadonlyArray<{ memoryId: string }>): string[] {
  const present = new Set(ranked.map((r) => r.candidate.memoryId));
  return [...new Set(neighbours.map((n) => n.memoryId).filter((id) => !present.has(id)))];
}

/** cos(neighbour, query) / cos(anchor, query) in [0, 1], from index-scale similarities (1 + cos) / 2. */
export function similarityRatio(neighbour: number | null | undefined, anchor: number | null | undefined): number {
  if (neighbour === null || neighbour === undefined || anchor === null || anchor === undefined) return 1;
  const cosAnchor = cosineFromIndexScore(anchor);
  if (!(cosAnchor > 0.01)) return 1;
  return Math.min(1, Math.max(0, cosineFromIndexScore(neighbour) / cosAnchor));
}
