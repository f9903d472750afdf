import type { DisclosureService } from '../../recall/index.js';
import type { Caller } from '../caller.js';
import { recallFilters, type RecallFilterInput } from '../recall-filters.js';
import type { Addressed } from './types.js';

export type SearchRequest = Omit<Addressed<Parameters<DisclosureService['search']>[0]>, 'filters'> & { filters?: RecallFilterInput | null };

/** Progressive disclosure, step 1: a compact index of matches. */
export function search(caller: Caller, request: SearchRequest) {
  return caller.services.disclosure.search({
    ...request,
    namespace: caller.namespaceFor(request.namespace, 'read'),
    filters: recallFilters(request.filters),
  });
}
