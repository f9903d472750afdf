import type { RelationView } from '../../db/index.js';
import type { Caller } from '../caller.js';
import { eachItem, type ItemOutcome } from '../each-item.js';

export interface RelationInput {
  source: string;
  type: string;
  target: string;
  confidence?: number | null;
}

type RelationRow = Awaited<ReturnType<Caller['services']['knowledge']['relate']>>;

/** A relation between two existing entities (by name); repeating it counts another mention. */
export async function relate(caller: Caller, request: RelationInput & { namespace?: string | null }): Promise<RelationView> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  const row = await caller.services.knowledge.relate(who, request);
  return { ...row, direction: 'OUT' };
}

/** Several relations in one namespace, one outcome each (a forbidden namespace refuses the call whole). */
export async function relateAll(
  caller: Caller,
  request: { namespace?: string | null; relations: readonly RelationInput[] },
): Promise<Array<ItemOutcome<RelationRow>>> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  return eachItem(caller, 'create_relations', request.relations, (r) => caller.services.knowledge.relate(who, r));
}
