import type { RecallService } from '../../recall/index.js';
import type { CheckpointRecord } from '../../sessions/index.js';
import type { Caller } from '../caller.js';
import { recallFilters, type RecallFilterInput } from '../recall-filters.js';

type RecallRequest = Parameters<RecallService['recall']>[0];
type RecallOutcome = Awaited<ReturnType<RecallService['recall']>>;
type Transcripts = Awaited<ReturnType<Caller['services']['sessions']['transcripts']>>;

export interface RecallArgs extends Pick<RecallRequest, 'query' | 'limit' | 'tokenBudget' | 'asOf'> {
  namespace?: string | null;
  filters?: RecallFilterInput | null;
  /** Also answer the stored transcripts of the sessions of the recalled memories. */
  expand?: boolean | null;
  /** An open session this query is a prompt of: it is counted, and may fire a periodic checkpoint. */
  sessionId?: string | null;
}

export interface RecallAnswer extends RecallOutcome {
  /** With `expand`: the transcripts of the result's sessions; null otherwise. */
  transcripts: Transcripts | null;
  /** With a `sessionId`: the periodic checkpoint this prompt fired, if it fired one. */
  checkpoint: CheckpointRecord | null;
}

/**
 * Hybrid recall. With `expand`, the transcripts of the sessions in the result; with a `sessionId`,
 * the prompt is counted on its session (its query, and the memories the keyword leg found) and may
 * fire the periodic checkpoint, answered with the result. A read-only key's recall is answered and
 * not counted (counting writes); a session never started (or ended) is left alone.
 */
export async function recall(caller: Caller, args: RecallArgs): Promise<RecallAnswer> {
  const namespace = caller.namespaceFor(args.namespace, 'read');
  const outcome = await caller.services.recall.recall({
    query: args.query,
    namespace,
    limit: args.limit,
    tokenBudget: args.tokenBudget,
    asOf: args.asOf,
    filters: recallFilters(args.filters),
  });
  const transcripts = args.expand ? await caller.services.sessions.transcripts(outcome.items.map((i) => i.memory)) : null;
  const observed =
    args.sessionId && !caller.principal.readOnly
      ? await caller.services.sessions.observeQuietly({
          namespace,
          sessionId: args.sessionId,
          kind: 'prompt',
          query: args.query,
          keywordHits: outcome.items.filter((i) => i.explanation.keyword).map((i) => i.memory.id),
        })
      : null;
  return { ...outcome, transcripts, checkpoint: observed?.checkpoint ?? null };
}
