import type { Logger } from '../../logger.js';
import type { StageTimer } from '../stage-timer.js';

export interface QueryEmbedder {
  /** `query` picks the model's query prefix (e5's "query: "); stored texts are embedded as passages. */
  embed(texts: string[], purpose?: 'query' | 'passage'): Promise<Float32Array[]>;
}

/**
 * The question's vector, for the vector leg, the rerank and the context gate. Failure rule: when
 * the embedder fails, recall goes on with the keyword legs (null); with no keyword leg on, the
 * recall fails.
 */
export async function embedQuery(
  embedder: QueryEmbedder,
  query: string,
  needed: { vector: boolean; keywordLegs: boolean },
  timer: StageTimer,
  logger: Logger,
): Promise<number[] | null> {
  if (!needed.vector) return null;
  try {
    const [vector] = await timer.run('embed', () => embedder.embed([query], 'query'));
    return vector ? Array.from(vector) : null;
  } catch (error) {
    if (!needed.keywordLegs) throw error;
    logger.warn({ error }, 'query embedding failed; recall continues with the keyword legs');
    return null;
  }
}
