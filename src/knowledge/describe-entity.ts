import type { Executor } from '../db/index.js';
import {
  aspectsByEntityIds,
  attributesByAspectIds,
  entitiesByIds,
  entityByName,
  relationCountsByEntityIds,
  relationsByEntityIds,
} from '../db/index.js';
import type { EntityRecord } from '../db/index.js';
import { NotFoundError } from '../errors.js';

export interface EntityDescription {
  entity: EntityRecord;
  /** Aspects by weight, each with its active attributes (oldest first). */
  aspects: Array<{
    name: string;
    attributes: Array<{ id: string; content: string; kind: string; confidence: number; validFrom: string; memoryId: string | null }>;
  }>;
  /** Relations as seen from the entity, most mentioned first (at most MAX_RELATIONS_PER_ENTITY). */
  relations: Array<{ id: string | null; type: string; direction: 'OUT' | 'IN'; other: string; confidence: number; mentions: number }>;
  /** How many relations the entity has in all, listed or not. */
  relationCount: number;
}

/** One entity of a namespace by name, with its active knowledge: what get_entity shows. */
export async function describeEntity(executor: Executor, namespace: string, name: string): Promise<EntityDescription> {
  const entity = await entityByName(executor, namespace, name);
  if (!entity) throw new NotFoundError('entity', name.slice(0, 200));
  const [aspects, relations, counts] = await Promise.all([
    aspectsByEntityIds(executor, [entity.id]),
    relationsByEntityIds(executor, [entity.id]),
    relationCountsByEntityIds(executor, [entity.id]),
  ]);
  const attributes = await attributesByAspectIds(
    executor,
    aspects.map((a) => a.row.id),
  );
  const otherIds = [...new Set(relations.map(({ row }) => (row.sourceId === entity.id ? row.targetId : row.sourceId)))];
  const names = new Map((await entitiesByIds(executor, otherIds)).map(({ row }) => [row.id, row.name]));
  return {
    entity,
    aspects: aspects.map(({ row: aspect }) => ({
      name: aspect.name,
      attributes: attributes
        .filter(({ key, row }) => key === aspect.id && row.status === 'active')
        .map(({ row }) => ({
          id: row.id,
          content: row.content,
          kind: row.kind,
          confidence: row.confidence,
          validFrom: row.validFrom,
          memoryId: row.memoryId,
        })),
    })),
    relations: relations.map(({ row }) => {
      const out = row.sourceId === entity.id;
      return {
        id: row.id ?? null,
        type: row.type,
        direction: out ? 'OUT' : 'IN',
        other: names.get(out ? row.targetId : row.sourceId) ?? '?',
        confidence: row.confidence,
        mentions: row.mentions,
      };
    }),
    relationCount: Math.max(relations.length, Number(counts[0]?.row ?? 0)),
  };
}
