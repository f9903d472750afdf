import type { z } from 'zod/v3';
import type { Executor } from '../../db/index.js';
import { entityMentionMatches } from '../../db/search/index.js';
import type { LegHit } from '../candidates.js';
import { num, section } from '../settings/fields.js';
import type { QueryEntity } from './query-entities.js';

export const entityLegSettings = section({
  perEntity: num({ int: true, min: 1, max: 1_000 }).default(50).describe('memories read per named entity (the newest)'),
  maxEntityMentions: num({ min: 0 })
    .default(30)
    .describe(
      'mentions above which an entity is a hub: the boost still walks it, the leg does not (at 500 the leg cost LoCoMo 0.016 recall@10; at 30 it is neutral on both dev sets)',
    ),
});
export type EntityLegSettings = z.output<typeof entityLegSettings>;

export interface EntityLegOptions extends EntityLegSettings {
  entities: readonly QueryEntity[];
  limit: number;
  includeDeleted: boolean;
  /** A filtered recall's scope (stages/scope.ts); null: the namespace. */
  scope?: readonly string[] | null;
}

/**
 * The entity leg: memories that mention the entities the question names (query-entities.ts),
 * ranked by how much of the question they name (db/search/entity.ts: each named entity adds its
 * mention confidence divided by ln(e + mentions)). Bounded by work: at most `perEntity` memories
 * per entity (the newest), entities mentioned more than `maxEntityMentions` times left to the
 * boost, `limit` rows. Explains `entity`. Failure rule (retrieve.ts): a failed leg — or a failed
 * lookup of the question's entities — counts as empty.
 */
export async function entityLeg(executor: Executor, options: EntityLegOptions): Promise<LegHit[]> {
  if (options.entities.length === 0 || options.scope?.length === 0) return [];
  return entityMentionMatches(executor, {
    entityIds: options.entities.map((e) => e.id),
    limit: options.limit,
    perEntity: options.perEntity,
    maxEntityMentions: options.maxEntityMentions,
    includeDeleted: options.includeDeleted,
    scope: options.scope ?? null,
  });
}
