import type { DisclosureService } from '../../recall/index.js';
import type { Caller } from '../caller.js';
import type { Addressed } from './types.js';

export type TimelineRequest = Addressed<Parameters<DisclosureService['timeline']>[0]>;

/** Progressive disclosure, step 2: the memories around an anchor (an id, or the best match of a query). */
export function timeline(caller: Caller, request: TimelineRequest) {
  return caller.services.disclosure.timeline({ ...request, namespace: caller.namespaceFor(request.namespace, 'read') });
}
