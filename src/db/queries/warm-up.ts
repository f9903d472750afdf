import type { Executor } from '../executor.js';

/**
 * Touches every index recall reads, once, before the service says it is ready: after a restart
 * the first query of each index opens its files and faults its pages in, and a cold first recall
 * over a large store could otherwise run into the read timeout.
 */
export const VECTOR = `
MATCH (c:Chunk)
  SEARCH c IN (VECTOR INDEX chunk_embedding FOR $vector LIMIT 50)
RETURN count(c) AS n`;
export const FULLTEXT = `CALL db.index.fulltext.queryNodes($index, $query, {limit: 50}) YIELD node RETURN count(node) AS n`;
const FULLTEXT_INDEXES = ['memory_content', 'entity_name', 'hint_text'] as const;
/** The namespace range index and the first chunks' vectors. */
export const CHUNK_RANGE = `MATCH (c:Chunk) WHERE c.namespace IS NOT NULL WITH c LIMIT toInteger($limit) RETURN sum(size(c.embedding)) AS n`;
/** A small, bounded touch: enough to open the range index and its first pages. */
const CHUNK_TOUCH_LIMIT = 2_000;

export interface WarmUpReport {
  /** Per index, how long its first query took (ms), or the error that query met. */
  indexes: Record<string, number | string>;
  tookMs: number;
}

export async function warmUpIndexes(executor: Executor, dimensions: number): Promise<WarmUpReport> {
  const started = performance.now();
  const indexes: WarmUpReport['indexes'] = {};
  const timed = async (name: string, run: () => Promise<unknown>) => {
    const t0 = performance.now();
    try {
      await run();
      indexes[name] = Math.round(performance.now() - t0);
    } catch (error) {
      indexes[name] = (error as Error).message;
    }
  };
  const vector = Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0));
  await Promise.all([
    timed('chunk_embedding', () => executor.read('warmUp.vector', VECTOR, { vector })),
    ...FULLTEXT_INDEXES.map((index) => timed(index, () => executor.read('warmUp.fulltext', FULLTEXT, { index, query: 'memory' }))),
    timed('chunk_namespace', () => executor.read('warmUp.chunks', CHUNK_RANGE, { limit: CHUNK_TOUCH_LIMIT })),
  ]);
  return { indexes, tookMs: Math.round(performance.now() - started) };
}
