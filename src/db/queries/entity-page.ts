import type { Executor } from '../executor.js';
import { cleanText } from '../../text/index.js';
import { ENTITY_RETURN, type EntityRecord } from '../records.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export interface EntityPageQuery {
  namespace: string;
  /** Substring of the canonical name (lowercase, whitespace collapsed); null lists all. */
  search?: string | null;
  type?: string | null;
  first: number;
  after?: string | null;
}

export interface EntityPage {
  edges: Array<{ cursor: string; node: EntityRecord }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const CURSOR_KIND = 'entity';

// Most mentioned first; canonicalName is unique per namespace, so (mentions, canonicalName)
// is a total order. A substring match suits a name search box better than Lucene's whole
// terms, and a namespace holds few enough entities for the scan.
export const PAGE_ENTITIES = `
MATCH (e:Entity {namespace: $namespace})
WITH e, coalesce(e.mentions, 0) AS mentions
WHERE ($type IS NULL OR e.type = $type)
  AND ($search IS NULL OR e.canonicalName CONTAINS $search)
  AND ($afterMentions IS NULL OR mentions < $afterMentions OR (mentions = $afterMentions AND e.canonicalName > $afterName))
WITH e, mentions ORDER BY mentions DESC, e.canonicalName LIMIT toInteger($limit)
RETURN ${ENTITY_RETURN('e')} AS entity`;

export function canonicalSearch(search: string | null | undefined): string | null {
  const canonical = search == null ? null : cleanText(search).trim().toLowerCase().replace(/\s+/g, ' ');
  return canonical ? canonical : null;
}

export async function entitiesPage(executor: Executor, query: EntityPageQuery): Promise<EntityPage> {
  const after = query.after ? decodeCursor(CURSOR_KIND, query.after, ['number', 'string']) : null;
  const rows = await executor.read<{ entity: EntityRecord }>('entities.page', PAGE_ENTITIES, {
    namespace: query.namespace,
    type: query.type ?? null,
    search: canonicalSearch(query.search),
    afterMentions: after?.[0] ?? null,
    afterName: after?.[1] ?? null,
    limit: query.first + 1,
  });
  const edges = rows
    .slice(0, query.first)
    .map(({ entity }) => ({ cursor: encodeCursor(CURSOR_KIND, [entity.mentions, entity.canonicalName]), node: entity }));
  return { edges, pageInfo: { hasNextPage: rows.length > query.first, endCursor: edges.at(-1)?.cursor ?? null } };
}
