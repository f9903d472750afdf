import type { Executor } from '../../db/index.js';
import { nearestInNamespace } from '../../db/index.js';
import type { LegHit } from '../candidates.js';

export interface VectorLegOptions {
  namespace: string;
  vector: number[];
  limit: number;
  includeDeleted: boolean;
}

/** Best chunk per memory of the namespace (exact per namespace, see db/search/vector.ts); scores are (1 + cos) / 2. */
export async function vectorLeg(executor: Executor, options: VectorLegOptions): Promise<LegHit[]> {
  const { hits } = await nearestInNamespace(executor, [options.vector], {
    namespace: options.namespace,
    limit: options.limit,
    includeDeleted: options.includeDeleted,
  });
  return (hits[0] ?? []).map((h) => ({ memoryId: h.memoryId, score: h.score }));
}
