import type { AspectRecord, EntityRecord } from '../../db/index.js';
import { ValidationError } from '../../errors.js';
import type { EntityDescription } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';
import { checkLength, MAX_SEARCH_CHARS, pageSize } from '../limits.js';

/** One entity by id, or by name within a namespace. With both id and namespace, an entity of another namespace is null. */
export async function entity(
  caller: Caller,
  request: { id?: string | null; name?: string | null; namespace?: string | null },
): Promise<EntityRecord | null> {
  const { id, name, namespace } = request;
  if (id) {
    const scope = namespace == null ? null : caller.namespaceFor(namespace, 'read');
    const found = await caller.loaders.entityById.load(id);
    return found && (scope === null || found.namespace === scope) ? found : null;
  }
  if (!name) throw new ValidationError('entity needs an id or a name');
  return caller.services.knowledge.findEntity(caller.namespaceFor(namespace, 'read'), name);
}

/**
 * Entities of a namespace, most mentioned first, a page at a time; `search` matches a substring
 * of the canonical name. A page over MAX_PAGE_SIZE is refused (LIMIT_EXCEEDED), over every transport.
 */
export async function entities(
  caller: Caller,
  request: {
    namespace?: string | null;
    search?: string | null;
    type?: string | null;
    first?: number | null;
    after?: string | null;
    /** The argument's name in the caller's transport, for the refusal's message. */
    firstField?: string;
  },
) {
  checkLength(request.search, MAX_SEARCH_CHARS, 'search');
  const page = await caller.services.knowledge.entities({
    namespace: caller.namespaceFor(request.namespace, 'read'),
    search: request.search,
    type: request.type,
    first: pageSize(request.first, caller.limits.maxPageSize, 20, request.firstField),
    after: request.after,
  });
  for (const { node } of page.edges) caller.loaders.entityById.prime(node.id, node);
  return page;
}

/** One aspect by id (null outside the caller's namespaces). */
export function aspect(caller: Caller, id: string): Promise<AspectRecord | null> {
  return caller.loaders.aspectById.load(id);
}

/** What is known about one entity by name: aspects with their active facts, and its relations. */
export function describeEntity(caller: Caller, request: { namespace?: string | null; name: string }): Promise<EntityDescription> {
  return caller.services.knowledge.describe(caller.namespaceFor(request.namespace, 'read'), request.name);
}
