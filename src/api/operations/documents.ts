import type { DocumentRecord, IngestInput } from '../../documents/index.js';
import type { Caller } from '../caller.js';
import { pageSize } from '../limits.js';
import type { Addressed } from './types.js';

/** Queues a document (a URL or a text) for ingestion; the worker's ingest loop picks it up. */
export function ingestDocument(caller: Caller, input: Addressed<IngestInput>): Promise<DocumentRecord> {
  const namespace = caller.namespaceFor(input.namespace, 'write');
  return caller.services.upkeep.ingestDocument({ ...input, namespace });
}

/** One document by id; one outside the caller's namespaces is null, like a missing one. */
export async function document(caller: Caller, id: string): Promise<DocumentRecord | null> {
  const found = await caller.services.upkeep.documents.get(id);
  return found && caller.principal.canRead(found.namespace) ? found : null;
}

/** A namespace's documents, a page at a time. */
export function documents(caller: Caller, request: { namespace?: string | null; first?: number | null; after?: string | null }) {
  return caller.services.upkeep.documents.list(
    caller.namespaceFor(request.namespace, 'read'),
    pageSize(request.first, caller.limits.maxPageSize),
    request.after,
  );
}

/** A document's chunk memories in order (the document itself was already checked against the caller's namespaces). */
export function documentChunks(caller: Caller, id: string, first?: number | null) {
  return caller.services.upkeep.documents.parts(id, pageSize(first, caller.limits.maxPageSize));
}

/** chunksDone / chunksTotal (0 before chunking, 1 when DONE). */
export function documentProgress(d: DocumentRecord): number {
  return d.status === 'DONE' ? 1 : d.chunksTotal > 0 ? d.chunksDone / d.chunksTotal : 0;
}
