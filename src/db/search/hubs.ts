import type { Executor } from '../executor.js';

// The namespace's entity mention distribution through the (namespace, mentions) index: how many
// entities, then the mention count at a rank by one ordered seek (recall/legs/hub-threshold.ts).
export const ENTITY_COUNT = `
MATCH (e:Entity {namespace: $namespace}) WHERE e.mentions IS NOT NULL
RETURN count(e) AS entities`;

export const MENTIONS_AT_RANK = `
MATCH (e:Entity {namespace: $namespace}) WHERE e.mentions IS NOT NULL
RETURN e.mentions AS threshold
ORDER BY e.mentions DESC
SKIP toInteger($skip) LIMIT 1`;

/** Entities of the namespace with a mention count. */
export async function mentionedEntityCount(executor: Executor, namespace: string): Promise<number> {
  const [count] = await executor.read<{ entities: number }>('recall.hub-count', ENTITY_COUNT, { namespace });
  return count?.entities ?? 0;
}

/** The mention count after `skip` entities in descending order; undefined past the end. */
export async function mentionsAtRank(executor: Executor, namespace: string, skip: number): Promise<number | undefined> {
  const [row] = await executor.read<{ threshold: number }>('recall.hub-threshold', MENTIONS_AT_RANK, { namespace, skip });
  return row?.threshold;
}
