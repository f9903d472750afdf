import type { Executor } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import type { StageTimer } from '../stage-timer.js';
import type { RankedCandidate } from '../types.js';
import type { LoadedMemory } from './hydrate.js';

/** What the stages of one recall share: the request resolved once, the collaborators, and the memories loaded so far. */
export interface RecallRun {
  executor: Executor;
  logger: Logger;
  timer: StageTimer;
  query: string;
  namespace: string;
  include: { includeDeleted: boolean; includeSuperseded: boolean; includeCompressed: boolean };
  /** The question's vector; null when no stage needs it or the embedder failed. */
  vector: number[] | null;
  /** Every memory loaded so far, by id (hydration, then the context stage's newcomers). */
  memories: Map<string, LoadedMemory>;
}

/**
 * What a stage does when it fails: `keep-input` logs a warning and hands on what came in
 * (invariant 3: a stage that only adds or reorders never costs a result); `fail` fails the recall.
 */
export type FailureRule = 'keep-input' | 'fail';

/**
 * A stage that takes the ranking and gives one back (haystack's components): its name in the
 * timings, the settings section it reads, whether this request runs it, and its failure rule.
 */
export interface RankedStage<S> {
  readonly name: string;
  readonly onFailure: FailureRule;
  enabled(settings: S, ranked: readonly RankedCandidate[], run: RecallRun): boolean;
  run(ranked: RankedCandidate[], run: RecallRun, settings: S): Promise<RankedCandidate[]> | RankedCandidate[];
}

/** Runs one ranked stage under its timer and its failure rule. */
export async function runRankedStage<S>(
  stage: RankedStage<S>,
  settings: S,
  ranked: RankedCandidate[],
  run: RecallRun,
): Promise<RankedCandidate[]> {
  if (!stage.enabled(settings, ranked, run)) return ranked;
  try {
    return await run.timer.run(stage.name, async () => stage.run(ranked, run, settings));
  } catch (error) {
    if (stage.onFailure === 'fail') throw error;
    run.logger.warn({ error, stage: stage.name }, 'recall stage failed; recall continues with what came in');
    return ranked;
  }
}
