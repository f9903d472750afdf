import type { Executor } from '../../db/index.js';
import { nearestInNamespace, scopedVectorMatches } from '../../db/search/index.js';
import type { LegHit } from '../candidates.js';

export interface VectorLegOptions {
  namespace: string;
  vector: number[];
  limit: number;
  includeDeleted: boolean;
  /** A filtered recall's scope (stages/scope.ts): the best of these memories, exact; null: the namespace. */
  scope?: readonly string[] | null;
}

/**
 * The vector leg: best chunk per memory of the namespace through the chunk vector index, filtered
 * inside the index by namespace (db/search/vector.ts); scores are (1 + cos) / 2. Explains
 * `vector`. Failure rule (retrieve.ts): a failed leg counts as empty.
 */
export async function vectorLeg(executor: Executor, options: VectorLegOptions): Promise<LegHit[]> {
  if (options.scope) {
    if (options.scope.length === 0) return [];
    return scopedVectorMatches(executor, { ids: options.scope, vector: options.vector, limit: options.limit });
  }
  const { hits } = await nearestInNamespace(executor, [options.vector], {
    namespace: options.namespace,
    limit: options.limit,
    includeDeleted: options.includeDeleted,
  });
  return (hits[0] ?? []).map((h) => ({ memoryId: h.memoryId, score: h.score }));
}
