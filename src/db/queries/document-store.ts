import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/**
 * Documents: the Document node is its own queue entry. Its status
 * moves PENDING → EXTRACTING → CHUNKING → EMBEDDING → INDEXING → DONE (or FAILED); every change
 * after the lease is made only by the lease holder. `(:Document)-[:HAS_PART {index}]->(:Memory)`
 * links its chunk memories.
 */

export type DocumentStatus = 'PENDING' | 'EXTRACTING' | 'CHUNKING' | 'EMBEDDING' | 'INDEXING' | 'DONE' | 'FAILED';

export interface DocumentRecord {
  id: string;
  namespace: string;
  title: string | null;
  url: string | null;
  sourceType: 'url' | 'text';
  status: DocumentStatus;
  error: string | null;
  contentType: string | null;
  contentBytes: number | null;
  chunksDone: number;
  chunksTotal: number;
  attempts: number;
  maxAttempts: number;
  createdAt: string;
  updatedAt: string;
}

export interface LeasedDocument extends DocumentRecord {
  rawContent: string | null;
}

const DOCUMENT_RETURN = (d: string) => `${d} {
  .id, .namespace, .title, .url, .sourceType, .status, .error, .contentType, .contentBytes,
  chunksDone: coalesce(${d}.chunksDone, 0), chunksTotal: coalesce(${d}.chunksTotal, 0),
  attempts: coalesce(${d}.attempts, 0), maxAttempts: coalesce(${d}.maxAttempts, 1), .createdAt, .updatedAt }`;

export const CREATE = `
MERGE (d:Document {id: $props.id})
  ON CREATE SET d += $props, d.status = 'PENDING', d.attempts = 0, d.chunksDone = 0, d.chunksTotal = 0,
    d.createdAt = $now, d.updatedAt = $now
RETURN ${DOCUMENT_RETURN('d')} AS document`;

// Lock each candidate, then read its state again (as the job queue does): two claimers never
// lease one document. A lease gone stale (its holder died) is taken over.
export const LEASE = `
MATCH (d:Document)
WHERE d.status IN ['PENDING', 'EXTRACTING', 'CHUNKING', 'EMBEDDING', 'INDEXING']
  AND ($namespaces IS NULL OR d.namespace IN $namespaces)
  AND (d.status = 'PENDING' OR d.leasedAt < $staleBefore)
WITH d ORDER BY d.createdAt, d.id LIMIT 5
SET d._lock = true
REMOVE d._lock
WITH d WHERE d.status = 'PENDING' OR (d.status <> 'DONE' AND d.status <> 'FAILED' AND d.leasedAt < $staleBefore)
WITH d ORDER BY d.createdAt, d.id LIMIT 1
SET d.status = 'EXTRACTING', d.leaseOwner = $owner, d.leaseId = $leaseId, d.leasedAt = $now, d.attempts = coalesce(d.attempts, 0) + 1, d.updatedAt = $now
RETURN ${DOCUMENT_RETURN('d')} AS document, d.rawContent AS rawContent`;

// The same lease call run again after its COMMIT reply was lost finds what it leased (the
// document is no longer PENDING, so LEASE would pass it over and count another attempt).
export const LEASED_BY_CALL = `
MATCH (d:Document {status: 'EXTRACTING'})
WHERE d.leaseId = $leaseId
RETURN ${DOCUMENT_RETURN('d')} AS document, d.rawContent AS rawContent`;

export const SET_STATE = `
MATCH (d:Document {id: $id})
WHERE d.leaseOwner = $owner
SET d += $props, d.leasedAt = $now, d.updatedAt = $now
RETURN d.id AS id`;

export const LINK_PARTS = `
MATCH (d:Document {id: $id})
WHERE d.leaseOwner = $owner
UNWIND $parts AS p
MATCH (m:Memory {id: p.memoryId})
MERGE (d)-[r:HAS_PART {index: p.index}]->(m)
WITH DISTINCT d
SET d.chunksDone = size(COLLECT { MATCH (d)-[r:HAS_PART]->() RETURN DISTINCT r.index }), d.leasedAt = $now, d.updatedAt = $now
RETURN d.chunksDone AS chunksDone`;

export const LINKED_INDEXES = `
MATCH (:Document {id: $id})-[r:HAS_PART]->()
RETURN collect(DISTINCT r.index) AS indexes`;

// The lease ends with the outcome; the raw text is dropped once its chunks hold it.
// A re-run after a lost COMMIT reply finds the lease ended by this very holder (finishedBy).
export const FINISH = `
MATCH (d:Document {id: $id})
WHERE d.leaseOwner = $owner OR (d.leaseOwner IS NULL AND d.finishedBy = $owner AND d.status = $props.status)
SET d += $props, d.finishedBy = $owner, d.leaseOwner = null, d.leasedAt = null, d.updatedAt = $now
REMOVE d.rawContent
RETURN d.id AS id`;

export const RELEASE = `
MATCH (d:Document {id: $id})
WHERE d.leaseOwner = $owner
SET d.status = 'PENDING', d.error = $error, d.leaseOwner = null, d.leasedAt = null, d.updatedAt = $now
RETURN d.id AS id`;

export const BY_ID = `MATCH (d:Document {id: $id}) RETURN ${DOCUMENT_RETURN('d')} AS document`;

export const PAGE = `
MATCH (d:Document {namespace: $namespace})
WHERE $after IS NULL OR [d.createdAt, d.id] < $after
WITH d ORDER BY d.createdAt DESC, d.id DESC LIMIT $limit
RETURN ${DOCUMENT_RETURN('d')} AS document`;

export const COUNT = `MATCH (d:Document {namespace: $namespace}) RETURN count(d) AS n`;

export const PARTS = `
MATCH (:Document {id: $id})-[r:HAS_PART]->(m:Memory)
WITH r.index AS index, m ORDER BY index LIMIT $limit
RETURN ${MEMORY_RETURN('m')} AS memory`;

const now = () => new Date().toISOString();

export async function createDocument(executor: Executor, props: Record<string, unknown>): Promise<DocumentRecord> {
  const [row] = await executor.write<{ document: DocumentRecord }>('documents.create', CREATE, { props, now: now() });
  return row!.document;
}

export async function leaseDocument(
  executor: Executor,
  owner: string,
  options: { namespaces: readonly string[] | null; staleMs: number },
): Promise<LeasedDocument | null> {
  const at = Date.now();
  const leaseId = randomUUID();
  const params = {
    owner,
    leaseId,
    namespaces: options.namespaces ? [...options.namespaces] : null,
    now: new Date(at).toISOString(),
    staleBefore: new Date(at - options.staleMs).toISOString(),
  };
  const row = await executor.writeTx('documents.lease', async (tx) => {
    type Row = { document: DocumentRecord; rawContent: string | null };
    const [again] = await tx.run<Row>(LEASED_BY_CALL, params);
    return again ?? (await tx.run<Row>(LEASE, params))[0];
  });
  return row ? { ...row.document, rawContent: row.rawContent } : null;
}

/** False when the lease was lost (another worker took the document over). */
export async function setDocumentState(executor: Executor, id: string, owner: string, props: Record<string, unknown>): Promise<boolean> {
  return (await executor.write('documents.state', SET_STATE, { id, owner, props, now: now() })).length > 0;
}

export async function linkDocumentParts(
  executor: Executor,
  id: string,
  owner: string,
  parts: Array<{ index: number; memoryId: string }>,
): Promise<number | null> {
  const [row] = await executor.write<{ chunksDone: number }>('documents.link', LINK_PARTS, {
    id,
    owner,
    parts: parts.map((p) => ({ ...p, index: neo4j.int(p.index) })),
    now: now(),
  });
  return row ? Number(row.chunksDone) : null;
}

export async function linkedIndexes(executor: Executor, id: string): Promise<Set<number>> {
  const [row] = await executor.read<{ indexes: number[] }>('documents.linked', LINKED_INDEXES, { id });
  return new Set((row?.indexes ?? []).map(Number));
}

export async function finishDocument(executor: Executor, id: string, owner: string, props: Record<string, unknown>): Promise<boolean> {
  return (await executor.write('documents.finish', FINISH, { id, owner, props, now: now() })).length > 0;
}

/** Back to the queue after a failure that may pass (the next lease retries it). */
export async function releaseDocument(executor: Executor, id: string, owner: string, error: string): Promise<boolean> {
  return (await executor.write('documents.release', RELEASE, { id, owner, error, now: now() })).length > 0;
}

export async function documentById(executor: Executor, id: string): Promise<DocumentRecord | null> {
  const [row] = await executor.read<{ document: DocumentRecord }>('documents.by-id', BY_ID, { id });
  return row?.document ?? null;
}

export interface DocumentPage {
  edges: Array<{ cursor: string; node: DocumentRecord }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

export async function documentsPage(
  executor: Executor,
  query: { namespace: string; first: number; after?: string | null },
): Promise<DocumentPage> {
  const after = query.after ? decodeCursor('doc', query.after, ['string', 'string']) : null;
  const [rows, count] = await Promise.all([
    executor.read<{ document: DocumentRecord }>('documents.page', PAGE, {
      namespace: query.namespace,
      after,
      limit: neo4j.int(query.first + 1),
    }),
    executor.read<{ n: number }>('documents.count', COUNT, { namespace: query.namespace }),
  ]);
  const page = rows
    .slice(0, query.first)
    .map((r) => ({ cursor: encodeCursor('doc', [r.document.createdAt, r.document.id]), node: r.document }));
  return {
    edges: page,
    pageInfo: { hasNextPage: rows.length > query.first, endCursor: page.at(-1)?.cursor ?? null },
    totalCount: Number(count[0]?.n ?? 0),
  };
}

export async function documentParts(executor: Executor, id: string, limit: number): Promise<MemoryRecord[]> {
  const rows = await executor.read<{ memory: MemoryRecord }>('documents.parts', PARTS, { id, limit: neo4j.int(limit) });
  return rows.map((r) => r.memory);
}
