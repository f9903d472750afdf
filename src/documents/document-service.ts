import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Executor } from '../db/index.js';
import {
  createDocument,
  documentById,
  documentParts,
  documentsPage,
  finishDocument,
  leaseDocument,
  linkDocumentParts,
  linkedIndexes,
  releaseDocument,
  setDocumentState,
  type DocumentPage,
  type DocumentRecord,
  type LeasedDocument,
} from '../db/index.js';
import { isMnemographError, LimitExceededError, MnemographError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { redactStored, redactStoredOrNull } from '../redaction/index.js';
import { cleanText } from '../text/index.js';
import type { RememberService } from '../write/index.js';
import { checkUrl, fetchUrl, FetchError, type AddressPolicy, type Resolver } from './url-fetcher.js';
import { textWindows } from './windows.js';

/** Windows stored per rememberBatch call (one embedding batch, one write transaction); small, as each chunk runs a dedup vector query. */
const WINDOWS_PER_BATCH = 4;
const MAX_TITLE_CHARS = 256;
export const DOCUMENT_ACTOR = 'document-ingest';

export interface DocumentSettings {
  chunkSize: number;
  chunkOverlap: number;
  maxContentBytes: number;
  fetchTimeoutMs: number;
  allowAddress: AddressPolicy;
  resolve?: Resolver;
  maxAttempts: number;
  /** A lease not renewed for this long is taken over (its worker died). */
  leaseTimeoutMs: number;
  maxBatchSize: number;
  defaultNamespace: string;
  /** Only documents of these namespaces are processed here (WORKER_NAMESPACES); null: all. */
  namespaces: readonly string[] | null;
}

export interface IngestInput {
  namespace: string;
  url?: string | null;
  text?: string | null;
  title?: string | null;
}

/**
 * Document ingest: `ingest` records the document (PENDING) and returns at once;
 * `processNext` (the worker's ingest loop) leases one, extracts its text (the URL fetcher, or the
 * text given), cuts overlapping windows, stores each as a `document_chunk` memory through the
 * write path (redaction, embedding, indexes, dedup) and links it to the document with its index.
 * A retry resumes: windows already linked are not stored again.
 */
export class DocumentService {
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly executor: Executor,
    private readonly remember: RememberService,
    private readonly settings: DocumentSettings,
    private readonly logger: Logger,
  ) {}

  async ingest(input: IngestInput): Promise<DocumentRecord> {
    const hasUrl = typeof input.url === 'string' && input.url.trim() !== '';
    // Text and title are made well-formed (src/text) like every stored string; a URL is checked as sent.
    const text = typeof input.text === 'string' ? cleanText(input.text) : null;
    const hasText = text !== null && text.trim() !== '';
    if (hasUrl === hasText) throw new ValidationError('give exactly one of url and text', { field: hasUrl ? 'text' : 'url' });
    const title = (input.title == null ? '' : cleanText(input.title)).trim() || null;
    if (title && title.length > MAX_TITLE_CHARS)
      throw new ValidationError(`title is longer than ${MAX_TITLE_CHARS} characters`, { field: 'title' });
    let url: string | null = null;
    if (hasUrl) {
      try {
        url = checkUrl(input.url!.trim()).toString();
      } catch (error) {
        throw new ValidationError((error as Error).message, { field: 'url' });
      }
      // A URL is stored as given (the loop fetches it later): one carrying a secret is refused.
      if (redactStored(url) !== url)
        throw new ValidationError('the URL contains what looks like a credential; it is not stored', { field: 'url' });
    }
    if (hasText && Buffer.byteLength(text!, 'utf8') > this.settings.maxContentBytes) {
      throw new LimitExceededError(`text is over ${this.settings.maxContentBytes} bytes (DOCUMENT_MAX_CONTENT_BYTES)`, { field: 'text' });
    }
    const safeTitle = redactStoredOrNull(title);
    const document = await createDocument(this.executor, {
      id: randomUUID(),
      namespace: input.namespace,
      name: safeTitle ?? url ?? 'document',
      title: safeTitle,
      url,
      sourceType: hasUrl ? 'url' : 'text',
      rawContent: hasText ? redactStored(text!) : null,
      maxAttempts: this.settings.maxAttempts,
    });
    this.logger.info({ documentId: document.id, namespace: input.namespace, source: document.sourceType }, 'document queued');
    return document;
  }

  get(id: string): Promise<DocumentRecord | null> {
    return documentById(this.executor, id);
  }

  list(namespace: string, first: number, after?: string | null): Promise<DocumentPage> {
    return documentsPage(this.executor, { namespace, first, after });
  }

  parts(id: string, first: number) {
    return documentParts(this.executor, id, first);
  }

  /** Leases and processes one document; false when none was waiting. */
  async processNext(): Promise<boolean> {
    const doc = await leaseDocument(this.executor, this.owner, {
      namespaces: this.settings.namespaces,
      staleMs: this.settings.leaseTimeoutMs,
    });
    if (!doc) return false;
    const log = this.logger.child({ documentId: doc.id, attempt: doc.attempts });
    try {
      if (doc.attempts > doc.maxAttempts) throw new FetchError('UNAVAILABLE', `gave up after ${doc.maxAttempts} attempts`, true);
      const done = await this.process(doc);
      if (done) log.info({ chunks: doc.chunksTotal }, 'document ingested');
    } catch (error) {
      const coded = isMnemographError(error) ? error : new MnemographError('INTERNAL', 'unexpected error while ingesting');
      if (!isMnemographError(error)) log.error({ err: error }, 'document ingest failed unexpectedly');
      const message = `[${coded.code}] ${redactStored(coded.message)}`.slice(0, 500);
      const permanent =
        error instanceof FetchError
          ? error.permanent
          : !coded.retriable && coded.code !== 'INTERNAL' && coded.code !== 'UNAVAILABLE' && coded.code !== 'TIMEOUT';
      if (!permanent && doc.attempts < doc.maxAttempts) {
        await releaseDocument(this.executor, doc.id, this.owner, message);
        log.warn({ error: message }, 'document ingest failed; will retry');
      } else {
        await finishDocument(this.executor, doc.id, this.owner, { status: 'FAILED', error: message });
        log.warn({ error: message }, 'document ingest failed for good');
      }
    }
    return true;
  }

  /** The stages; false when the lease was lost on the way (another worker carries on). */
  private async process(doc: LeasedDocument): Promise<boolean> {
    let text: string;
    let title = doc.title;
    const state: Record<string, unknown> = {};
    if (doc.sourceType === 'url') {
      const fetched = await fetchUrl(doc.url!, {
        timeoutMs: this.settings.fetchTimeoutMs,
        maxBytes: this.settings.maxContentBytes,
        allowAddress: this.settings.allowAddress,
        ...(this.settings.resolve ? { resolve: this.settings.resolve } : {}),
      });
      text = cleanText(fetched.text);
      title ??= fetched.title ? redactStored(cleanText(fetched.title).slice(0, MAX_TITLE_CHARS)) : null;
      Object.assign(state, { contentType: fetched.contentType, title, name: title ?? doc.url });
    } else {
      text = doc.rawContent ?? '';
      state.contentType = 'text/plain';
    }
    if (
      !(await setDocumentState(this.executor, doc.id, this.owner, {
        ...state,
        status: 'CHUNKING',
        contentBytes: Buffer.byteLength(text, 'utf8'),
      }))
    )
      return false;

    const windows = textWindows(text, this.settings.chunkSize, this.settings.chunkOverlap);
    if (windows.length === 0) throw new FetchError('BAD_USER_INPUT', 'the document has no text', true);
    if (!(await setDocumentState(this.executor, doc.id, this.owner, { status: 'EMBEDDING', chunksTotal: windows.length }))) return false;

    const linked = await linkedIndexes(this.executor, doc.id);
    const todo = windows.filter((w) => !linked.has(w.index));
    const batch = Math.max(1, Math.min(WINDOWS_PER_BATCH, this.settings.maxBatchSize));
    for (let at = 0; at < todo.length; at += batch) {
      const slice = todo.slice(at, at + batch);
      const outcomes = await this.remember.rememberBatch(
        slice.map((w) => ({
          content: w.text,
          namespace: doc.namespace,
          type: 'document_chunk',
          source: 'document',
          externalId: `${doc.id}:${w.index}`,
          tags: title ? [title.slice(0, 64)] : [],
          metadata: { documentId: doc.id, index: w.index, startChar: w.startChar },
        })),
        { enqueueJobs: false, actor: DOCUMENT_ACTOR },
      );
      const failed = outcomes.find((o) => o.error);
      if (failed?.error) throw failed.error;
      const parts = outcomes.map((o) => ({ index: slice[o.index]!.index, memoryId: o.result!.memory.id }));
      if ((await linkDocumentParts(this.executor, doc.id, this.owner, parts)) === null) return false;
    }

    if (!(await setDocumentState(this.executor, doc.id, this.owner, { status: 'INDEXING' }))) return false;
    // Every window must be linked before DONE: a part lost on the way is retried, not hidden.
    const all = await linkedIndexes(this.executor, doc.id);
    if (windows.some((w) => !all.has(w.index)))
      throw new MnemographError('UNAVAILABLE', 'some chunks were not linked; retrying', { retriable: true });
    return finishDocument(this.executor, doc.id, this.owner, { status: 'DONE', error: null, chunksDone: windows.length });
  }
}
