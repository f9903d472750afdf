import type { Executor } from '../../db/index.js';
import { entityMentionMatches } from '../../db/index.js';
import type { LegHit } from '../candidates.js';
import type { QueryEntity } from './query-entities.js';

/**
 * The entity leg: memories that mention the entities the question names, ranked by how much of
 * the question they name (db/search/entity.ts: each named entity adds its mention confidence
 * divided by ln(e + mentions)). Bounded by work: at most `perEntity` memories per entity (the
 * newest), entities mentioned more than `maxEntityMentions` times left to the boost, `limit` rows.
 */
export interface EntityLegOptions {
  entities: readonly QueryEntity[];
  limit: number;
  perEntity: number;
  maxEntityMentions: number;
  includeDeleted: boolean;
  /** A filtered recall's scope (recall/scope.ts); null: the namespace. */
  scope?: readonly string[] | null;
}

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
