/**
 * The deep path on hosted model APIs, end to end (#40's must-show): the service in a process of
 * its own (production config loading and logger, at debug level), its real worker on the test
 * Neo4j, and a protocol-faithful fake of OpenAI's or Anthropic's API that refuses the first call
 * with 429 and Retry-After. Two memories about a person who moved go through extraction, the
 * semantic contradiction check and supersession; every job completes, every call carried the key
 * and the job's JSON Schema, and the key is in no log line and no stored property.
 */
import { closedPort } from '../support/fake-http.js';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { extraction, memoryTextOf, query, stageOf } from '../support/deep-path.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startFakeOllama } from '../support/fake-ollama.js';
import { requestSchema as schemaOf, type FakeApiRequest, type FakeApiReply, type FakeModelApi } from '../support/fake-model-api.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import { forkService, type ServiceChild } from '../support/processes.js';
import { answerBySchema } from '../support/schema-answer.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';
import { TEST_NEO4J_ENV } from '../support/test-neo4j.js';

const MODEL_DIR = fileURLToPath(new URL('../../.models', import.meta.url));

const BEFORE = 'Alice lives in Paris with her husband Tom.';
const AFTER = 'Alice lives in Berlin with her husband Tom.';
const MEMORIES: Record<string, string> = {
  'Met Alice today; she and Tom have a flat in Paris.': BEFORE,
  'Alice and Tom moved: their new flat is in Berlin.': AFTER,
};

/** A small model's answers, by stage: the facts of each memory, ADD, "Berlin replaces Paris", and the schema's shape for the rest. */
function answer(request: FakeApiRequest): FakeApiReply {
  const schema = schemaOf(request);
  switch (stageOf(request)) {
    case 'extract': {
      const fact = MEMORIES[memoryTextOf(request.prompt)];
      const city = fact?.includes('Berlin') ? 'Berlin' : 'Paris';
      return fact ? extraction([[fact, 'fact', 0.9]], [['Alice', 'lives in', city]]) : extraction([]);
    }
    case 'decide':
      return JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'a newer statement about Alice' });
    case 'contradiction':
      return JSON.stringify({ contradicts: true, confidence: 0.9, reasoning: 'she moved from Paris to Berlin' });
    case 'classify': {
      // The aspect the rules gave (a fact's): supersession compares the attributes of one aspect.
      const count = [...request.prompt.matchAll(/^(\d+)\. /gm)].length;
      const assignments = Array.from({ length: count }, (_, i) => ({ i, aspect: 'facts', kind: 'attribute', new: false }));
      return JSON.stringify({ entityType: 'person', assignments });
    }
    case 'dedup':
      return JSON.stringify({ action: 'keep_both', merged: '', confidence: 0.8, reason: 'two moments' });
    default:
      return JSON.stringify(answerBySchema(schema));
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

interface JobRow extends Record<string, unknown> {
  kind: string;
  status: string;
  attempts: number;
  llmModel: string | null;
  llmCalls: number | null;
  error: string | null;
}

const JOBS = `MATCH (j:Job {namespace: $namespace}) RETURN j.kind AS kind, j.status AS status, j.attempts AS attempts,
  j.llmModel AS llmModel, j.llmCalls AS llmCalls, j.error AS error ORDER BY j.createdAt`;

// Every node and relationship of the whole database with a property holding the text (a string, or a string in a list).
const HOLDING = `
CALL () {
  MATCH (n) WHERE any(k IN keys(n) WHERE (n[k] IS :: STRING AND n[k] CONTAINS $text)
    OR (n[k] IS :: LIST<STRING NOT NULL> AND any(x IN n[k] WHERE x CONTAINS $text)))
  RETURN count(n) AS nodes
}
CALL () {
  MATCH ()-[r]->() WHERE any(k IN keys(r) WHERE (r[k] IS :: STRING AND r[k] CONTAINS $text)
    OR (r[k] IS :: LIST<STRING NOT NULL> AND any(x IN r[k] WHERE x CONTAINS $text)))
  RETURN count(r) AS relationships
}
RETURN nodes, relationships`;

const SUPERSEDED = `
MATCH (newer:Attribute {namespace: $namespace})-[s:SUPERSEDES]->(old:Attribute)
RETURN newer.content AS newer, newer.status AS newerStatus, old.content AS old, old.status AS oldStatus, s.method AS method`;

interface Scenario {
  name: string;
  start(): Promise<FakeModelApi & { apiKey: string }>;
  env(fake: FakeModelApi & { apiKey: string }): Promise<Record<string, string>>;
  /** The job's llmModel: which provider answered. */
  answeredBy: string;
  authorized(request: FakeApiRequest, key: string): boolean;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'LLM_PROVIDER=openai',
    start: () => startFakeOpenAi(),
    env: async (fake) => ({ LLM_PROVIDER: 'openai', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: fake.apiKey, LLM_MODEL: 'gpt-4o-mini' }),
    answeredBy: 'gpt-4o-mini',
    authorized: (r, key) => r.headers.authorization === `Bearer ${key}`,
  },
  {
    name: "LLM_PROVIDER=anthropic (Anthropic's Messages API)",
    start: () => startFakeAnthropic(),
    env: async (fake) => ({
      LLM_PROVIDER: 'anthropic',
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: fake.apiKey,
      LLM_MODEL: 'claude-haiku-4-5',
    }),
    answeredBy: 'claude-haiku-4-5',
    authorized: (r, key) =>
      (r.headers['x-api-key'] === key || r.headers.authorization === `Bearer ${key}`) && !!r.headers['anthropic-version'],
  },
  {
    name: 'LLM_PROVIDER=ollama,openai with Ollama down (connection refused)',
    start: () => startFakeOpenAi(),
    env: async (fake) => ({
      LLM_PROVIDER: 'ollama,openai',
      OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}`,
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: fake.apiKey,
      LLM_MODEL: 'gpt-4o-mini',
    }),
    answeredBy: 'openai:gpt-4o-mini',
    authorized: (r, key) => r.headers.authorization === `Bearer ${key}`,
  },
];

describe('the deep path on hosted model APIs, in a service process of its own', () => {
  let services: Services;
  let service: ServiceChild | undefined;
  let fake: (FakeModelApi & { apiKey: string }) | undefined;
  let namespace = '';

  beforeAll(() => {
    services = testServices();
  });
  afterEach(async () => {
    await service?.stop('SIGTERM');
    service = undefined;
    await fake?.close();
    fake = undefined;
    if (namespace) await cleanNamespace(services, namespace);
  });
  afterAll(async () => {
    await services.executor.close();
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: a first call refused with 429, two memories about a person who moved extracted and superseded; the key nowhere`, async () => {
      namespace = uniqueNamespace('providers');
      fake = await scenario.start();
      const key = fake.apiKey;
      // The first model call is refused, with the key echoed in the message as a careless server might.
      fake.enqueue({ status: 429, message: `Rate limit reached for key ${key}; try again in 1s.`, headers: { 'retry-after': '1' } });
      fake.respond(answer);
      service = await forkService({
        ...TEST_NEO4J_ENV,
        ...(await scenario.env(fake)),
        EMBEDDING_MODEL_DIR: MODEL_DIR,
        PORT: '0',
        LOG_LEVEL: 'debug',
        SERVICE_PROCESS_WORKER_NAMESPACES: namespace,
        WORKER_POLL_MS: '100',
        WORKER_RETRY_BASE_MS: '0',
        SEMANTIC_CONTRADICTION_ENABLED: 'true',
      });
      const graphql = async (body: unknown) =>
        (await (
          await fetch(service!.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        ).json()) as { data?: Record<string, unknown>; errors?: unknown };

      for (const content of Object.keys(MEMORIES)) {
        const stored = await graphql({
          query: 'mutation R($input: RememberInput!) { remember(input: $input) { memory { id } } }',
          variables: { input: { content, namespace } },
        });
        expect(stored.errors).toBeUndefined();
        // One at a time, as a conversation comes: the second memory's facts meet the first's.
        await waitFor(
          'the extraction to complete',
          async () => {
            const jobs = await query<JobRow>(services, JOBS, { namespace });
            const extract = jobs.filter((j) => j.kind === 'extract');
            return extract.length > 0 && extract.every((j) => j.status === 'completed' || j.status === 'dead') ? jobs : null;
          },
          60_000,
        );
      }
      const jobs = await waitFor(
        'every job to finish',
        async () => {
          const rows = await query<JobRow>(services, JOBS, { namespace });
          return rows.every((j) => j.status === 'completed' || j.status === 'dead') ? rows : null;
        },
        60_000,
      );

      // Jobs completed, none dead; the extraction that met the 429 needed no second attempt (retried inside the call).
      expect(
        jobs.filter((j) => j.status !== 'completed'),
        JSON.stringify(jobs),
      ).toEqual([]);
      expect(jobs.filter((j) => j.kind === 'extract')).toHaveLength(2);
      expect(jobs.every((j) => j.attempts === 1)).toBe(true);
      expect(jobs.filter((j) => (j.llmCalls ?? 0) > 0).every((j) => j.llmModel === scenario.answeredBy)).toBe(true);

      // Berlin superseded Paris, by the model's semantic check, history kept.
      expect(await query(services, SUPERSEDED, { namespace })).toEqual([
        { newer: AFTER, newerStatus: 'active', old: BEFORE, oldStatus: 'superseded', method: 'semantic' },
      ]);

      // Every call: the key, the job's JSON Schema; the 429 was waited out (Retry-After: 1 s) and asked again.
      const calls = fake.requests;
      expect(calls.length).toBeGreaterThanOrEqual(5);
      expect(calls.filter((r) => !scenario.authorized(r, key))).toEqual([]);
      expect(calls.filter((r) => schemaOf(r) === null).map((r) => stageOf(r))).toEqual([]);
      expect([...new Set(calls.map((r) => stageOf(r)))]).toEqual(expect.arrayContaining(['extract', 'decide', 'contradiction']));
      expect(calls[1]!.prompt).toBe(calls[0]!.prompt);

      // Health names the provider(s) and says whether each answers; never the key.
      const health = (await (await fetch(new URL('/health/ready', service.url!))).json()) as { llm: { providers: unknown[] } };
      expect(health.llm.providers).toContainEqual(
        expect.objectContaining({ model: scenario.answeredBy.replace('openai:', ''), keyConfigured: true, available: true }),
      );
      const viaGraphql = await graphql({
        query: '{ health { llm { available providers { name model endpoint keyConfigured available } } } }',
      });
      expect(viaGraphql.data).toMatchObject({ health: { llm: { available: true } } });
      expect(JSON.stringify([health, viaGraphql])).not.toContain(key);

      // The key in no log line (debug level, stdout and stderr) and no stored property anywhere in the database.
      await service.stop('SIGTERM');
      const logs = service.output();
      expect(logs).toContain('job completed');
      expect(logs.includes(key), 'the key appeared in the service logs').toBe(false);
      const secretPart = key.slice(-16);
      expect(logs.includes(secretPart), 'part of the key appeared in the service logs').toBe(false);
      for (const text of [key, secretPart])
        expect(await query(services, HOLDING, { text }), `a stored property holds ${text === key ? 'the key' : 'part of the key'}`).toEqual(
          [{ nodes: 0, relationships: 0 }],
        );
      service = undefined;
    });
  }

  it('LLM_PROVIDER=ollama,openai with Ollama hanging: one attempt waits out its deadline, its retry and every call after go to OpenAI', async () => {
    namespace = uniqueNamespace('providers');
    const ollama = await startFakeOllama({ models: ['qwen3:4b'], script: () => ({ text: '{}', delayMs: 120_000 }) });
    fake = await startFakeOpenAi();
    fake.respond(answer);
    try {
      service = await forkService({
        ...TEST_NEO4J_ENV,
        LLM_PROVIDER: 'ollama,openai',
        OLLAMA_HOST: ollama.url,
        OLLAMA_MODEL: 'qwen3:4b',
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: fake.apiKey,
        LLM_MODEL: 'gpt-4o-mini',
        EXTRACTION_TIMEOUT_MS: '8000',
        EMBEDDING_MODEL_DIR: MODEL_DIR,
        PORT: '0',
        SERVICE_PROCESS_WORKER_NAMESPACES: namespace,
        WORKER_POLL_MS: '100',
        WORKER_RETRY_BASE_MS: '0',
      });
      const content = Object.keys(MEMORIES)[0]!;
      const response = await fetch(service.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation R($input: RememberInput!) { remember(input: $input) { memory { id } } }',
          variables: { input: { content, namespace } },
        }),
      });
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
      const jobs = await waitFor(
        'every job to finish',
        async () => {
          const rows = await query<JobRow>(services, JOBS, { namespace });
          return rows.length > 0 && rows.every((j) => j.status === 'completed' || j.status === 'dead') ? rows : null;
        },
        60_000,
      );
      expect(
        jobs.filter((j) => j.status !== 'completed'),
        JSON.stringify(jobs),
      ).toEqual([]);
      // Before the rest: Ollama took every attempt's whole deadline, and the job went dead after its attempts.
      const extract = jobs.find((j) => j.kind === 'extract')!;
      expect(extract.attempts).toBe(2);
      expect(extract.llmModel).toBe('openai:gpt-4o-mini');
      expect(ollama.requests).toHaveLength(1);
      expect(fake.requests.length).toBeGreaterThanOrEqual(1);
    } finally {
      await ollama.close();
    }
  });
});
