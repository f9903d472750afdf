import type { AssertFactInput, AssertFactResult } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';
import { eachItem, type ItemOutcome } from '../each-item.js';

/** A fact about an existing entity, through the safety gate, contradiction check and supersession; no LLM. */
export async function assertFact(caller: Caller, request: AssertFactInput & { namespace?: string | null }): Promise<AssertFactResult> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  const result = await caller.services.knowledge.assertFact(who, request);
  if (result.memory) caller.loaders.attributesByMemory.clear(result.memory.id);
  return result;
}

/** Several facts in one namespace, one outcome each (a forbidden namespace refuses the call whole). */
export async function assertFacts(
  caller: Caller,
  request: { namespace?: string | null; facts: readonly AssertFactInput[] },
): Promise<Array<ItemOutcome<AssertFactResult>>> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  return eachItem(caller, 'add_observations', request.facts, (f) => caller.services.knowledge.assertFact(who, f));
}
