import { namespaceSize, type NamespaceSize } from '../../db/search/index.js';
import type { RecallSettings } from '../settings/index.js';
import type { RecallRun } from './stage.js';

/** Counting stops here: from this many memories on, a store is as large as the ranking distinguishes. */
export const STORE_COUNT_CAP = 50_000;
/** Memories whose content lengths give the namespace's mean length (BM25's length normalization). */
export const STORE_LENGTH_SAMPLE = 2_000;

/** Whether this request's ranking reads the namespace's size: the keyword leg re-scored with the namespace's own BM25. */
export function needsStoreSize(settings: Pick<RecallSettings, 'keywordStats'>): boolean {
  return settings.keywordStats.namespaceScoped;
}

/**
 * The store-size read: how many memories the namespace holds (index seek, capped) and their mean
 * length (db/search/namespace-stats.ts), for the keyword re-scoring (keyword-rescore.ts). Runs
 * beside the legs. Failure rule: null — the keyword leg keeps its Lucene scores.
 */
export async function readStoreSize(run: RecallRun): Promise<NamespaceSize | null> {
  try {
    return await run.timer.run('store', () =>
      namespaceSize(run.executor, run.namespace, { cap: STORE_COUNT_CAP, sample: STORE_LENGTH_SAMPLE }),
    );
  } catch (error) {
    run.logger.warn({ error }, 'store size unavailable; recall ranks without it');
    return null;
  }
}
