import { createHash } from 'node:crypto';
import neo4j from 'neo4j-driver';
import {
  derivedId,
  EDGE_SOURCES,
  existingKeys,
  exportEdgePage,
  exportNodePage,
  IMPORT_EDGE_KINDS,
  PORTABLE_LABELS,
  writeImportBatch,
  type Executor,
  type ImportCounts,
  type ImportEdgeKind,
  type ImportEdgeRow,
  type ImportNodeRow,
  type PortableLabel,
} from '../db/index.js';
import { ConflictError, LimitExceededError, MnemographError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { redactJsonString, redactStored, RedactionTally, type RedactionOptions } from '../redaction/index.js';
import { namespaceToken } from '../text/index.js';
import { normalizeContent, type TextEmbedder } from '../write/index.js';
import { checkNamespace } from './validate.js';

/**
 * A namespace that can move: `exportNamespace` writes it as JSON Lines (a header line, then one
 * line per node and per edge, each with its `kind`), a page at a time from a cursor;
 * `importNamespace` writes such lines into a namespace of this or another service, a bounded batch
 * at a time. See docs/export-import.md for the format.
 *
 * - Ids: into the namespace the export came from, the ids stay (a restore, or a move to another
 *   service); into another namespace each id becomes `derivedId(target, id)`, the same every time,
 *   so the import of the same lines into the same namespace is the same graph, and a re-run
 *   (an import that stopped) MERGEs onto what the first run wrote.
 * - Strings: every stored string passes the redactor again (the target's patterns may be stricter
 *   than the source's); a memory whose content changes gets its hash again, a chunk whose text
 *   changes its vector again.
 * - Vectors: not exported unless asked; a chunk without one, or with one of another model than
 *   the running one, is embedded on import.
 */

export const EXPORT_FORMAT = 'mnemograph.namespace';
export const EXPORT_VERSION = 1;
/** Records per export page (nodes, or edges): the default and the most one page may ask for. */
export const DEFAULT_EXPORT_PAGE = 500;
export const MAX_EXPORT_PAGE = 1_000;
/** Lines per import call (the header included), and the longest line (a chunk with its vector is about 8 KB). */
export const MAX_IMPORT_LINES = 2_000;
export const MAX_IMPORT_LINE_CHARS = 1_000_000;
/** Rows per write transaction inside one import call. */
export const IMPORT_BATCH_ROWS = 500;

/** The `kind` of a node line, by label. */
export const NODE_KINDS = {
  Entity: 'entity',
  Aspect: 'aspect',
  Attribute: 'attribute',
  Memory: 'memory',
  Chunk: 'chunk',
  Hint: 'hint',
  Document: 'document',
  Session: 'session',
  Checkpoint: 'checkpoint',
  Transcript: 'transcript',
  HistoryEvent: 'history',
} as const satisfies Record<PortableLabel, string>;
export type NodeKind = (typeof NODE_KINDS)[PortableLabel];
const LABEL_OF = new Map<string, PortableLabel>(Object.entries(NODE_KINDS).map(([label, kind]) => [kind, label as PortableLabel]));

export interface ExportHeader {
  kind: 'header';
  format: typeof EXPORT_FORMAT;
  version: number;
  namespace: string;
  exportedAt: string;
  /** The model the exporting service embeds with; a chunk line names the model of its own vector. */
  embeddingModel: string;
  vectors: boolean;
}

export interface NodeLine {
  kind: NodeKind;
  id: string;
  props: Record<string, unknown>;
  /** Properties that hold integers (JSON has one number type). */
  ints?: string[];
  /** A chunk's vector, when the export asked for vectors. */
  embedding?: number[];
}

export interface EdgeLine {
  kind: 'edge';
  type: string;
  from: string;
  to: string;
  fromKind: NodeKind;
  toKind: NodeKind;
  props: Record<string, unknown>;
  ints?: string[];
}

export type ExportLine = ExportHeader | NodeLine | EdgeLine | { kind: 'end'; counts: Record<string, number> };

export interface ExportPage {
  header: ExportHeader;
  lines: Array<NodeLine | EdgeLine>;
  /** Where the next page starts; null when this page ended the export. */
  cursor: string | null;
}

export interface ImportReport {
  namespace: string;
  /** Lines read (the header included). */
  lines: number;
  /** Nodes and edges written by this call. */
  created: number;
  /** Nodes and edges already there (written by an earlier run of the same import). */
  existing: number;
  /** Nodes left out (the namespace already holds the same memory or entity, or the id is another namespace's) and edges whose ends are not here. */
  skipped: number;
  /** Chunks embedded on import (no vector, another model's vector, or text the redactor changed). */
  embedded: number;
  /** String properties the redactor changed. */
  redacted: number;
  byKind: Array<{ kind: string; created: number; existing: number; skipped: number }>;
}

export interface TransferDeps {
  executor: Executor;
  embedder: TextEmbedder;
  redaction: RedactionOptions;
  logger: Logger;
}

/**
 * The export's position: a phase (one per label, then one per edge source label), the last id
 * written, and for edges how many of that node's edges were written (-1: all of them).
 */
interface Cursor {
  p: number;
  a: string;
  s: number;
}

const PHASES = [...PORTABLE_LABELS.map((label) => ({ nodes: label })), ...EDGE_SOURCES.map((label) => ({ edges: label }))] as const;

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(raw: string | null | undefined): Cursor {
  if (raw == null || raw === '') return { p: 0, a: '', s: 0 };
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (Number.isInteger(c.p) && c.p >= 0 && c.p < PHASES.length && typeof c.a === 'string' && Number.isInteger(c.s) && c.s >= -1) return c;
  } catch {
    // falls through to the refusal
  }
  throw new ValidationError('after is not a cursor of exportNamespace: pass back the cursor of the previous page', { field: 'after' });
}

export function exportHeader(namespace: string, embeddingModel: string, vectors: boolean, now = new Date()): ExportHeader {
  return {
    kind: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    namespace,
    exportedAt: now.toISOString(),
    embeddingModel,
    vectors,
  };
}

/**
 * One page of a namespace's export: up to `first` lines from the cursor on. Empty phases are
 * passed over in the same call, so a page is empty only at the end.
 */
export async function exportPage(
  deps: TransferDeps,
  namespace: string,
  options: { after?: string | null; first?: number | null; vectors?: boolean | null },
): Promise<ExportPage> {
  checkNamespace(namespace);
  const first = options.first ?? DEFAULT_EXPORT_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_EXPORT_PAGE) {
    throw new LimitExceededError(`first must be between 1 and ${MAX_EXPORT_PAGE}`, { field: 'first', max: MAX_EXPORT_PAGE });
  }
  const vectors = options.vectors ?? false;
  const header = exportHeader(namespace, deps.embedder.modelId, vectors);
  let cursor: Cursor | null = decodeCursor(options.after);
  const lines: Array<NodeLine | EdgeLine> = [];
  while (cursor && lines.length === 0) {
    const phase = PHASES[cursor.p]!;
    const next: Cursor | null = cursor.p + 1 < PHASES.length ? { p: cursor.p + 1, a: '', s: 0 } : null;
    if ('nodes' in phase) {
      const rows = await exportNodePage(deps.executor, phase.nodes, { namespace, after: cursor.a, first, vectors });
      for (const r of rows) lines.push(nodeLine(phase.nodes, r.id, r.props, r.ints, r.embedding));
      cursor = rows.length === first ? { p: cursor.p, a: rows.at(-1)!.id, s: 0 } : next;
    } else {
      const { starts, edges } = await exportEdgePage(deps.executor, phase.edges, {
        namespace,
        from: cursor.a,
        inclusive: cursor.s >= 0,
        skip: Math.max(0, cursor.s),
        first,
      });
      for (const e of edges) lines.push(edgeLine(phase.edges, e));
      if (edges.length === first) {
        const last = edges.at(-1)!.from;
        const inLast = edges.filter((e) => e.from === last).length;
        cursor = { p: cursor.p, a: last, s: last === cursor.a && cursor.s >= 0 ? cursor.s + inLast : inLast };
      } else if (starts.length === first) {
        cursor = { p: cursor.p, a: starts.at(-1)!, s: -1 };
      } else {
        cursor = next;
      }
    }
  }
  return { header, lines, cursor: cursor ? encodeCursor(cursor) : null };
}

function nodeLine(label: PortableLabel, id: string, props: Record<string, unknown>, ints: string[], embedding: number[] | null): NodeLine {
  const clean = Object.fromEntries(
    Object.entries(props).filter(([k, v]) => v !== null && k !== 'namespace' && k !== 'namespaceToken' && k !== 'embedding'),
  );
  return {
    kind: NODE_KINDS[label],
    id,
    props: clean,
    ...(ints.length ? { ints: [...ints].sort() } : {}),
    ...(embedding ? { embedding } : {}),
  };
}

function edgeLine(
  from: PortableLabel,
  e: { from: string; type: string; to: string; toLabels: string[]; props: Record<string, unknown>; ints: string[] },
): EdgeLine {
  const to = PORTABLE_LABELS.find((l) => e.toLabels.includes(l)) ?? 'Memory';
  return {
    kind: 'edge',
    type: e.type,
    from: e.from,
    to: e.to,
    fromKind: NODE_KINDS[from],
    toKind: NODE_KINDS[to],
    props: e.props,
    ...(e.ints.length ? { ints: [...e.ints].sort() } : {}),
  };
}

/* ---------------------------------------------------------------- import */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Properties that hold ids of other nodes (alone, in lists, or in pairs "a|b"); `details` is JSON that names them. */
const ID_PROPERTY = /(Id|Ids|By|Pairs)$|^sources$/;

/** Every id in an imported string swapped for its id in the target (a line's text is up to MAX_IMPORT_LINE_CHARS). */
export function swapIds(text: string, mapId: (id: string) => string): string {
  return text.replace(UUID, (id) => mapId(id));
}

/** Whether a property (or a metadata key) names ids of other nodes. */
export function isIdProperty(key: string): boolean {
  return ID_PROPERTY.test(key);
}
/** Properties that are structure, not text: ids, hashes, keys, times, the model name. Every other string is redacted. */
const STRUCTURAL_PROPERTY =
  /^(id|dedupKey|timelineKey|embeddingModel|namespaceToken|validFrom|validTo|validUntil)$|(Id|Ids|By|Pairs|Hash|At)$/;
/** String properties that hold JSON (redacted leaf by leaf). */
const JSON_PROPERTY = new Set(['details', 'metadata']);

/** The labels of the full-text indexes, which confine a query to one namespace by its token. */
const TOKENED_LABELS = new Set<PortableLabel>(['Memory', 'Entity', 'Hint']);

interface Parsed {
  header: ExportHeader;
  nodes: Map<PortableLabel, NodeLine[]>;
  edges: Map<ImportEdgeKind, EdgeLine[]>;
}

/** Reads and checks the lines of one import call: the header first, then node and edge lines. */
export function parseImportLines(lines: readonly string[]): Parsed {
  if (lines.length > MAX_IMPORT_LINES) {
    throw new LimitExceededError(`at most ${MAX_IMPORT_LINES} lines per import call`, { field: 'lines', max: MAX_IMPORT_LINES });
  }
  const records = lines.map((line, i) => parseLine(line, i + 1));
  const [header, ...rest] = records.filter((r): r is Record<string, unknown> => r !== null);
  if (!header || header.kind !== 'header') {
    throw new ValidationError('the first line of every import call is the export header (kind "header")', { field: 'lines', line: 1 });
  }
  if (header.format !== EXPORT_FORMAT || typeof header.version !== 'number' || header.version > EXPORT_VERSION) {
    throw new ValidationError(`not an export this service reads (format ${EXPORT_FORMAT}, version ≤ ${EXPORT_VERSION})`, {
      field: 'lines',
      line: 1,
    });
  }
  if (typeof header.namespace !== 'string' || typeof header.embeddingModel !== 'string') {
    throw new ValidationError('the header names no namespace or embedding model', { field: 'lines', line: 1 });
  }
  const parsed: Parsed = { header: header as unknown as ExportHeader, nodes: new Map(), edges: new Map() };
  rest.forEach((r, i) => {
    const line = i + 2;
    if (r.kind === 'end' || r.kind === 'header') return;
    if (r.kind === 'edge') {
      const e = checkEdge(r, line);
      const key = `${e.type}:${LABEL_OF.get(e.toKind)}` as ImportEdgeKind;
      const known = IMPORT_EDGE_KINDS[key];
      if (!known || NODE_KINDS[known.from] !== e.fromKind) {
        throw new ValidationError(`line ${line}: an edge ${e.fromKind} -${e.type}-> ${e.toKind} is not in the graph model`, {
          field: 'lines',
          line,
        });
      }
      parsed.edges.set(key, [...(parsed.edges.get(key) ?? []), e]);
      return;
    }
    const label = LABEL_OF.get(String(r.kind));
    if (!label) throw new ValidationError(`line ${line}: unknown kind ${JSON.stringify(r.kind)}`, { field: 'lines', line });
    parsed.nodes.set(label, [...(parsed.nodes.get(label) ?? []), checkNode(r, line)]);
  });
  return parsed;
}

function parseLine(line: string, n: number): Record<string, unknown> | null {
  if (line.length > MAX_IMPORT_LINE_CHARS) {
    throw new LimitExceededError(`line ${n} is longer than ${MAX_IMPORT_LINE_CHARS} characters`, { field: 'lines', line: n });
  }
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ValidationError(`line ${n} is not JSON`, { field: 'lines', line: n });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { kind?: unknown }).kind !== 'string') {
    throw new ValidationError(`line ${n} is not a record with a kind`, { field: 'lines', line: n });
  }
  return value as Record<string, unknown>;
}

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

function checkProps(value: unknown, line: number): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError(`line ${line}: props must be an object`, { field: 'lines', line });
  }
  for (const [key, v] of Object.entries(value)) {
    const scalar = (x: unknown) => x === null || ['string', 'number', 'boolean'].includes(typeof x);
    if (!(scalar(v) || (Array.isArray(v) && v.every(scalar)))) {
      throw new ValidationError(`line ${line}: property ${key} is neither a value nor a list of values`, { field: 'lines', line });
    }
  }
  return value as Record<string, unknown>;
}

function checkInts(value: unknown, line: number): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((k) => typeof k === 'string')) {
    throw new ValidationError(`line ${line}: ints must be a list of property names`, { field: 'lines', line });
  }
  return value as string[];
}

function checkNode(r: Record<string, unknown>, line: number): NodeLine {
  if (!isId(r.id)) throw new ValidationError(`line ${line}: a node needs an id`, { field: 'lines', line });
  const embedding = r.embedding;
  if (embedding !== undefined && (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number') || embedding.length > 4096)) {
    throw new ValidationError(`line ${line}: embedding must be a list of numbers`, { field: 'lines', line });
  }
  return {
    kind: r.kind as NodeKind,
    id: r.id,
    props: checkProps(r.props, line),
    ints: checkInts(r.ints, line),
    ...(embedding ? { embedding: embedding as number[] } : {}),
  };
}

function checkEdge(r: Record<string, unknown>, line: number): EdgeLine {
  if (!isId(r.from) || !isId(r.to) || typeof r.type !== 'string' || typeof r.fromKind !== 'string' || typeof r.toKind !== 'string') {
    throw new ValidationError(`line ${line}: an edge needs type, from, to, fromKind and toKind`, { field: 'lines', line });
  }
  return {
    kind: 'edge',
    type: r.type,
    from: r.from,
    to: r.to,
    fromKind: r.fromKind as NodeKind,
    toKind: r.toKind as NodeKind,
    props: checkProps(r.props, line),
    ints: checkInts(r.ints, line),
  };
}

/** Maps the export's ids to the target's: the same ids into the source namespace, derived ones elsewhere. */
function idMapper(source: string, target: string): (id: string) => string {
  if (source === target) return (id) => id;
  const cache = new Map<string, string>();
  return (id) => {
    let mapped = cache.get(id);
    if (mapped === undefined) {
      mapped = derivedId(`namespace-import:${target}`, id);
      if (cache.size < 100_000) cache.set(id, mapped);
    }
    return mapped;
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Imports one call's lines into `namespace`: nodes of each kind in the export's order, then the
 * edges, in write transactions of IMPORT_BATCH_ROWS rows; chunks are embedded before, outside
 * any transaction. Safe to run again with the same lines (the resumable import).
 */
export async function importLines(deps: TransferDeps, namespace: string, lines: readonly string[]): Promise<ImportReport> {
  checkNamespace(namespace);
  const parsed = parseImportLines(lines);
  const mapId = idMapper(parsed.header.namespace, namespace);
  const tally = { redacted: 0 };
  const props = propertyMapper(deps.redaction, mapId, tally);
  const { nodeRows, toEmbed, vectors } = importNodeRows(parsed, namespace, mapId, props, deps.embedder.modelId);
  const counts: ImportCounts = { created: new Map(), existing: new Map(), skipped: new Map() };
  const existing = await keepNewKeys(deps.executor, namespace, nodeRows, toEmbed, counts);

  // Vectors, outside any transaction; a chunk an earlier run of this import wrote keeps its vector.
  const unembedded = toEmbed.filter((c) => !existing.embeddedChunks.has(c.id));
  for (let i = 0; i < unembedded.length; i += IMPORT_BATCH_ROWS) {
    const batch = unembedded.slice(i, i + IMPORT_BATCH_ROWS);
    const made = await deps.embedder.embed(batch.map((c) => c.text));
    batch.forEach((c, j) => vectors.push({ id: c.id, embedding: Array.from(made[j]!) }));
  }

  const edgeRows = new Map<ImportEdgeKind, ImportEdgeRow[]>();
  for (const [kind, list] of parsed.edges) {
    edgeRows.set(
      kind,
      list.map((e) => ({ from: mapId(e.from), to: mapId(e.to), props: props(e.props, e.ints) })),
    );
  }
  await writeImport(deps.executor, namespace, { nodeRows, edgeRows, vectors }, counts);

  const report = importReport(namespace, lines.length, counts, { embedded: unembedded.length, redacted: tally.redacted });
  deps.logger.info({ ...report, from: parsed.header.namespace, byKind: undefined }, 'namespace import batch');
  return report;
}

type PropertyMapper = (raw: Record<string, unknown>, ints?: readonly string[]) => Record<string, unknown>;

/**
 * A record's properties as the target namespace stores them: ids mapped (inside a memory's
 * metadata too), every other string redacted (counted into `tally`), namespace properties,
 * vectors and nulls left out, integer properties made integers again.
 */
function propertyMapper(redaction: RedactionOptions, mapId: (id: string) => string, tally: { redacted: number }): PropertyMapper {
  const redactTally = new RedactionTally();
  const swap = (s: string) => swapIds(s, mapId);
  // A memory's metadata is the caller's JSON: only the values under id-named keys the service writes
  // there (`sourceMemoryId` of an extracted fact, `entityId` of an asserted one) are ids.
  const remapJsonIds = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string') return isIdProperty(key) ? swap(value) : value;
    if (Array.isArray(value)) return value.map((v) => remapJsonIds(v, key));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapJsonIds(v, k)]));
    }
    return value;
  };
  const remap = (key: string, value: unknown): unknown => {
    if (key === 'metadata' && typeof value === 'string') {
      try {
        return JSON.stringify(remapJsonIds(JSON.parse(value)));
      } catch {
        return value;
      }
    }
    if (!(isIdProperty(key) || key === 'details')) return value;
    if (typeof value === 'string') return swap(value);
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? swap(v) : v));
    return value;
  };
  const redact = (key: string, value: unknown): unknown => {
    if (STRUCTURAL_PROPERTY.test(key)) return value;
    const one = (s: string): string => {
      const out = JSON_PROPERTY.has(key) ? redactJson(s, redaction, redactTally) : redactStored(s, redaction, redactTally);
      if (out !== s) tally.redacted += 1;
      return out;
    };
    if (typeof value === 'string') return one(value);
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? one(v) : v));
    return value;
  };
  return (raw, ints = []) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (key === 'namespace' || key === 'namespaceToken' || key === 'embedding' || key === 'id' || value === null) continue;
      out[key] = redact(key, remap(key, value));
    }
    for (const key of ints) if (key in out) out[key] = asInteger(out[key]);
    return out;
  };
}

interface ImportNodes {
  nodeRows: Map<PortableLabel, ImportNodeRow[]>;
  /** Chunks whose vector must be made (their text changed, or the export carried none of this model). */
  toEmbed: Array<{ id: string; text: string }>;
  vectors: Array<{ id: string; embedding: number[] }>;
}

/** Nodes: ids mapped, strings redacted, namespace-derived properties made for the target. */
function importNodeRows(
  parsed: Parsed,
  namespace: string,
  mapId: (id: string) => string,
  props: PropertyMapper,
  modelId: string,
): ImportNodes {
  const token = namespaceToken(namespace);
  const nodeRows = new Map<PortableLabel, ImportNodeRow[]>();
  const toEmbed: ImportNodes['toEmbed'] = [];
  const vectors: ImportNodes['vectors'] = [];
  for (const label of PORTABLE_LABELS) {
    const rows: ImportNodeRow[] = [];
    for (const n of parsed.nodes.get(label) ?? []) {
      const id = mapId(n.id);
      const p: Record<string, unknown> = { ...props(n.props, n.ints), id, namespace };
      if (TOKENED_LABELS.has(label)) p.namespaceToken = token;
      if (label === 'Memory' && typeof p.content === 'string' && p.content !== n.props.content) {
        const normalized = normalizeContent(p.content);
        Object.assign(p, { normalizedContent: normalized.normalizedContent, contentHash: normalized.contentHash });
      }
      if (label === 'Memory' && typeof p.dedupKey === 'string' && typeof p.contentHash === 'string')
        p.dedupKey = `${namespace}:${p.contentHash}`;
      if (label === 'Chunk' && typeof p.text === 'string') {
        const changed = p.text !== n.props.text;
        if (changed) p.contentHash = sha256(p.text);
        const carried = !changed && n.embedding && n.props.embeddingModel === modelId;
        if (carried) vectors.push({ id, embedding: n.embedding! });
        else toEmbed.push({ id, text: p.text });
        p.embeddingModel = modelId;
        p.embeddedHash = p.contentHash;
      }
      rows.push({ id, props: p });
    }
    if (rows.length) nodeRows.set(label, rows);
  }
  return { nodeRows, toEmbed, vectors };
}

/**
 * Memories and entities the namespace already holds under another id (the same content, the same
 * name) stay as they are: their rows leave `nodeRows`, counted as skipped. Returns what the
 * namespace holds, the chunks already embedded included.
 */
async function keepNewKeys(
  executor: Executor,
  namespace: string,
  nodeRows: Map<PortableLabel, ImportNodeRow[]>,
  toEmbed: ImportNodes['toEmbed'],
  counts: ImportCounts,
): Promise<Awaited<ReturnType<typeof existingKeys>>> {
  const memories = nodeRows.get('Memory') ?? [];
  const entities = nodeRows.get('Entity') ?? [];
  const existing = await existingKeys(executor, namespace, {
    dedupKeys: memories.flatMap((r) => (typeof r.props.dedupKey === 'string' ? [r.props.dedupKey] : [])),
    entityNames: entities.flatMap((r) => (typeof r.props.canonicalName === 'string' ? [r.props.canonicalName] : [])),
    chunkIds: toEmbed.map((c) => c.id),
  });
  const skip = (kind: string, n: number) => n && counts.skipped.set(kind, (counts.skipped.get(kind) ?? 0) + n);
  const keep = (rows: ImportNodeRow[], key: string, held: Map<string, string>, kind: string) => {
    const kept = rows.filter((r) => {
      const there = held.get(String(r.props[key]));
      return there === undefined || there === r.id;
    });
    skip(kind, rows.length - kept.length);
    return kept;
  };
  if (memories.length) nodeRows.set('Memory', keep(memories, 'dedupKey', existing.dedupKeys, 'Memory'));
  if (entities.length) nodeRows.set('Entity', keep(entities, 'canonicalName', existing.entityNames, 'Entity'));
  return existing;
}

/** Writes: bounded transactions, nodes (with their vectors) before edges; counts added into `counts`. */
async function writeImport(
  executor: Executor,
  namespace: string,
  rows: {
    nodeRows: Map<PortableLabel, ImportNodeRow[]>;
    edgeRows: Map<ImportEdgeKind, ImportEdgeRow[]>;
    vectors: ImportNodes['vectors'];
  },
  counts: ImportCounts,
): Promise<void> {
  const merge = (into: ImportCounts, from: ImportCounts) => {
    for (const key of ['created', 'existing', 'skipped'] as const) {
      for (const [k, n] of from[key]) into[key].set(k, (into[key].get(k) ?? 0) + n);
    }
  };
  const vectorOf = new Map(rows.vectors.map((v) => [v.id, v]));
  try {
    for (const label of PORTABLE_LABELS) {
      const labelRows = rows.nodeRows.get(label) ?? [];
      for (let i = 0; i < labelRows.length; i += IMPORT_BATCH_ROWS) {
        const batch = labelRows.slice(i, i + IMPORT_BATCH_ROWS);
        const batchVectors = label === 'Chunk' ? batch.flatMap((r) => (vectorOf.has(r.id) ? [vectorOf.get(r.id)!] : [])) : [];
        merge(counts, await writeImportBatch(executor, { namespace, nodes: [{ label, rows: batch }], vectors: batchVectors, edges: [] }));
      }
    }
    for (const [kind, edges] of rows.edgeRows) {
      for (let i = 0; i < edges.length; i += IMPORT_BATCH_ROWS) {
        merge(
          counts,
          await writeImportBatch(executor, {
            namespace,
            nodes: [],
            vectors: [],
            edges: [{ kind, rows: edges.slice(i, i + IMPORT_BATCH_ROWS) }],
          }),
        );
      }
    }
  } catch (error) {
    if (error instanceof MnemographError && error.details?.neo4jCode === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
      throw new ConflictError(
        'the namespace already holds a record with the same key (a session, transcript or aspect of the same name): import into an empty namespace or the one the export came from',
        { namespace },
      );
    }
    throw error;
  }
}

function importReport(namespace: string, lines: number, counts: ImportCounts, made: { embedded: number; redacted: number }): ImportReport {
  const kinds = new Set([...counts.created.keys(), ...counts.existing.keys(), ...counts.skipped.keys()]);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    namespace,
    lines,
    created: sum(counts.created),
    existing: sum(counts.existing),
    skipped: sum(counts.skipped),
    embedded: made.embedded,
    redacted: made.redacted,
    byKind: [...kinds].sort().map((kind) => ({
      kind: kindName(kind),
      created: counts.created.get(kind) ?? 0,
      existing: counts.existing.get(kind) ?? 0,
      skipped: counts.skipped.get(kind) ?? 0,
    })),
  };
}

/** `memory` for a label, `edge:HAS_CHUNK` for an edge kind. */
function kindName(key: string): string {
  const label = key as PortableLabel;
  return label in NODE_KINDS ? NODE_KINDS[label] : `edge:${key.split(':')[0]}`;
}

function redactJson(text: string, options: RedactionOptions, tally: RedactionTally): string {
  try {
    return redactJsonString(text, options, tally) ?? text;
  } catch {
    return redactStored(text, options, tally);
  }
}

/** An integer property back as an integer (the driver writes a JS number as a float). */
function asInteger(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return neo4jInt(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'number' && Number.isInteger(v) ? neo4jInt(v) : v));
  return value;
}

const neo4jInt = (n: number) => neo4j.int(n);

/** The namespace export and import, as the composition root builds them once. */
export class NamespaceTransfer {
  constructor(private readonly deps: TransferDeps) {}

  exportPage(namespace: string, options: { after?: string | null; first?: number | null; vectors?: boolean | null }): Promise<ExportPage> {
    return exportPage(this.deps, namespace, options);
  }

  importLines(namespace: string, lines: readonly string[]): Promise<ImportReport> {
    return importLines(this.deps, namespace, lines);
  }
}
