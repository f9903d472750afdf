import { queueDepthByKind } from '../../db/index.js';
import type { Caller } from '../caller.js';

/** Deep-path jobs of a namespace counted by kind and status. */
export function queueByKind(caller: Caller, request: { namespace?: string | null }) {
  return queueDepthByKind(caller.services.executor, caller.namespaceFor(request.namespace, 'read'));
}
