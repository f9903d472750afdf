/** Defaults with their units in the name; the seeds' values unless docs/deviations.md records otherwise. */
export const DEFAULT_PORT = 4000;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_NAMESPACE = 'default';

export const DEFAULT_NEO4J_USER = 'neo4j';
export const DEFAULT_NEO4J_DATABASE = 'neo4j';
export const DEFAULT_NEO4J_BOLT_PORT = 7687;
export const DEFAULT_NEO4J_HTTP_PORT = 7474;
/** Server-side transaction timeouts: a read answers within seconds or fails with TIMEOUT. */
export const DEFAULT_NEO4J_READ_TIMEOUT_MS = 5 * 1000;
export const DEFAULT_NEO4J_WRITE_TIMEOUT_MS = 30 * 1000;

/** e5-small-v2 (8-bit, from Maven Central): the best recall of the models provisioned on the three dev families (docs/recall-quality.md). */
export const DEFAULT_EMBEDDING_MODEL = 'Xenova/e5-small-v2';
export const DEFAULT_EMBEDDING_BATCH_SIZE = 32;
/** onnxruntime intra-op threads for the embedding model; 0 = one per physical core. */
export const DEFAULT_EMBEDDING_THREADS = 0;

export const DEFAULT_MAX_CONTENT_CHARS = 50_000;
export const DEFAULT_MAX_BATCH_SIZE = 500;
export const DEFAULT_MAX_METADATA_BYTES = 16 * 1024;

export const DEFAULT_DUPLICATE_THRESHOLD = 0.98;
export const DEFAULT_NEAR_DUPLICATE_THRESHOLD = 0.92;

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_OLLAMA_MODEL = 'qwen3:4b';
export const DEFAULT_EXTRACTION_TIMEOUT_MS = 45 * 1000;
export const DEFAULT_MIN_FACT_CONFIDENCE = 0.7;

export const DEFAULT_WORKER_POLL_MS = 2 * 1000;
export const DEFAULT_WORKER_MAX_ATTEMPTS = 3;
export const DEFAULT_WORKER_LEASE_TIMEOUT_MS = 5 * 60 * 1000;

/** Recall's access counts are flushed in the background at this interval (best-effort). */
export const DEFAULT_ACCESS_FLUSH_MS = 5 * 1000;
export const DEFAULT_ACCESS_MAX_PENDING = 10_000;

export const DEFAULT_MAX_REQUEST_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_QUERY_DEPTH = 8;
export const DEFAULT_MAX_QUERY_COST = 5_000;
export const DEFAULT_MAX_PAGE_SIZE = 100;
/** GraphQL Armor's limits: aliases and directives per operation, lexer tokens per document. */
export const DEFAULT_MAX_QUERY_ALIASES = 15;
export const DEFAULT_MAX_QUERY_DIRECTIVES = 50;
export const DEFAULT_MAX_QUERY_TOKENS = 2_000;
/** Per API key (open mode: all callers together); generous enough for `npm run bench:load`. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6_000;
export const DEFAULT_MAX_CONCURRENT_REQUESTS_PER_KEY = 32;

/** Upkeep (the retention sweep): windows in days, one batch per purge step and run. */
export const DEFAULT_RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;
export const DEFAULT_RETENTION_TOMBSTONE_DAYS = 30;
export const DEFAULT_RETENTION_HISTORY_DAYS = 180;
export const DEFAULT_RETENTION_COMPLETED_JOB_DAYS = 14;
export const DEFAULT_RETENTION_DEAD_JOB_DAYS = 30;
export const DEFAULT_RETENTION_BATCH_SIZE = 500;
/** Embedding tracker: chunks re-embedded per cycle, and the pause between idle cycles. */
export const DEFAULT_EMBEDDING_TRACKER_POLL_MS = 5 * 1000;
export const DEFAULT_EMBEDDING_TRACKER_BATCH_SIZE = 8;
/** Document ingest and URL fetcher. The poll is the design's 10 s: an ingest in the same process wakes the loop at once, so it only paces other replicas. */
export const DEFAULT_DOCUMENT_POLL_MS = 10 * 1000;
export const DEFAULT_DOCUMENT_MAX_CONTENT_BYTES = 10 * 1024 * 1024;
export const DEFAULT_DOCUMENT_CHUNK_SIZE = 2_000;
export const DEFAULT_DOCUMENT_CHUNK_OVERLAP = 200;
export const DEFAULT_URL_FETCH_TIMEOUT_MS = 30 * 1000;
/** Maintenance: every 30 min in worker replicas; the cooldown and hourly budget of a repair without its own (action-limits.ts). */
export const DEFAULT_MAINTENANCE_INTERVAL_MS = 30 * 60 * 1000;
export const DEFAULT_MAINTENANCE_COOLDOWN_MS = 5 * 60 * 1000;
export const DEFAULT_MAINTENANCE_HOURLY_BUDGET = 6;
