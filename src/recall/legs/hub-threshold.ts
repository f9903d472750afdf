import type { Executor } from '../../db/index.js';
import { mentionedEntityCount, mentionsAtRank } from '../../db/index.js';

/** Below this many entities a namespace has no meaningful "hub". */
export const MIN_HUB_ENTITIES = 10;
export const HUB_THRESHOLD_TTL_MS = 60_000;
const MAX_CACHED_NAMESPACES = 1_000;

/**
 * Mention count above which an entity of the namespace is a hub (hub dampening): the mention
 * count at `percentile` (nearest rank) of the namespace's distribution (db/search/hubs.ts).
 * Cached per namespace and percentile for a minute: the distribution moves slowly and recall must
 * stay cheap.
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
    const entities = await mentionedEntityCount(this.executor, namespace);
    if (entities < MIN_HUB_ENTITIES) return Number.POSITIVE_INFINITY;
    const skip = entities - Math.max(1, Math.ceil(percentile * entities));
    return (await mentionsAtRank(this.executor, namespace, skip)) ?? Number.POSITIVE_INFINITY;
  }
}
