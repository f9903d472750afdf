// npm run docs:config — writes docs/configuration.md from the configuration schema
// (src/config/schema.ts): each variable's type, bounds and default from its zod type, what it
// does from its `.describe()`. test/structure/configuration-docs.test.ts fails when the
// committed file differs from what this produces.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod/v3';
import { configSchema, namespaceSchema } from '../src/config/schema.js';
import { DEFAULT_RECALL_SETTINGS, recallSettingsFromEnv, recallSettingsSchema } from '../src/recall/settings/index.js';

type Key = keyof typeof configSchema.shape;

interface Group {
  title: string;
  intro: string;
  keys: readonly Key[];
  /** Variables read outside the schema (by a command or a script), documented here. */
  others?: readonly { name: string; type: string; default: string; description: string }[];
}

/** Grouped by what a person is doing; every key of the schema in exactly one group. */
export const GROUPS: readonly Group[] = [
  {
    title: 'Running the service',
    intro: 'Where the API listens, what it logs, and the namespace of calls that name none.',
    keys: ['HOST', 'PORT', 'LOG_LEVEL', 'DEFAULT_NAMESPACE'],
    others: [
      {
        name: 'MNEMOGRAPH_CONFIG',
        type: 'path',
        default: 'unset',
        description: 'A JSON file with any of these keys (API_KEYS may be an array there); the environment wins over it.',
      },
    ],
  },
  {
    title: 'Neo4j',
    intro: 'Your Neo4j, or the local one `npm start` starts when `NEO4J_URI` is unset.',
    keys: [
      'NEO4J_URI',
      'NEO4J_USER',
      'NEO4J_PASSWORD',
      'NEO4J_DATABASE',
      'NEO4J_BOLT_PORT',
      'NEO4J_HTTP_PORT',
      'NEO4J_HOME_DIR',
      'NEO4J_READ_TIMEOUT_MS',
      'NEO4J_WRITE_TIMEOUT_MS',
    ],
    others: [
      {
        name: 'NEO4J_HEAP_MB',
        type: 'integer (MB)',
        default: "Neo4j's own",
        description: "The local Neo4j's heap, for `npm run neo4j:start` (scripts/neo4j.mjs).",
      },
    ],
  },
  {
    title: 'Securing',
    intro: 'Who may call, from where, and how much one call or one caller may ask for ([security.md](security.md)).',
    keys: [
      'API_KEYS',
      'ALLOWED_HOSTS',
      'TRUST_NETWORK',
      'MAX_REQUEST_BYTES',
      'MAX_QUERY_DEPTH',
      'MAX_QUERY_COST',
      'MAX_PAGE_SIZE',
      'MAX_QUERY_ALIASES',
      'MAX_QUERY_DIRECTIVES',
      'MAX_QUERY_TOKENS',
      'RATE_LIMIT_PER_MINUTE',
      'MAX_CONCURRENT_REQUESTS_PER_KEY',
      'URL_FETCH_ALLOW_PRIVATE_NETWORKS',
    ],
    others: [
      {
        name: 'MNEMOGRAPH_API_KEY',
        type: 'string',
        default: 'unset',
        description: 'The API key `npm run mcp` (MCP over stdio) acts with; unset: open mode ([mcp.md](mcp.md)).',
      },
    ],
  },
  {
    title: 'Writing memories',
    intro: 'What `remember` accepts, redacts and stores.',
    keys: [
      'MAX_CONTENT_CHARS',
      'MAX_BATCH_SIZE',
      'MAX_METADATA_BYTES',
      'REDACTION_ENABLED',
      'REDACT_EMAILS',
      'REDACTION_EXTRA_PATTERNS',
      'DEDUP_DUPLICATE_THRESHOLD',
      'DEDUP_NEAR_THRESHOLD',
      'MIN_IMPORTANCE_TO_STORE',
    ],
  },
  {
    title: 'Embedding',
    intro:
      'The local embedding model ([operations.md](operations.md#embedding-models)), or an OpenAI-compatible embeddings server ([README](../README.md#embeddings-from-a-provider)).',
    keys: [
      'EMBEDDING_PROVIDER',
      'EMBEDDING_MODEL',
      'EMBEDDING_MODEL_DIR',
      'EMBEDDING_BATCH_SIZE',
      'EMBEDDING_THREADS',
      'EMBEDDING_QUANTIZED',
      'EMBEDDING_BASE_URL',
      'EMBEDDING_API_KEY',
    ],
  },
  {
    title: 'Tuning recall',
    intro:
      "Recall's default recipe; every other recall setting is set per request ([recall-quality.md](recall-quality.md)). Unset, a recall variable leaves the recall settings schema's default (src/recall/settings/), shown here.",
    keys: ['GRAPH_BOOST_ENABLED', 'GRAPH_BOOST_WEIGHT', 'RERANK_ENABLED', 'RERANK_TOP_N', 'ACCESS_FLUSH_MS'],
  },
  {
    title: 'The deep path',
    intro: 'The LLM work the worker does after a write ([deep-path.md](deep-path.md)).',
    keys: [
      'PIPELINE_ENABLED',
      'PIPELINE_SHADOW_MODE',
      'MUTATIONS_FROZEN',
      'ALLOW_UPDATE_DELETE',
      'LLM_PROVIDER',
      'OLLAMA_HOST',
      'OLLAMA_MODEL',
      'LLM_MODEL',
      'OPENAI_BASE_URL',
      'OPENAI_API_KEY',
      'ANTHROPIC_BASE_URL',
      'ANTHROPIC_API_KEY',
      'LLM_CLAUDE_CODE_BIN',
      'EXTRACTION_TIMEOUT_MS',
      'MIN_FACT_CONFIDENCE',
      'DEDUP_LLM_ENABLED',
      'CLASSIFY_LLM_ENABLED',
      'HINTS_ENABLED',
      'HINTS_MAX',
      'SEMANTIC_CONTRADICTION_ENABLED',
    ],
  },
  {
    title: 'The worker',
    intro: 'The job queue every background task runs on ([operations.md](operations.md#running-several-replicas)).',
    keys: [
      'WORKER_ENABLED',
      'WORKER_NAMESPACES',
      'WORKER_POLL_MS',
      'WORKER_MAX_ATTEMPTS',
      'WORKER_LEASE_TIMEOUT_MS',
      'WORKER_RETRY_BASE_MS',
      'LLM_BUDGET_CALLS',
    ],
  },
  {
    title: 'Sessions',
    intro: 'Sessions that look after themselves, decay and compression ([sessions.md](sessions.md)).',
    keys: [
      'SESSIONS_ENABLED',
      'SESSION_CHECKPOINT_PROMPTS',
      'SESSION_CHECKPOINT_INTERVAL_MS',
      'SESSION_RECOVERY_BUDGET_CHARS',
      'SESSION_START_BUDGET_CHARS',
      'SESSION_IDLE_TIMEOUT_MS',
      'SESSION_GLOBAL_NAMESPACE',
      'DECAY_INTERVAL_MS',
      'DECAY_UNRETRIEVED_DAYS',
      'COMPRESSION_AUTO_INTERVAL_MS',
      'COMPRESSION_AUTO_MIN_SESSIONS',
      'COMPRESSION_AUTO_AGE_DAYS',
    ],
  },
  {
    title: 'Documents',
    intro: 'Documents and URLs ingested as chunked memories.',
    keys: ['DOCUMENT_MAX_CONTENT_BYTES', 'DOCUMENT_CHUNK_SIZE', 'DOCUMENT_CHUNK_OVERLAP', 'URL_FETCH_TIMEOUT_MS'],
  },
  {
    title: 'Upkeep',
    intro: 'The loops worker replicas run to keep the store small and whole ([operations.md](operations.md#upkeep-and-documents)).',
    keys: [
      'RETENTION_INTERVAL_MS',
      'RETENTION_TOMBSTONE_DAYS',
      'RETENTION_HISTORY_DAYS',
      'RETENTION_COMPLETED_JOB_DAYS',
      'RETENTION_DEAD_JOB_DAYS',
      'EMBEDDING_TRACKER_ENABLED',
      'EMBEDDING_TRACKER_BATCH_SIZE',
      'MAINTENANCE_INTERVAL_MS',
      'MAINTENANCE_MODE',
      'MAINTENANCE_AUTO_ACTIONS',
    ],
  },
];

interface Described {
  type: string;
  default: string;
  description: string;
}

/** Type, bounds, default and description of one setting, read from its zod type through zod's own accessors. */
export function describeSetting(name: string, schema: z.ZodTypeAny): Described {
  let description = schema.description;
  let defaultValue: unknown;
  let optional = false;
  let type = '';
  const visit = (s: z.ZodTypeAny): void => {
    description ??= s.description;
    if (s instanceof z.ZodDefault) {
      if (defaultValue === undefined) defaultValue = s._def.defaultValue();
      visit(s.removeDefault());
    } else if (s instanceof z.ZodOptional) {
      optional = true;
      visit(s.unwrap());
    } else if (s instanceof z.ZodEffects) {
      visit(s.innerType());
      // Text parsed into a value by a transform: a JSON array when its default is one.
      if (s._def.effect.type === 'transform' && typeof defaultValue === 'string' && defaultValue.startsWith('[')) type = 'JSON array';
    } else if (s instanceof z.ZodPipeline) {
      // A list parsed from text (comma-separated), or a number given a narrower range: the output type says which.
      const out = s._def.out as z.ZodTypeAny;
      if (out instanceof z.ZodArray) {
        visit(s._def.in);
        type = listType(out.element as z.ZodTypeAny);
      } else {
        visit(s._def.in);
        type = '';
        visit(out);
      }
    } else if (s instanceof z.ZodUnion) {
      const options = s.options as z.ZodTypeAny[];
      if (options.some((o) => o instanceof z.ZodBoolean)) type = 'boolean';
      else
        type = options
          .map((o) => (o instanceof z.ZodLiteral ? (o.value === '' ? 'empty' : `\`${String(o.value)}\``) : typeOf(o)))
          .join(' or ');
    } else {
      type = typeOf(s);
    }
  };
  visit(schema);
  const recall = description ? null : recallPath(name);
  if (recall) {
    // A recall setting: its description and default live in the recall settings schema (one home).
    const field = recallField(recall).description;
    description = `Recall setting \`${recall.join('.')}\`${field ? `: ${field}` : ''}`;
    defaultValue = recall.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], DEFAULT_RECALL_SETTINGS);
  }
  if (!description) throw new Error(`${name} has no description: add .describe() in src/config/schema.ts`);
  const shown = defaultValue === undefined ? (optional ? 'unset' : '—') : `\`${String(defaultValue)}\``;
  return { type, default: shown === '``' ? 'empty' : shown, description: sentence(description) };
}

/** The recall setting a variable sets (its path), found by asking recallSettingsFromEnv where a marker lands. */
function recallPath(name: string): string[] | null {
  const marker = Symbol(name);
  const find = (value: unknown, path: string[]): string[] | null => {
    if (value === marker) return path;
    if (typeof value !== 'object' || value === null) return null;
    for (const [key, inner] of Object.entries(value)) {
      const found = find(inner, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  return find(recallSettingsFromEnv({ [name]: marker } as never, 'default'), []);
}

/** The recall settings schema's field at `path`. */
function recallField(path: string[]): z.ZodTypeAny {
  let at: z.ZodTypeAny = recallSettingsSchema;
  for (const key of path) {
    while (at instanceof z.ZodEffects || at instanceof z.ZodDefault) at = at instanceof z.ZodEffects ? at.innerType() : at.removeDefault();
    at = (at as z.AnyZodObject).shape[key] as z.ZodTypeAny;
  }
  return at;
}

function typeOf(s: z.ZodTypeAny): string {
  if (s === namespaceSchema) return 'namespace';
  if (s instanceof z.ZodNumber) return numberType(s);
  if (s instanceof z.ZodBoolean) return 'boolean';
  if (s instanceof z.ZodEnum) return `one of ${(s.options as string[]).map((o) => `\`${o}\``).join(', ')}`;
  if (s instanceof z.ZodString) return s.isURL ? 'URL' : 'string';
  return 'string';
}

function numberType(n: z.ZodNumber): string {
  const range =
    n.minValue !== null && n.maxValue !== null
      ? ` in [${n.minValue}, ${n.maxValue}]`
      : n.minValue !== null
        ? ` ≥ ${n.minValue}`
        : n.maxValue !== null
          ? ` ≤ ${n.maxValue}`
          : '';
  return `${n.isInt ? 'integer' : 'number'}${range}`;
}

function listType(element: z.ZodTypeAny): string {
  return element === namespaceSchema ? 'comma-separated namespaces' : 'comma-separated list';
}

/** A description ends with a full stop (the recall settings' do not). */
function sentence(text: string): string {
  return text.endsWith('.') ? text : `${text}.`;
}

/** Markdown table cells: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export function renderConfigurationDocs(): string {
  const shape = configSchema.shape as Record<string, z.ZodTypeAny>;
  const grouped = GROUPS.flatMap((g) => g.keys as readonly string[]);
  const missing = Object.keys(shape).filter((key) => !grouped.includes(key));
  const unknown = grouped.filter((key) => !(key in shape));
  const twice = grouped.filter((key, i) => grouped.indexOf(key) !== i);
  if (missing.length + unknown.length + twice.length > 0)
    throw new Error(
      `scripts/config-docs.ts GROUPS: missing ${missing.join(', ') || '-'}; unknown ${unknown.join(', ') || '-'}; twice ${twice.join(', ') || '-'}`,
    );
  const others = GROUPS.flatMap((g) => g.others ?? []).length;
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated by `npm run docs:config` from src/config/schema.ts; edit the schema, not this file. -->',
    '',
    `Every setting is an environment variable (${grouped.length} in the schema, ${others} read by a command or script), or the same key in a JSON file named by`,
    '`MNEMOGRAPH_CONFIG`; the environment wins. Values are checked once at start-up: an invalid one stops it with',
    'a message naming the variable and what it accepts. Bounds are inclusive; durations are in milliseconds (`_MS`),',
    'sizes in characters (`_CHARS`) or bytes (`_BYTES`); booleans accept `true`/`false`, `1`/`0`, `yes`/`no`.',
    '',
    ...GROUPS.map((g) => `- [${g.title}](#${anchor(g.title)})`),
  ];
  for (const group of GROUPS) {
    lines.push('', `## ${group.title}`, '', group.intro, '', '| Variable | Type | Default | What it does |', '|---|---|---|---|');
    for (const key of group.keys) {
      const d = describeSetting(key, shape[key] as z.ZodTypeAny);
      lines.push(`| \`${key}\` | ${cell(d.type)} | ${cell(d.default)} | ${cell(d.description)} |`);
    }
    for (const other of group.others ?? [])
      lines.push(`| \`${other.name}\` | ${other.type} | ${other.default} | ${cell(other.description)} |`);
  }
  return `${lines.join('\n')}\n`;
}

function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

export const CONFIGURATION_DOCS_PATH = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CONFIGURATION_DOCS_PATH, renderConfigurationDocs());
  console.log(`wrote ${CONFIGURATION_DOCS_PATH}`);
}
