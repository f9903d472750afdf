import { z } from 'zod/v3';
import * as d from './defaults.js';
import * as pd from './pipeline-defaults.js';
import * as sd from './session-defaults.js';
import { DEFAULT_AUTO_ACTIONS } from './action-limits.js';
import { extraPatternsSchema } from '../redaction/index.js';
import { recallSettingFields as recall } from './recall-settings.js';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** An environment value for a field declared elsewhere (a recall setting): that field gives the bounds and the default. */
const fromEnvFlag = <T extends z.ZodTypeAny>(field: T) =>
  z.preprocess((value) => {
    const parsed = bool.safeParse(value);
    return parsed.success ? parsed.data : value;
  }, field);
const fromEnvNumber = <T extends z.ZodTypeAny>(field: T) => z.preprocess((value) => (value === undefined ? value : Number(value)), field);
const fraction = z.coerce.number().min(0).max(1);
const namespace = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . - (max 64, starting alphanumeric)');

const apiKey = z.object({
  key: z.string().min(16, 'API keys must be at least 16 characters'),
  name: z.string().default('key'),
  namespaces: z.array(z.union([namespace, z.literal('*')])).min(1),
  readOnly: z.boolean().default(false),
});

/**
 * Every setting, keyed by its environment variable. The same keys may come from a JSON
 * config file (MNEMOGRAPH_CONFIG); the environment wins.
 */
export const configSchema = z.object({
  HOST: z.string().default(d.DEFAULT_HOST),
  PORT: int(0, 65535).default(d.DEFAULT_PORT),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEFAULT_NAMESPACE: namespace.default(d.DEFAULT_NAMESPACE),

  NEO4J_URI: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\//, 'a bolt:// or neo4j:// URI')
    .optional(),
  NEO4J_USER: z.string().min(1).default(d.DEFAULT_NEO4J_USER),
  /** Unset: the local Neo4j's generated password (`<NEO4J_HOME_DIR>/password`); required with NEO4J_URI. */
  NEO4J_PASSWORD: z.string().min(8, 'Neo4j requires at least 8 characters').optional(),
  NEO4J_DATABASE: z.string().min(1).default(d.DEFAULT_NEO4J_DATABASE),
  NEO4J_BOLT_PORT: int(1, 65535).default(d.DEFAULT_NEO4J_BOLT_PORT),
  NEO4J_HTTP_PORT: int(1, 65535).default(d.DEFAULT_NEO4J_HTTP_PORT),
  NEO4J_HOME_DIR: z.string().optional(),
  NEO4J_READ_TIMEOUT_MS: int(100, 600_000).default(d.DEFAULT_NEO4J_READ_TIMEOUT_MS),
  NEO4J_WRITE_TIMEOUT_MS: int(100, 600_000).default(d.DEFAULT_NEO4J_WRITE_TIMEOUT_MS),

  EMBEDDING_MODEL: z.string().default(d.DEFAULT_EMBEDDING_MODEL),
  EMBEDDING_MODEL_DIR: z.string().optional(),
  EMBEDDING_BATCH_SIZE: int(1, 256).default(d.DEFAULT_EMBEDDING_BATCH_SIZE),
  EMBEDDING_THREADS: int(0, 256).default(d.DEFAULT_EMBEDDING_THREADS),
  /** The 8-bit model: embeds each text alone, since in a padded batch its vectors would shift with batch company (docs/speed.md, embedding runtime). */
  EMBEDDING_QUANTIZED: bool.default(false),

  MAX_CONTENT_CHARS: int(100, 10_000_000).default(d.DEFAULT_MAX_CONTENT_CHARS),
  MAX_BATCH_SIZE: int(1, 10_000).default(d.DEFAULT_MAX_BATCH_SIZE),
  MAX_METADATA_BYTES: int(0, 1_048_576).default(d.DEFAULT_MAX_METADATA_BYTES),
  REDACTION_ENABLED: bool.default(true),
  REDACT_EMAILS: bool.default(true),
  REDACTION_EXTRA_PATTERNS: extraPatternsSchema,
  // Unset: the embedding model's own (src/embedding/model-profiles.ts; MiniLM's are
  // DEFAULT_DUPLICATE_THRESHOLD / DEFAULT_NEAR_DUPLICATE_THRESHOLD): cosines are not comparable across models.
  DEDUP_DUPLICATE_THRESHOLD: fraction.optional(),
  DEDUP_NEAR_THRESHOLD: fraction.optional(),
  MIN_IMPORTANCE_TO_STORE: fraction.default(0),

  PIPELINE_ENABLED: bool.default(true),
  PIPELINE_SHADOW_MODE: bool.default(false),
  MUTATIONS_FROZEN: bool.default(false),
  ALLOW_UPDATE_DELETE: bool.default(false),
  HINTS_ENABLED: bool.default(false),
  /** The worker decides near-duplicates (merge / replace / keep both) with the LLM; without it recall collapses them. */
  DEDUP_LLM_ENABLED: bool.default(true),
  /** The worker classifies an entity's attributes into aspects with the LLM (one call per entity); the rules stay the fallback. */
  CLASSIFY_LLM_ENABLED: bool.default(true),
  CLASSIFY_BATCH_SIZE: int(1, 50).default(20),
  OLLAMA_HOST: z.string().url().default(d.DEFAULT_OLLAMA_HOST),
  OLLAMA_MODEL: z.string().min(1).default(d.DEFAULT_OLLAMA_MODEL),
  /** The deep path's model servers in order (comma-separated): the first answers, the next stand in while it is unavailable (docs/model-servers.md). */
  LLM_PROVIDER: z
    .string()
    .default('ollama')
    .transform((s) =>
      s
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['ollama', 'openai', 'anthropic', 'claude-code'])).min(1)),
  /** The model of every provider but Ollama (OLLAMA_MODEL); each provider's default when absent. */
  LLM_MODEL: z.string().min(1).optional(),
  /** The names the official SDKs read. Keys are secrets: never logged, stored or reported. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  /** The Claude Code executable (`claude` on PATH when absent). */
  LLM_CLAUDE_CODE_BIN: z.string().min(1).optional(),
  EXTRACTION_TIMEOUT_MS: int(5_000, 300_000).default(d.DEFAULT_EXTRACTION_TIMEOUT_MS),
  MIN_FACT_CONFIDENCE: fraction.default(d.DEFAULT_MIN_FACT_CONFIDENCE),
  WORKER_ENABLED: bool.default(true),
  WORKER_POLL_MS: int(100, 60_000).default(d.DEFAULT_WORKER_POLL_MS),
  WORKER_MAX_ATTEMPTS: int(1, 10).default(d.DEFAULT_WORKER_MAX_ATTEMPTS),
  WORKER_LEASE_TIMEOUT_MS: int(10_000, 600_000).default(d.DEFAULT_WORKER_LEASE_TIMEOUT_MS),
  WORKER_RETRY_BASE_MS: int(0, 600_000).default(pd.DEFAULT_WORKER_RETRY_BASE_MS),
  /** This replica's worker leases only jobs of these namespaces (comma-separated; empty: every namespace). */
  WORKER_NAMESPACES: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(namespace)),
  SEMANTIC_CONTRADICTION_ENABLED: bool.default(false),
  SEMANTIC_CONTRADICTION_TIMEOUT_MS: int(5_000, 300_000).default(pd.DEFAULT_SEMANTIC_CONTRADICTION_TIMEOUT_MS),
  HINTS_MAX: int(1, 20).default(pd.DEFAULT_HINTS_MAX),

  /**
   * Recall's default recipe (src/recall/settings/env.ts): defaults are the recall settings schema's.
   * Timeouts and the rerank window are an operator's setting for every recall, so they keep a
   * narrower, integer range than one request's override may use.
   */
  GRAPH_BOOST_ENABLED: fromEnvFlag(recall.graph.enabled),
  GRAPH_BOOST_WEIGHT: fromEnvNumber(recall.graph.boostWeight),
  GRAPH_BOOST_TIMEOUT_MS: fromEnvNumber(recall.graph.timeoutMs.pipe(int(50, 5_000))),
  RERANK_ENABLED: fromEnvFlag(recall.rerank.enabled),
  RERANK_TOP_N: fromEnvNumber(recall.rerank.topN.pipe(int(1, 100))),
  RERANK_TIMEOUT_MS: fromEnvNumber(recall.rerank.timeoutMs.pipe(int(100, 30_000))),
  ACCESS_FLUSH_MS: int(100, 600_000).default(d.DEFAULT_ACCESS_FLUSH_MS),
  ACCESS_MAX_PENDING: int(1, 1_000_000).default(d.DEFAULT_ACCESS_MAX_PENDING),

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
    }),
  /** Host names served in open mode besides localhost, 127.0.0.1 and [::1] (comma-separated). */
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*$|^\[[0-9A-Fa-f:.]{2,45}\]$/, 'host names (no port), comma-separated'),
      ),
    ),
  /** Listen beyond loopback without API keys: only inside a private network (docker-compose). */
  TRUST_NETWORK: bool.default(false),
  MAX_REQUEST_BYTES: int(1_024, 100 * 1024 * 1024).default(d.DEFAULT_MAX_REQUEST_BYTES),
  MAX_QUERY_DEPTH: int(2, 50).default(d.DEFAULT_MAX_QUERY_DEPTH),
  MAX_QUERY_COST: int(10, 1_000_000).default(d.DEFAULT_MAX_QUERY_COST),
  MAX_PAGE_SIZE: int(1, 1_000).default(d.DEFAULT_MAX_PAGE_SIZE),
  MAX_QUERY_ALIASES: int(0, 1_000).default(d.DEFAULT_MAX_QUERY_ALIASES),
  MAX_QUERY_DIRECTIVES: int(0, 1_000).default(d.DEFAULT_MAX_QUERY_DIRECTIVES),
  MAX_QUERY_TOKENS: int(100, 100_000).default(d.DEFAULT_MAX_QUERY_TOKENS),
  /** Requests per API key per minute; 0 turns the limit off. */
  RATE_LIMIT_PER_MINUTE: int(0, 1_000_000).default(d.DEFAULT_RATE_LIMIT_PER_MINUTE),
  /** GraphQL requests of one API key in flight at once; 0 turns the limit off. */
  MAX_CONCURRENT_REQUESTS_PER_KEY: int(0, 10_000).default(d.DEFAULT_MAX_CONCURRENT_REQUESTS_PER_KEY),

  /** Upkeep: the retention sweep in the worker process (0 = off), its windows and batch size. */
  RETENTION_INTERVAL_MS: int(0, 7 * 24 * 3_600_000).default(d.DEFAULT_RETENTION_INTERVAL_MS),
  RETENTION_TOMBSTONE_DAYS: int(1, 36_500).default(d.DEFAULT_RETENTION_TOMBSTONE_DAYS),
  RETENTION_HISTORY_DAYS: int(1, 36_500).default(d.DEFAULT_RETENTION_HISTORY_DAYS),
  RETENTION_COMPLETED_JOB_DAYS: int(1, 36_500).default(d.DEFAULT_RETENTION_COMPLETED_JOB_DAYS),
  RETENTION_DEAD_JOB_DAYS: int(1, 36_500).default(d.DEFAULT_RETENTION_DEAD_JOB_DAYS),
  RETENTION_BATCH_SIZE: int(1, 10_000).default(d.DEFAULT_RETENTION_BATCH_SIZE),
  EMBEDDING_TRACKER_ENABLED: bool.default(true),
  EMBEDDING_TRACKER_POLL_MS: int(1_000, 60_000).default(d.DEFAULT_EMBEDDING_TRACKER_POLL_MS),
  EMBEDDING_TRACKER_BATCH_SIZE: int(1, 20).default(d.DEFAULT_EMBEDDING_TRACKER_BATCH_SIZE),
  DOCUMENT_POLL_MS: int(100, 600_000).default(d.DEFAULT_DOCUMENT_POLL_MS),
  DOCUMENT_MAX_CONTENT_BYTES: int(1_024, 100 * 1024 * 1024).default(d.DEFAULT_DOCUMENT_MAX_CONTENT_BYTES),
  DOCUMENT_CHUNK_SIZE: int(200, 20_000).default(d.DEFAULT_DOCUMENT_CHUNK_SIZE),
  DOCUMENT_CHUNK_OVERLAP: int(0, 5_000).default(d.DEFAULT_DOCUMENT_CHUNK_OVERLAP),
  URL_FETCH_TIMEOUT_MS: int(1_000, 300_000).default(d.DEFAULT_URL_FETCH_TIMEOUT_MS),
  /** Fetch from loopback, private and link-local addresses (refused by default, on every redirect too). */
  URL_FETCH_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** The maintenance worker's interval (0 = off), mode and rate limits (each repair also has its own, src/config/action-limits.ts). */
  MAINTENANCE_INTERVAL_MS: int(0, 24 * 3_600_000).default(d.DEFAULT_MAINTENANCE_INTERVAL_MS),
  MAINTENANCE_MODE: z.enum(['observe', 'execute']).default('execute'),
  /** The repairs the scheduled loop executes by itself (comma-separated); the others it only reports. */
  MAINTENANCE_AUTO_ACTIONS: z
    .string()
    .default(DEFAULT_AUTO_ACTIONS.join(','))
    .transform((s) =>
      s
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.enum(['requeueDeadJobs', 'releaseStaleLeases', 'reembedMissingVectors', 'checkFtsConsistency', 'triggerRetentionSweep'])),
    ),
  MAINTENANCE_COOLDOWN_MS: int(0, 24 * 3_600_000).default(d.DEFAULT_MAINTENANCE_COOLDOWN_MS),
  MAINTENANCE_HOURLY_BUDGET: int(1, 1_000).default(d.DEFAULT_MAINTENANCE_HOURLY_BUDGET),

  /** Sessions (startSession … endSession): periodic checkpoints, recovery, idle end, the session-end job. */
  SESSIONS_ENABLED: bool.default(true),
  SESSION_CHECKPOINT_PROMPTS: int(1, 1_000).default(sd.DEFAULT_SESSION_CHECKPOINT_PROMPTS),
  SESSION_CHECKPOINT_INTERVAL_MS: int(60_000, 3_600_000).default(sd.DEFAULT_SESSION_CHECKPOINT_INTERVAL_MS),
  SESSION_RECOVERY_BUDGET_CHARS: int(200, 10_000).default(sd.DEFAULT_SESSION_RECOVERY_BUDGET_CHARS),
  SESSION_START_BUDGET_CHARS: int(500, 40_000).default(sd.DEFAULT_SESSION_START_BUDGET_CHARS),
  SESSION_IDLE_TIMEOUT_MS: int(0, 7 * 24 * 3_600_000).default(sd.DEFAULT_SESSION_IDLE_TIMEOUT_MS),
  SESSION_SWEEP_INTERVAL_MS: int(1_000, 3_600_000).default(sd.DEFAULT_SESSION_SWEEP_INTERVAL_MS),
  SESSION_GLOBAL_NAMESPACE: z.union([namespace, z.literal('')]).default(sd.DEFAULT_SESSION_GLOBAL_NAMESPACE),
  /** Decay: the pass that flags stale memories (0 = off) and its window for persistent ones. */
  DECAY_INTERVAL_MS: int(0, 7 * 24 * 3_600_000).default(sd.DEFAULT_DECAY_INTERVAL_MS),
  DECAY_UNRETRIEVED_DAYS: int(1, 36_500).default(sd.DEFAULT_DECAY_UNRETRIEVED_DAYS),
  /** Compression started by a threshold (0 = off): old sessions per namespace, and their age. */
  COMPRESSION_AUTO_INTERVAL_MS: int(0, 7 * 24 * 3_600_000).default(sd.DEFAULT_COMPRESSION_AUTO_INTERVAL_MS),
  COMPRESSION_AUTO_MIN_SESSIONS: int(2, 10_000).default(sd.DEFAULT_COMPRESSION_AUTO_MIN_SESSIONS),
  COMPRESSION_AUTO_AGE_DAYS: int(1, 36_500).default(sd.DEFAULT_COMPRESSION_AUTO_AGE_DAYS),
});

export type Config = z.output<typeof configSchema>;
export type ApiKeyConfig = z.output<typeof apiKey>;
export const namespaceSchema = namespace;
