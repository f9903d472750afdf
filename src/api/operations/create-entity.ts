import type { EntityResult } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';
import { eachItem, type ItemOutcome } from '../each-item.js';

export interface EntityInput {
  name: string;
  type?: string | null;
  description?: string | null;
}

/** Creates an entity, or sets the type (and description) of the one already so named; no LLM. */
export async function createEntity(caller: Caller, request: EntityInput & { namespace?: string | null }): Promise<EntityResult> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  const result = await caller.services.knowledge.createEntity(who, request);
  caller.loaders.entityById.clear(result.entity.id).prime(result.entity.id, result.entity);
  return result;
}

/** Several entities in one namespace, one outcome each (a forbidden namespace refuses the call whole). */
export async function createEntities(
  caller: Caller,
  request: { namespace?: string | null; entities: readonly EntityInput[] },
): Promise<Array<ItemOutcome<EntityResult>>> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  return eachItem(caller, 'create_entities', request.entities, (e) => caller.services.knowledge.createEntity(who, e));
}
