import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JOBS_PAGE } from '../../src/db/jobs/jobs-page.js';
import { ERASE_STEPS } from '../../src/db/queries/namespace-erase.js';
import { EXPORT_EDGE_PAGES, EXPORT_EDGE_STARTS, EXPORT_NODE_PAGES } from '../../src/db/queries/namespace-export.js';
import { IMPORT_EDGES, IMPORT_NODES } from '../../src/db/queries/namespace-import.js';
import { NEIGHBOR_DEPTHS, neighborsQuery } from '../../src/db/queries/neighbors.js';

/**
 * Every Cypher statement of the service, by name, for the plan tier (test/integration/cypher-plans.int.test.ts).
 *
 * The convention (src/db/ is the only folder with Cypher): a statement is an exported string
 * constant of a module under src/db/, found here by importing every module of that folder and
 * named `db/<path>#<EXPORT_NAME>`. A statement assembled from allow-listed pieces is exported as
 * a builder (or a table of statements); those are listed in BUILT below with every variant the
 * code can produce. An exported value that holds Cypher but is neither a string nor in BUILT is
 * reported (`unregistered`), so a new builder table cannot slip past the plan tier.
 */

export interface CypherStatement {
  /** `db/<module path>#<export>`, plus `(variant)` / `[variant]` for built statements. */
  name: string;
  cypher: string;
}

export interface CypherRegistry {
  statements: CypherStatement[];
  /** `db/<module>#<export>` of exported values holding Cypher that nothing registers. */
  unregistered: string[];
  /** BUILT entries whose module or export no longer exists (moved or renamed: update BUILT). */
  missingBuilders: string[];
}

const DB_DIR = fileURLToPath(new URL('../../src/db/', import.meta.url));

/** Cypher text: after whitespace and comments, one of the clauses a statement starts with (uppercase, as written here). */
const CYPHER_START =
  /^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*(?:OPTIONAL\s+MATCH|MATCH|MERGE|CREATE|UNWIND|CALL|WITH|RETURN|SHOW|DROP)\b/;

export function isCypher(value: unknown): value is string {
  return typeof value === 'string' && CYPHER_START.test(value);
}

interface Built {
  /** `db/<module path>#<export>`: must exist, so a move or rename is noticed here. */
  source: string;
  /** `[variant, cypher]` for every variant the code builds. */
  variants: () => ReadonlyArray<readonly [string, string]>;
  /** How the name shows the variant: a call `(1)` or an element `[0:Chunk]`. */
  style: 'call' | 'element';
}

/** Statements made by exported builders and tables, each variant registered explicitly. */
const BUILT: readonly Built[] = [
  {
    source: 'db/queries/neighbors#neighborsQuery',
    variants: () => NEIGHBOR_DEPTHS.map((depth) => [String(depth), neighborsQuery(depth)] as const),
    style: 'call',
  },
  {
    source: 'db/jobs/jobs-page#JOBS_PAGE',
    variants: () => Object.entries(JOBS_PAGE),
    style: 'element',
  },
  {
    source: 'db/queries/namespace-erase#ERASE_STEPS',
    variants: () => ERASE_STEPS.map((step, i) => [`${i}:${step.label}`, step.cypher] as const),
    style: 'element',
  },
  ...(
    [
      ['db/queries/namespace-export#EXPORT_NODE_PAGES', EXPORT_NODE_PAGES],
      ['db/queries/namespace-export#EXPORT_EDGE_STARTS', EXPORT_EDGE_STARTS],
      ['db/queries/namespace-export#EXPORT_EDGE_PAGES', EXPORT_EDGE_PAGES],
      ['db/queries/namespace-import#IMPORT_NODES', IMPORT_NODES],
      ['db/queries/namespace-import#IMPORT_EDGES', IMPORT_EDGES],
    ] as const
  ).map(([source, table]): Built => ({ source, variants: () => Object.entries(table), style: 'element' })),
];

/** Exported strings that look like Cypher but are pieces of statements, not statements (keep this empty if you can). */
const FRAGMENTS: ReadonlySet<string> = new Set<string>([]);

export async function cypherStatements(): Promise<CypherRegistry> {
  const files = (await readdir(DB_DIR, { recursive: true }))
    .map((file) => file.split(sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    // index.ts files only re-export what their modules hold.
    .filter((file) => !/(^|\/)index\.ts$/.test(file))
    .sort();
  const builtSources = new Set(BUILT.map((b) => b.source));
  const exported = new Set<string>();
  const statements: CypherStatement[] = [];
  const unregistered: string[] = [];
  for (const file of files) {
    const module = `db/${file.replace(/\.ts$/, '')}`;
    const exports = (await import(join(DB_DIR, file))) as Record<string, unknown>;
    for (const [key, value] of Object.entries(exports)) {
      const source = `${module}#${key}`;
      exported.add(source);
      if (builtSources.has(source) || FRAGMENTS.has(source)) continue;
      if (isCypher(value)) statements.push({ name: source, cypher: value });
      else if (holdsCypher(value)) unregistered.push(source);
    }
  }
  const missingBuilders = BUILT.filter((b) => !exported.has(b.source)).map((b) => b.source);
  for (const built of BUILT) {
    if (!exported.has(built.source)) continue;
    for (const [variant, cypher] of built.variants()) {
      const name = built.style === 'call' ? `${built.source}(${variant})` : `${built.source}[${variant}]`;
      statements.push({ name, cypher });
    }
  }
  // By module and export; a builder's variants stay in the order it lists them.
  const source = (s: CypherStatement) => s.name.replace(/[([].*$/, '');
  statements.sort((a, b) => (source(a) < source(b) ? -1 : source(a) > source(b) ? 1 : 0));
  return { statements, unregistered, missingBuilders };
}

/** Arrays and plain objects (a few levels deep) holding a Cypher string. */
function holdsCypher(value: unknown, depth = 0): boolean {
  if (isCypher(value)) return depth > 0;
  if (depth > 3 || value === null || typeof value !== 'object') return false;
  const items = Array.isArray(value) ? value : Object.getPrototypeOf(value) === Object.prototype ? Object.values(value) : [];
  return items.some((item) => holdsCypher(item, depth + 1));
}

/** The text as a reader wants it in a snapshot: no blank edges, common indentation and trailing spaces gone. */
export function normalizeCypher(cypher: string): string {
  const lines = cypher.split('\n').map((line) => line.trimEnd());
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines.at(-1)) lines.pop();
  const indent = Math.min(...lines.filter(Boolean).map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(indent)).join('\n');
}
