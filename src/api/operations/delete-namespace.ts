import type { EraseReport } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';

/** Right to erasure: every node of a namespace, in batches; `confirm` must repeat the namespace. */
export function deleteNamespace(caller: Caller, request: { namespace: string; confirm: string }): Promise<EraseReport> {
  caller.namespaceFor(request.namespace, 'write');
  return caller.services.knowledge.deleteNamespace(request.namespace, request.confirm);
}
