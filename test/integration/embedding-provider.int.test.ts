import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, createServices, prepareServices, type AppOptions, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { vectorIndexDimensions } from '../../src/db/vector-index.js';
import { MnemographError } from '../../src/errors.js';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js';
import { testEmbedder } from '../support/services.js';
import { createEmbedder } from '../../src/embedding/index.js';
import { PROVISIONED_MODEL_DIR } from '../../src/app.js';

// EMBEDDING_PROVIDER=openai against a fake 1,536-dimension server (issue 40 item 5): the store is
// migrated (its vector index rebuilt at 1,536), re-embedded by the tracker and recalled; then back
// to the local model (index at 384 again), re-embedded and recalled as before. The vector index is
// one for the whole database, so this runs on a Neo4j of its own: the shared test database's
// index must stay at 384 for the other files running beside this one.
const NEO4J = {
  home: join(fileURLToPath(new URL('../../.neo4j/', import.meta.url)), 'embedding-provider-test'),
  boltPort: 49687,
  httpPort: 49474,
  password: 'embedding-provider-pw',
  heapMb: 512,
  pageCacheMb: 128,
  timeoutMs: 300_000,
};
const MODEL = 'text-embedding-3-small';
const NS = 'provider-switch';
const NS_WRITES = 'provider-writes';

const CONTENTS = [
  'The billing service retries failed card payments three times before giving up.',
  'Our staging cluster runs on three machines in Falkenstein.',
  'Release notes are written by the on-call engineer every Friday afternoon.',
  'The database is backed up every night at two o clock.',
  'The design review for the new search page is on Tuesday.',
];
const QUERIES: ReadonlyArray<readonly [string, number]> = [
  ['how often are failed card payments retried?', 0],
  ['when is the database backed up?', 3],
  ['who writes the release notes?', 2],
];

describe('embeddings from an OpenAI-compatible provider, and back to the local model', () => {
  let fake: FakeEmbeddings;
  const opened: Services[] = [];
  const logLines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });

  const services = (env: Record<string, string>, options: Partial<AppOptions> = {}) => {
    const config = loadConfig({ NEO4J_PASSWORD: NEO4J.password, WORKER_ENABLED: 'false', EMBEDDING_TRACKER_BATCH_SIZE: '4', ...env });
    const s = createServices(config, logger, { neo4jUri: `bolt://127.0.0.1:${NEO4J.boltPort}`, ...options });
    opened.push(s);
    return s;
  };
  const local = () => services({}, { embedder: testEmbedder() });
  // The service's own openai embedder, with recall's deadline at 500 ms instead of 2 s (passed in
  // code: a deadline is not a setting) so the slow case below takes a fraction of a second.
  const provider = (env: Record<string, string> = {}) => {
    const apiKey = env.EMBEDDING_API_KEY ?? fake.apiKey;
    const embedder = createEmbedder({
      ...{ provider: 'openai', model: MODEL, baseUrl: fake.url, apiKey, batchSize: 32, queryTimeoutMs: 500 },
      tokenizerDir: PROVISIONED_MODEL_DIR,
    });
    return services(
      { EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL: MODEL, EMBEDDING_BASE_URL: fake.url, EMBEDDING_API_KEY: apiKey },
      { embedder },
    );
  };
  const vectorOnly = async (s: Services, query: string) => {
    const { items } = await s.recall.recall({
      query,
      namespace: NS,
      limit: 5,
      tokenBudget: null,
      trackAccess: false,
      recipe: 'vectorOnly',
    });
    return items.map((i) => ({ content: i.memory.content, score: Number(i.score.toFixed(3)) }));
  };
  const chunkModels = (s: Services) =>
    s.executor.read<{ model: string; dims: number; n: number }>(
      'test.chunkModels',
      `MATCH (m:Memory {namespace: $ns})-[:HAS_CHUNK]->(c:Chunk)
       RETURN c.embeddingModel AS model, size(c.embedding) AS dims, count(*) AS n ORDER BY model`,
      { ns: NS },
    );

  beforeAll(async () => {
    await stopNeo4j(NEO4J);
    await rm(join(NEO4J.home, 'data'), { recursive: true, force: true });
    await startNeo4j(NEO4J);
    fake = await startFakeEmbeddings({ dimensions: 1_536, models: [MODEL] });
  }, 300_000);

  afterAll(async () => {
    for (const s of opened) await closeServices(s).catch(() => undefined);
    await fake?.close();
    await stopNeo4j(NEO4J);
  }, 180_000);

  it('migrates the store to the provider (index at 1,536), re-embeds and recalls it; back to the local model (384) it recalls as before', async () => {
    // The local model on a fresh store: migrations leave the index at 384.
    const minilm = local();
    await prepareServices(minilm);
    expect(await vectorIndexDimensions(minilm.executor)).toBe(384);
    await minilm.remember.rememberBatch(CONTENTS.map((content) => ({ content, namespace: NS })));
    const before = await Promise.all(QUERIES.map(([q]) => vectorOnly(minilm, q)));
    QUERIES.forEach(([, expected], i) => expect(before[i]![0]!.content).toBe(CONTENTS[expected]));

    // The provider: its first answer says 1,536; start-up rebuilds the index for it.
    const openai = provider();
    await prepareServices(openai);
    expect(openai.embedder.modelId).toBe(`openai:${MODEL}`);
    expect(openai.embedder.dimensions).toBe(1_536);
    expect(await vectorIndexDimensions(openai.executor)).toBe(1_536);
    // Until the tracker re-embeds, the 384-dimension vectors are outside the index: the vector leg finds nothing,
    // the keyword legs still answer.
    expect(await vectorOnly(openai, QUERIES[0]![0])).toEqual([]);
    const hybrid = await openai.recall.recall({ query: QUERIES[0]![0], namespace: NS, trackAccess: false });
    expect(hybrid.items[0]?.memory.content).toBe(CONTENTS[0]);
    const scoped = await openai.recall.recall({
      query: QUERIES[0]![0],
      namespace: NS,
      trackAccess: false,
      filters: { occurredAfter: '2000-01-01T00:00:00Z' },
    });
    expect(scoped.items[0]?.memory.content).toBe(CONTENTS[0]);

    expect(await openai.upkeep.tracker!.drain()).toBeGreaterThanOrEqual(CONTENTS.length);
    expect(await chunkModels(openai)).toEqual([{ model: `openai:${MODEL}`, dims: 1_536, n: CONTENTS.length }]);
    expect(fake.texts()).toEqual(expect.arrayContaining(CONTENTS));
    const reembedded = await Promise.all(QUERIES.map(([q]) => vectorOnly(openai, q)));
    QUERIES.forEach(([, expected], i) => expect(reembedded[i]![0]!.content).toBe(CONTENTS[expected]));
    expect(reembedded).not.toEqual(before);
    // The write path under the provider (another namespace, so this one stays as it was): a new memory is embedded
    // by it, and the same words again are a duplicate, found by its vector search at 1,536.
    const added = await openai.remember.remember({ content: 'The on-call engineer rotates every Monday morning.', namespace: NS_WRITES });
    expect(added.dedup.action).toBe('STORED_NEW');
    const again = await openai.remember.remember({ content: 'Every Monday morning the on-call engineer rotates.', namespace: NS_WRITES });
    expect(again.dedup).toMatchObject({ action: 'DUPLICATE_SEMANTIC', existingId: added.memory.id });

    // Back to the local model: the index is 384 again, the tracker re-embeds, recall answers as it did.
    const back = local();
    await prepareServices(back);
    expect(await vectorIndexDimensions(back.executor)).toBe(384);
    expect(await back.upkeep.tracker!.drain()).toBeGreaterThanOrEqual(CONTENTS.length);
    expect((await chunkModels(back)).map((r) => [r.model, r.dims])).toEqual([[testEmbedder().modelId, 384]]);
    expect(await Promise.all(QUERIES.map(([q]) => vectorOnly(back, q)))).toEqual(before);
  }, 300_000);

  it('a slow provider costs recall its deadline only; a 429 is waited out; a refused key fails at once, coded; the key is nowhere', async () => {
    const openai = provider();
    await prepareServices(openai);
    expect(await vectorIndexDimensions(openai.executor)).toBe(1_536);

    // Slower than recall's deadline (500 ms here): recall answers from the keyword legs.
    fake.enqueue({ text: '', delayMs: 5_000 });
    let started = performance.now();
    const slow = await openai.recall.recall({
      query: 'which machines does the staging cluster run on?',
      namespace: NS,
      trackAccess: false,
    });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(slow.items[0]?.memory.content).toBe(CONTENTS[1]);
    expect(slow.items.every((i) => i.explanation.vector === null)).toBe(true);
    await expect.poll(() => fake.requests.at(-1)?.aborted).toBe(true);

    // A 429 with Retry-After: the write waits the second the server named, then stores the memory.
    fake.enqueue({ status: 429, message: 'Rate limit reached for requests', headers: { 'Retry-After': '1' } });
    const calls = fake.requests.length;
    started = performance.now();
    const stored = await openai.remember.remember({
      content: 'The coffee machine on the third floor is descaled monthly.',
      namespace: NS_WRITES,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(stored.dedup.action).toBe('STORED_NEW');
    expect(fake.requests.slice(calls).map((r) => r.body.input)).toEqual([[stored.memory.content], [stored.memory.content]]);

    // A key the server refuses: start-up and the write path fail with a coded error, after one request each.
    const wrongKey = 'sk-wrong-0123456789abcdef0123';
    const refused = provider({ EMBEDDING_API_KEY: wrongKey });
    for (const work of [
      () => prepareServices(refused),
      () => refused.remember.remember({ content: 'Never stored.', namespace: NS_WRITES }),
    ]) {
      const before = fake.requests.length;
      const error = await work().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MnemographError);
      expect(error).toMatchObject({ code: 'UNAVAILABLE', retriable: false, details: { provider: 'openai', status: 401 } });
      expect(fake.requests.length - before).toBe(1);
      expect(`${(error as Error).message} ${JSON.stringify((error as MnemographError).details)}`).not.toMatch(/sk-|0123/);
    }

    // Neither key in any log line nor in any stored property.
    const logs = logLines.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const key of [fake.apiKey, wrongKey]) {
      expect(logs).not.toContain(key);
      const [row] = await openai.executor.read<{ n: number }>(
        'test.keyStored',
        `MATCH (n) UNWIND keys(n) AS k WITH n[k] AS v
         WHERE (v IS :: STRING AND v CONTAINS $key) OR (v IS :: LIST<STRING> AND any(x IN v WHERE x CONTAINS $key))
         RETURN count(*) AS n`,
        { key },
      );
      expect(row!.n).toBe(0);
    }
  }, 120_000);
});
