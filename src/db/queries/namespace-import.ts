import type { Executor, TxRunner } from '../executor.js';
import { restoreEvents } from '../history.js';
import type { PortableLabel } from './namespace-export.js';

/**
 * The documented writer of `importNamespace`: the nodes and edges of an export, written as they
 * were exported (the service has already mapped their ids, redacted their strings and made their
 * vectors). Every node is MERGEd on its id and written only ON CREATE, every edge MERGEd between
 * its two ends, so an import that stopped anywhere is finished by running it again, and importing
 * the same lines twice changes nothing. History events go through src/db/history.ts, the audit
 * trail's one writer. Labels and relationship types come from the fixed lists below, never from input.
 */

/** The labels written here (HistoryEvent: `restoreEvents` in history.ts). */
export type ImportLabel = Exclude<PortableLabel, 'HistoryEvent'>;

// Checkpoint ids carry no uniqueness constraint: the (namespace, id) index of migration 018 finds them.
const nodeImport = (label: ImportLabel) => `
UNWIND $rows AS row
MERGE (n:${label} {${label === 'Checkpoint' ? 'namespace: $namespace, ' : ''}id: row.id})
  ON CREATE SET n = row.props, n._new = true
WITH n, row, coalesce(n._new, false) AS created
REMOVE n._new
RETURN row.id AS id, created, n.namespace = $namespace AS ours`;

export const IMPORT_NODES = {
  Entity: nodeImport('Entity'),
  Aspect: nodeImport('Aspect'),
  Attribute: nodeImport('Attribute'),
  Memory: nodeImport('Memory'),
  Chunk: nodeImport('Chunk'),
  Hint: nodeImport('Hint'),
  Document: nodeImport('Document'),
  Session: nodeImport('Session'),
  Checkpoint: nodeImport('Checkpoint'),
  Transcript: nodeImport('Transcript'),
} as const satisfies Record<ImportLabel, string>;

// A vector only where the chunk has none yet (a re-run writes nothing new).
export const IMPORT_CHUNK_VECTORS = `
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
WHERE c.namespace = $namespace AND c.embedding IS NULL
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
RETURN count(c) AS written`;

// Chunks of an earlier run of the same import that already hold a vector: not embedded again.
export const EMBEDDED_CHUNKS = `
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
WHERE c.namespace = $namespace AND c.embedding IS NOT NULL
RETURN c.id AS id`;

/** Every edge kind of the graph model: its type and the labels at its two ends. */
export const IMPORT_EDGE_KINDS = {
  'HAS_ASPECT:Aspect': { type: 'HAS_ASPECT', from: 'Entity', to: 'Aspect' },
  'RELATES_TO:Entity': { type: 'RELATES_TO', from: 'Entity', to: 'Entity' },
  'HAS_ATTRIBUTE:Attribute': { type: 'HAS_ATTRIBUTE', from: 'Aspect', to: 'Attribute' },
  'FROM:Memory': { type: 'FROM', from: 'Attribute', to: 'Memory' },
  'SUPERSEDES:Attribute': { type: 'SUPERSEDES', from: 'Attribute', to: 'Attribute' },
  'HAS_CHUNK:Chunk': { type: 'HAS_CHUNK', from: 'Memory', to: 'Chunk' },
  'MENTIONS:Entity': { type: 'MENTIONS', from: 'Memory', to: 'Entity' },
  'DUPLICATE_OF:Memory': { type: 'DUPLICATE_OF', from: 'Memory', to: 'Memory' },
  'EXTRACTED_FROM:Memory': { type: 'EXTRACTED_FROM', from: 'Memory', to: 'Memory' },
  'SUMMARIZES:Memory': { type: 'SUMMARIZES', from: 'Memory', to: 'Memory' },
  'HINT_OF:Memory': { type: 'HINT_OF', from: 'Hint', to: 'Memory' },
  'HAS_PART:Memory': { type: 'HAS_PART', from: 'Document', to: 'Memory' },
  'ABOUT:Memory': { type: 'ABOUT', from: 'HistoryEvent', to: 'Memory' },
  'ABOUT:Entity': { type: 'ABOUT', from: 'HistoryEvent', to: 'Entity' },
} as const satisfies Record<string, { type: string; from: PortableLabel; to: PortableLabel }>;
export type ImportEdgeKind = keyof typeof IMPORT_EDGE_KINDS;

// RELATES_TO is one edge per relation type between two entities (its `type` property), the others one per pair.
const edgeImport = ({ type, from, to }: { type: string; from: string; to: string }) => `
UNWIND $rows AS row
MATCH (a:${from} {id: row.from})
WHERE a.namespace = $namespace
MATCH (b:${to} {id: row.to})
WHERE b.namespace = $namespace
MERGE (a)-[r:${type}${type === 'RELATES_TO' ? ' {type: row.props.type}' : ''}]->(b)
  ON CREATE SET r = row.props, r._new = true
WITH r, coalesce(r._new, false) AS created
REMOVE r._new
RETURN count(r) AS matched, sum(CASE WHEN created THEN 1 ELSE 0 END) AS created`;

export const IMPORT_EDGES = Object.fromEntries(Object.entries(IMPORT_EDGE_KINDS).map(([kind, edge]) => [kind, edgeImport(edge)])) as Record<
  ImportEdgeKind,
  string
>;

export interface ImportNodeRow {
  id: string;
  props: Record<string, unknown>;
}

export interface ImportEdgeRow {
  from: string;
  to: string;
  props: Record<string, unknown>;
}

export interface ImportWrite {
  namespace: string;
  nodes: ReadonlyArray<{ label: PortableLabel; rows: ImportNodeRow[] }>;
  vectors: ReadonlyArray<{ id: string; embedding: number[] }>;
  edges: ReadonlyArray<{ kind: ImportEdgeKind; rows: ImportEdgeRow[] }>;
}

export interface ImportCounts {
  /** Per label (and per edge kind): rows written now, rows found already there, rows refused. */
  created: Map<string, number>;
  existing: Map<string, number>;
  /** Nodes whose id belongs to another namespace, edges whose ends are not in this one. */
  skipped: Map<string, number>;
}

/**
 * One bounded batch of an import, in one write transaction (nodes, then vectors, then edges, so
 * an edge finds both of its ends when they are in the same batch). Safe to run twice.
 */
export async function writeImportBatch(executor: Executor, write: ImportWrite): Promise<ImportCounts> {
  return executor.writeTx('namespace.import', async (tx) => {
    const counts: ImportCounts = { created: new Map(), existing: new Map(), skipped: new Map() };
    const add = (map: Map<string, number>, key: string, n: number) => n && map.set(key, (map.get(key) ?? 0) + n);
    for (const { label, rows } of write.nodes) {
      if (rows.length === 0) continue;
      const result = await importNodes(tx, label, write.namespace, rows);
      add(counts.created, label, result.filter((r) => r.created && r.ours).length);
      add(counts.existing, label, result.filter((r) => !r.created && r.ours).length);
      add(counts.skipped, label, result.filter((r) => !r.ours).length);
    }
    if (write.vectors.length) await tx.run(IMPORT_CHUNK_VECTORS, { rows: write.vectors, namespace: write.namespace });
    for (const { kind, rows } of write.edges) {
      if (rows.length === 0) continue;
      const [row] = await tx.run<{ matched: number; created: number }>(IMPORT_EDGES[kind], { rows, namespace: write.namespace });
      add(counts.created, kind, row?.created ?? 0);
      add(counts.existing, kind, (row?.matched ?? 0) - (row?.created ?? 0));
      add(counts.skipped, kind, rows.length - (row?.matched ?? 0));
    }
    return counts;
  });
}

async function importNodes(
  tx: TxRunner,
  label: PortableLabel,
  namespace: string,
  rows: ImportNodeRow[],
): Promise<Array<{ id: string; created: boolean; ours: boolean }>> {
  if (label === 'HistoryEvent') return restoreEvents(tx, namespace, rows);
  return tx.run<{ id: string; created: boolean; ours: boolean }>(IMPORT_NODES[label], { rows, namespace });
}

// Live memories of the namespace holding one of these dedup keys under another id: an import
// into a namespace that already holds the same content keeps the one there.
export const LIVE_DEDUP_KEYS = `
UNWIND $keys AS key
MATCH (m:Memory {dedupKey: key})
RETURN key, m.id AS id`;

// Entities of the namespace already known by one of these canonical names under another id.
export const ENTITY_NAMES = `
UNWIND $names AS name
MATCH (e:Entity {namespace: $namespace, canonicalName: name})
RETURN name, e.id AS id`;

/** What the namespace already holds under the natural keys of the batch: key → id there. */
export async function existingKeys(
  executor: Executor,
  namespace: string,
  q: { dedupKeys: string[]; entityNames: string[]; chunkIds?: string[] },
): Promise<{ dedupKeys: Map<string, string>; entityNames: Map<string, string>; embeddedChunks: Set<string> }> {
  return executor.readTx('namespace.import.keys', async (tx) => {
    const keys = q.dedupKeys.length ? await tx.run<{ key: string; id: string }>(LIVE_DEDUP_KEYS, { keys: q.dedupKeys }) : [];
    const names = q.entityNames.length ? await tx.run<{ name: string; id: string }>(ENTITY_NAMES, { names: q.entityNames, namespace }) : [];
    const chunks = q.chunkIds?.length ? await tx.run<{ id: string }>(EMBEDDED_CHUNKS, { ids: q.chunkIds, namespace }) : [];
    return {
      dedupKeys: new Map(keys.map((r) => [r.key, r.id])),
      entityNames: new Map(names.map((r) => [r.name, r.id])),
      embeddedChunks: new Set(chunks.map((r) => r.id)),
    };
  });
}
