import type { z } from 'zod/v3';
import type { LegHit } from '../candidates.js';
import { num, section } from '../settings/fields.js';
import type { NamedEntity } from './query-entities.js';

export const entityLegSettings = section({
  perEntity: num({ int: true, min: 1, max: 1_000 }).default(50).describe('memories read per named entity (the newest)'),
  maxEntityMentions: num({ min: 0 })
    .default(30)
    .describe(
      'mentions above which an entity is a hub: the boost still walks it, the leg does not (at 500 the leg cost LoCoMo 0.016 recall@10; at 30 it is neutral on both dev sets)',
    ),
});
export type EntityLegSettings = z.output<typeof entityLegSettings>;

/**
 * The entity leg: memories that mention the entities the question names, ranked by how much of
 * the question they name — the sum of what each named entity adds (its mention confidence divided
 * by ln(e + mentions), db/search/entity.ts), best first, `limit` rows. Its reads ride on the
 * lookup of the question's entities (query-entities.ts: one statement, bounded there by
 * `perEntity` and `maxEntityMentions`); this is pure. Explains `entity`. Failure rule
 * (retrieve.ts): a failed lookup of the question's entities counts as an empty leg.
 */
export function entityLeg(entities: readonly NamedEntity[], limit: number): LegHit[] {
  const scores = new Map<string, number>();
  for (const entity of entities)
    for (const { memoryId, score } of entity.memories) scores.set(memoryId, (scores.get(memoryId) ?? 0) + score);
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([memoryId, score]) => ({ memoryId, score }));
}
