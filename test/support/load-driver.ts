/**
 * A mixed GraphQL workload against a running service (remember, rememberBatch, recall, search,
 * entity inspection) from concurrent closed-loop clients, and the check afterwards that every
 * write the service acknowledged is in Neo4j exactly once. Used by `npm run bench:load`
 * (test/bench/load.bench.ts), its short form in `npm test` and the fault tests.
 */
import type { Executor } from '../../src/db/index.js';
import { benchQueries, createRng, MemoryCorpus, PEOPLE, PROJECTS, TOOLS, type Rng } from '../bench/perf-corpus.js';

export const OPERATIONS = ['remember', 'rememberBatch', 'recall', 'search', 'entity'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Relative weights of the operations a client picks from. */
export const DEFAULT_MIX: Record<Operation, number> = { remember: 30, rememberBatch: 10, recall: 30, search: 15, entity: 15 };

export interface LoadOptions {
  /** The service's GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  url: string;
  clients: number;
  /** Upper bound of the run; `signal` may end it earlier. */
  seconds: number;
  /** Prefix of every namespace and externalId of this run, so runs never collide. */
  runId: string;
  /** Distinguishes the externalIds of several phases of one run (warm-up, main); default `run`. */
  phase?: string;
  /** Namespaces every client writes to and reads from besides its own. */
  sharedNamespaces?: number;
  /** Share of a client's operations that go to a shared namespace. */
  sharedShare?: number;
  mix?: Partial<Record<Operation, number>>;
  /** Client i runs the operations in turn, starting with the i-th, instead of picking by `mix`: short runs cover them all. */
  rotate?: boolean;
  batchSize?: number;
  /** Share of batches that carry one long item (the event-loop blocker of a synchronous prepare). */
  longItemShare?: number;
  longItemChars?: [min: number, max: number];
  requestTimeoutMs?: number;
  seed?: number;
  signal?: AbortSignal;
  /** Called after every request (progress lines, fault injection). */
  onRequest?: (event: RequestEvent) => void;
}

export interface RequestEvent {
  op: Operation;
  ok: boolean;
  /** Error codes of the request (GraphQL extensions.code, per-item codes of a batch, HTTP_<status>, NETWORK, CLIENT_TIMEOUT). */
  codes: string[];
  latencyMs: number;
  /** Milliseconds since the run started. */
  at: number;
}

/** A write the service acknowledged: what must be in Neo4j afterwards. */
export interface Ack {
  namespace: string;
  externalId: string;
  /** The memory id the service answered (the existing one for a duplicate). */
  id: string;
  action: string;
  at: number;
}

export interface OpStats {
  requests: number;
  ok: number;
  failed: number;
  /** Latencies of the successful requests, in ms. */
  latencies: number[];
}

export interface LoadResult {
  durationMs: number;
  clients: number;
  namespaces: string[];
  byOp: Record<Operation, OpStats>;
  /** Error codes counted over all requests and batch items. */
  errorsByCode: Record<string, number>;
  /** HTTP 5xx or code INTERNAL, except the deliberate UNAVAILABLE. */
  serverErrors: number;
  /** Writes sent (batch items counted one by one). */
  writesAttempted: number;
  acks: Ack[];
  events: RequestEvent[];
}

const REMEMBER = `mutation Remember($input: RememberInput!) {
  remember(input: $input) { memory { id externalId } dedup { action existingId } }
}`;
const REMEMBER_BATCH = `mutation RememberBatch($inputs: [RememberInput!]!) {
  rememberBatch(inputs: $inputs) { index result { memory { id externalId } dedup { action existingId } } error { code message } }
}`;
const RECALL = `query Recall($query: String!, $namespace: String) {
  recall(query: $query, namespace: $namespace, limit: 10) { items { score memory { id content } } totalTokens }
}`;
const SEARCH = `query Search($query: String!, $namespace: String) {
  search(query: $query, namespace: $namespace, limit: 20) { hits { id title score } hasMore }
}`;
const ENTITY = `query Entity($name: String!, $namespace: String) {
  entity(name: $name, namespace: $namespace) {
    id name mentions aspects { name attributes { kind content } } relations { type mentions } memories(first: 5) { id }
  }
}`;

/** Codes the service answers on purpose when Neo4j is down; everything else 5xx is a defect. */
const DELIBERATE = new Set(['UNAVAILABLE']);

interface Client {
  index: number;
  steps: number;
  rng: Rng;
  own: string;
  corpus: Map<string, MemoryCorpus>;
  written: number;
}

/** Runs the workload until `seconds` pass or `signal` aborts; never throws for a failed request. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const mix = { ...DEFAULT_MIX, ...options.mix };
  const shared = Array.from({ length: options.sharedNamespaces ?? 2 }, (_, i) => `${options.runId}-shared-${i}`);
  const clients: Client[] = Array.from({ length: options.clients }, (_, index) => ({
    index,
    steps: 0,
    rng: createRng((options.seed ?? 1) * 1000 + index),
    own: `${options.runId}-c${index}`,
    corpus: new Map(),
    written: 0,
  }));
  const queries = benchQueries(options.seed ?? 1, 500).map((q) => q.query);
  const names = [...PEOPLE, ...PROJECTS, ...TOOLS];
  const byOp = Object.fromEntries(OPERATIONS.map((op) => [op, { requests: 0, ok: 0, failed: 0, latencies: [] as number[] }])) as Record<
    Operation,
    OpStats
  >;
  const errorsByCode: Record<string, number> = {};
  const acks: Ack[] = [];
  const events: RequestEvent[] = [];
  let serverErrors = 0;
  let writesAttempted = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const batchSize = options.batchSize ?? 8;
  const longShare = options.longItemShare ?? 0.1;
  const [longMin, longMax] = options.longItemChars ?? [8_000, 20_000];
  const running = () => performance.now() < deadline && !options.signal?.aborted;

  const pickOp = (rng: Rng): Operation => {
    const total = OPERATIONS.reduce((sum, op) => sum + mix[op], 0);
    let x = rng.next() * total;
    for (const op of OPERATIONS) if ((x -= mix[op]) < 0) return op;
    return 'recall';
  };
  const namespaceFor = (c: Client) => (shared.length > 0 && c.rng.chance(options.sharedShare ?? 0.3) ? c.rng.pick(shared) : c.own);
  // One deterministic stream per (client, namespace): contents differ within a stream.
  const nextInput = (c: Client, namespace: string, long = false) => {
    let corpus = c.corpus.get(namespace);
    if (!corpus)
      c.corpus.set(namespace, (corpus = new MemoryCorpus({ seed: (options.seed ?? 1) * 7919 + c.index * 31 + c.corpus.size, namespace })));
    const input = { ...corpus.next().input };
    if (long) {
      const target = c.rng.int(longMin, longMax);
      const parts = [input.content];
      while (parts.join(' ').length < target) parts.push(corpus.next().input.content);
      input.content = parts.join(' ').slice(0, target);
    }
    c.written += 1;
    return { ...input, externalId: `${options.runId}:${options.phase ?? 'run'}:c${c.index}:${c.written}` };
  };

  const send = async (
    op: Operation,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ ok: boolean; data: any; codes: string[] }> => {
    const codes: string[] = [];
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      for (const error of body?.errors ?? []) codes.push(String(error?.extensions?.code ?? 'NO_CODE'));
      if (response.status >= 500 && codes.length === 0) codes.push(`HTTP_${response.status}`);
      if (response.status >= 500 && !codes.every((code) => DELIBERATE.has(code))) serverErrors += 1;
      else if (codes.includes('INTERNAL') || codes.includes('INTERNAL_SERVER_ERROR')) serverErrors += 1;
      if (!response.ok && codes.length === 0) codes.push(`HTTP_${response.status}`);
      return { ok: response.ok && codes.length === 0 && body?.data != null, data: body?.data, codes };
    } catch (error) {
      const name = (error as Error).name;
      codes.push(name === 'TimeoutError' || name === 'AbortError' ? 'CLIENT_TIMEOUT' : 'NETWORK');
      return { ok: false, data: null, codes };
    }
  };

  const step = async (c: Client): Promise<void> => {
    const op = options.rotate ? OPERATIONS[(c.index + c.steps) % OPERATIONS.length]! : pickOp(c.rng);
    c.steps += 1;
    const namespace = namespaceFor(c);
    const t0 = performance.now();
    let result: { ok: boolean; data: any; codes: string[] };
    if (op === 'remember') {
      const input = nextInput(c, namespace);
      writesAttempted += 1;
      result = await send(op, REMEMBER, { input });
      const payload = result.data?.remember;
      if (result.ok && payload) acks.push(ackOf(namespace, input.externalId, payload, t0 - started));
    } else if (op === 'rememberBatch') {
      const longAt = c.rng.chance(longShare) ? c.rng.int(0, batchSize - 1) : -1;
      const inputs = Array.from({ length: batchSize }, (_, i) => nextInput(c, namespace, i === longAt));
      writesAttempted += inputs.length;
      result = await send(op, REMEMBER_BATCH, { inputs });
      for (const item of (result.data?.rememberBatch ?? []) as Array<{ index: number; result: any; error: { code: string } | null }>) {
        if (item.result) acks.push(ackOf(namespace, inputs[item.index]!.externalId, item.result, t0 - started));
        if (item.error) {
          result.codes.push(item.error.code);
          if (item.error.code === 'INTERNAL') serverErrors += 1;
        }
      }
      if (result.codes.length > 0) result.ok = false;
    } else if (op === 'recall') {
      result = await send(op, RECALL, { query: c.rng.pick(queries), namespace });
    } else if (op === 'search') {
      result = await send(op, SEARCH, { query: c.rng.pick(queries), namespace });
    } else {
      result = await send(op, ENTITY, { name: c.rng.pick(names), namespace });
    }
    const latencyMs = performance.now() - t0;
    const stats = byOp[op];
    stats.requests += 1;
    if (result.ok) {
      stats.ok += 1;
      stats.latencies.push(latencyMs);
    } else stats.failed += 1;
    for (const code of result.codes) errorsByCode[code] = (errorsByCode[code] ?? 0) + 1;
    const event: RequestEvent = { op, ok: result.ok, codes: result.codes, latencyMs, at: t0 - started };
    events.push(event);
    options.onRequest?.(event);
  };

  await Promise.all(
    clients.map(async (c) => {
      while (running()) await step(c);
    }),
  );
  return {
    durationMs: performance.now() - started,
    clients: options.clients,
    namespaces: [...clients.map((c) => c.own), ...shared],
    byOp,
    errorsByCode,
    serverErrors,
    writesAttempted,
    acks,
    events,
  };
}

function ackOf(
  namespace: string,
  externalId: string,
  payload: { memory: { id: string }; dedup: { action: string; existingId: string | null } },
  at: number,
): Ack {
  return { namespace, externalId, id: payload.memory.id, action: payload.dedup.action, at };
}

// ---------- verification ----------

export interface Verification {
  acknowledged: number;
  /** Acknowledged writes whose memory is not in Neo4j (or not live, or not under its externalId). */
  lost: Ack[];
  /** Acknowledged writes stored more than once (or stored although answered as a duplicate). */
  duplicated: Ack[];
  /** Stored memories no client saw acknowledged (requests that failed after their commit): allowed. */
  unacknowledgedStored: number;
  /** Stored memories without a chunk: a half-written memory. */
  withoutChunks: number;
  storedMemories: number;
}

const RUN_MEMORIES = `
UNWIND $namespaces AS ns
MATCH (m:Memory {namespace: ns})
RETURN m.id AS id, m.namespace AS namespace, m.externalId AS externalId, m.deletedAt IS NOT NULL AS deleted,
       COUNT { (m)-[:HAS_CHUNK]->(:Chunk) } AS chunks
LIMIT toInteger($max)`;

interface StoredRow extends Record<string, unknown> {
  id: string;
  namespace: string;
  externalId: string | null;
  deleted: boolean;
  chunks: number;
}

/** Reads every memory of the run's namespaces and checks each acknowledged write against them. */
export async function verifyAcks(executor: Executor, result: Pick<LoadResult, 'acks' | 'namespaces'>): Promise<Verification> {
  const rows = await executor.read<StoredRow>('load.verify', RUN_MEMORIES, { namespaces: result.namespaces, max: 10_000_000 });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byExternal = new Map<string, StoredRow[]>();
  for (const row of rows) {
    if (!row.externalId) continue;
    const key = `${row.namespace}\u0000${row.externalId}`;
    byExternal.set(key, [...(byExternal.get(key) ?? []), row]);
  }
  const lost: Ack[] = [];
  const duplicated: Ack[] = [];
  const acked = new Set<string>();
  for (const ack of result.acks) {
    const key = `${ack.namespace}\u0000${ack.externalId}`;
    acked.add(key);
    const stored = byExternal.get(key) ?? [];
    const memory = byId.get(ack.id);
    const live = memory !== undefined && !memory.deleted && memory.namespace === ack.namespace;
    if (ack.action === 'STORED_NEW' || ack.action === 'NEAR_DUPLICATE') {
      if (!live || memory.externalId !== ack.externalId) lost.push(ack);
      if (stored.length > 1) duplicated.push(ack);
    } else {
      // A duplicate answer points at the existing memory and stores nothing of its own.
      if (!live) lost.push(ack);
      if (stored.length > 0) duplicated.push(ack);
    }
  }
  let unacknowledgedStored = 0;
  for (const [key, stored] of byExternal) if (!acked.has(key)) unacknowledgedStored += stored.length;
  return {
    acknowledged: result.acks.length,
    lost,
    duplicated,
    unacknowledgedStored,
    withoutChunks: rows.filter((r) => r.chunks === 0).length,
    storedMemories: rows.length,
  };
}
