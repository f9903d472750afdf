import type { Executor } from '../../db/index.js';

// The namespace's entity mention distribution through the (namespace, mentions) index: how many
// entities, then the mention count at `percentile` (nearest rank) by one ordered seek.
const ENTITY_COUNT = `
MATCH (e:Entity {namespace: $namespace}) WHERE e.mentions IS NOT NULL
RETURN count(e) AS entities`;

const MENTIONS_AT_RANK = `
MATCH (e:Entity {namespace: $namespace}) WHERE e.mentions IS NOT NULL
RETURN e.mentions AS threshold
ORDER BY e.mentions DESC
SKIP toInteger($skip) LIMIT 1`;

/** Below this many entities a namespace has no meaningful "hub". */
export const MIN_HUB_ENTITIES = 10;
export const HUB_THRESHOLD_TTL_MS = 60_000;
const MAX_CACHED_NAMESPACES = 1_000;

/**
 * Mention count above which an entity of the namespace is a hub (hub dampening). Cached per
 * namespace and percentile for a minute: the distribution moves slowly and recall must stay cheap.
 */
export class HubThresholds {
  private readonly cache = new Map<string, { value: number; at: number }>();

  constructor(
    private readonly executor: Executor,
    private readonly ttlMs = HUB_THRESHOLD_TTL_MS,
  ) {}

  async get(namespace: string, percentile: number): Promise<number> {
    const key = `${percentile}\u0000${namespace}`;
    const hit = this.cache.get(key);
    if (hit && performance.now() - hit.at < this.ttlMs) return hit.value;
    const value = await this.load(namespace, percentile);
    if (this.cache.size >= MAX_CACHED_NAMESPACES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { value, at: performance.now() });
    return value;
  }

  private async load(namespace: string, percentile: number): Promise<number> {
    const [count] = await this.executor.read<{ entities: number }>('recall.hub-count', ENTITY_COUNT, { namespace });
    const entities = count?.entities ?? 0;
    if (entities < MIN_HUB_ENTITIES) return Number.POSITIVE_INFINITY;
    const skip = entities - Math.max(1, Math.ceil(percentile * entities));
    const [row] = await this.executor.read<{ threshold: number }>('recall.hub-threshold', MENTIONS_AT_RANK, { namespace, skip });
    return row?.threshold ?? Number.POSITIVE_INFINITY;
  }
}
