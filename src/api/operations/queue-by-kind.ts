import type { Caller } from '../caller.js';

/** Deep-path jobs of a namespace counted by kind and status. */
export function queueByKind(caller: Caller, request: { namespace?: string | null }) {
  return caller.services.pipeline.queueByKind(caller.namespaceFor(request.namespace, 'read'));
}
