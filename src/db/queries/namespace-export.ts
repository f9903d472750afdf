import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * The reads of `exportNamespace`: every node of one namespace, kind by kind, then every edge
 * between them, each in pages by id (the `(namespace, id)` range indexes of migration 018, an
 * index seek in id order), so memory stays bounded by the page size and a page costs the same at
 * the start of a namespace as at its end. The labels and relationship types are fixed lists
 * (never input); jobs, locks and upkeep state (UpkeepState: counters and limits, started afresh in
 * the target) are process state, not part of a namespace's content.
 */

/** The node kinds a namespace export carries, in the order they are written (parents before children). */
export const PORTABLE_LABELS = [
  'Entity',
  'Aspect',
  'Attribute',
  'Memory',
  'Chunk',
  'Hint',
  'Document',
  'Session',
  'Checkpoint',
  'Transcript',
  'HistoryEvent',
] as const;
export type PortableLabel = (typeof PORTABLE_LABELS)[number];

/** Every relationship type of the graph model, by the label it leaves from. */
export const PORTABLE_EDGES = {
  Entity: ['HAS_ASPECT', 'RELATES_TO'],
  Aspect: ['HAS_ATTRIBUTE'],
  Attribute: ['FROM', 'SUPERSEDES'],
  Memory: ['HAS_CHUNK', 'MENTIONS', 'DUPLICATE_OF', 'EXTRACTED_FROM', 'SUMMARIZES'],
  Hint: ['HINT_OF'],
  Document: ['HAS_PART'],
  HistoryEvent: ['ABOUT'],
} as const satisfies Partial<Record<PortableLabel, readonly string[]>>;
export type EdgeSource = keyof typeof PORTABLE_EDGES;
export const EDGE_SOURCES = Object.keys(PORTABLE_EDGES) as EdgeSource[];

/** Which of a value's keys hold integers (the driver reads them as JS numbers; an import writes them back as integers). */
const INTEGER_KEYS = (v: string) =>
  `[k IN keys(${v}) WHERE valueType(${v}[k]) STARTS WITH 'INTEGER' OR valueType(${v}[k]) STARTS WITH 'LIST<INTEGER']`;

const nodePage = (label: PortableLabel) => `
MATCH (n:${label})
WHERE n.namespace = $namespace AND n.id > $after
WITH n ORDER BY n.id ASC LIMIT $first
RETURN n.id AS id, n {.*, embedding: null} AS props, ${INTEGER_KEYS('n')} AS ints,
  CASE WHEN $vectors THEN n.embedding ELSE null END AS embedding`;

/** One page of a label's nodes after the cursor's id, in id order. */
export const EXPORT_NODE_PAGES = Object.fromEntries(PORTABLE_LABELS.map((label) => [label, nodePage(label)])) as Record<
  PortableLabel,
  string
>;

const startPage = (label: EdgeSource) => `
MATCH (n:${label})
WHERE n.namespace = $namespace AND n.id >= $from AND ($inclusive OR n.id > $from)
WITH n ORDER BY n.id ASC LIMIT $first
RETURN n.id AS id`;

/** The ids of the nodes whose outgoing edges the next edge page reads (from the cursor's id on, or after it). */
export const EXPORT_EDGE_STARTS = Object.fromEntries(EDGE_SOURCES.map((label) => [label, startPage(label)])) as Record<EdgeSource, string>;

// Edges of the start nodes, in one total order (start id, type, end id, relation type), so that
// SKIP resumes inside a start node with more edges than one page holds.
const edgePage = (label: EdgeSource) => `
UNWIND $ids AS id
MATCH (a:${label} {id: id})-[r]->(b)
WHERE type(r) IN $types AND b.namespace = $namespace
WITH a, r, b ORDER BY a.id, type(r), b.id, coalesce(r.type, '')
SKIP $skip LIMIT $first
RETURN a.id AS from, type(r) AS type, b.id AS to, labels(b) AS toLabels, properties(r) AS props, ${INTEGER_KEYS('r')} AS ints`;

/** One page of the outgoing edges of a page of start nodes. */
export const EXPORT_EDGE_PAGES = Object.fromEntries(EDGE_SOURCES.map((label) => [label, edgePage(label)])) as Record<EdgeSource, string>;

export interface ExportedNode {
  id: string;
  props: Record<string, unknown>;
  ints: string[];
  embedding: number[] | null;
}

export interface ExportedEdge {
  from: string;
  type: string;
  to: string;
  toLabels: string[];
  props: Record<string, unknown>;
  ints: string[];
}

export async function exportNodePage(
  executor: Executor,
  label: PortableLabel,
  q: { namespace: string; after: string; first: number; vectors: boolean },
): Promise<ExportedNode[]> {
  const rows = await executor.read<ExportedNode & Record<string, unknown>>(
    `namespace.export.${label.toLowerCase()}`,
    EXPORT_NODE_PAGES[label],
    {
      namespace: q.namespace,
      after: q.after,
      first: neo4j.int(q.first),
      vectors: q.vectors,
    },
  );
  return rows.map((r) => ({ ...r, embedding: r.embedding ? Array.from(r.embedding as ArrayLike<number>) : null }));
}

/** The edge page after `(from, skip)` and the start ids it covered. */
export async function exportEdgePage(
  executor: Executor,
  label: EdgeSource,
  q: { namespace: string; from: string; inclusive: boolean; skip: number; first: number },
): Promise<{ starts: string[]; edges: ExportedEdge[] }> {
  return executor.readTx(`namespace.export.edges.${label.toLowerCase()}`, async (tx) => {
    const starts = (
      await tx.run<{ id: string }>(EXPORT_EDGE_STARTS[label], {
        namespace: q.namespace,
        from: q.from,
        inclusive: q.inclusive,
        first: neo4j.int(q.first),
      })
    ).map((r) => r.id);
    if (starts.length === 0) return { starts, edges: [] };
    const edges = await tx.run<ExportedEdge & Record<string, unknown>>(EXPORT_EDGE_PAGES[label], {
      namespace: q.namespace,
      ids: starts,
      types: [...PORTABLE_EDGES[label]],
      skip: neo4j.int(q.skip),
      first: neo4j.int(q.first),
    });
    return { starts, edges };
  });
}
