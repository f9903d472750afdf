import { closedPort } from '../support/fake-http.js';
import { afterEach, describe, expect, it } from 'vitest';
import { requeueJob } from '../../src/db/jobs/index.js';
import { uniqueNamespace } from '../support/services.js';
import { extraction, query, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { answerBySchema } from '../support/schema-answer.js';

/** The raw memory survives every deep-path failure, with its chunks. */
async function expectRawMemoryIntact(rig: DeepPathRig, id: string, content: string): Promise<void> {
  const [row] = await query<{ content: string; chunks: number; deleted: boolean }>(
    rig.services,
    `MATCH (m:Memory {id: $id}) RETURN m.content AS content, COUNT { (m)-[:HAS_CHUNK]->() } AS chunks, m.deletedAt IS NOT NULL AS deleted`,
    { id },
  );
  expect(row).toEqual({ content, chunks: expect.any(Number), deleted: false });
  expect(row!.chunks).toBeGreaterThan(0);
}

describe('deep path when the LLM fails', () => {
  let rig: DeepPathRig | undefined;
  let namespace = '';

  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('HTTP 500s: retries with backoff, ends dead with a readable error, raw memory intact; requeue recovers it', async () => {
    namespace = uniqueNamespace('wf500');
    rig = await startDeepPath(namespace);
    const { services, fake, worker } = rig;
    fake.respond(() => ({ status: 500, error: 'llama runner process has terminated: signal: killed' }));
    const content = 'The on-call rotation for the payments team changes every Monday at 9am.';
    const memory = await services.remember.remember({ content });
    worker.start();

    const job = await waitForJob(services, memory.memory.id, ['dead'], { timeoutMs: 30_000 });
    expect(job.attempts).toBe(3);
    expect(job.error).toMatch(
      /^attempt 3\/3: LlmHttpError: LLM server returned HTTP 500 for model qwen3:4b: llama runner process has terminated/,
    );
    expect(fake.requests).toHaveLength(3);
    await expectRawMemoryIntact(rig, memory.memory.id, content);
    expect(worker.state()).toMatchObject({ running: true, failed: 3, llmAvailable: false });

    // The model comes back; a requeued job is processed normally.
    scriptStages(fake, {
      extract: () =>
        extraction(
          [['The payments on-call rotation changes every Monday at 9am.', 'procedural', 0.9]],
          [['payments team', 'has', 'on-call rotation']],
        ),
      decide: () => JSON.stringify({ action: 'ADD', confidence: 0.9, reason: 'new' }),
      // The per-entity classification that follows extraction: answered by the schema it sends.
      classify: (r) => JSON.stringify(answerBySchema(r.format)),
    });
    await requeueJob(services.executor, job.id, [namespace]);
    const done = await waitForJob(services, memory.memory.id, ['completed'], { timeoutMs: 30_000 });
    expect(JSON.parse(done.result!)).toMatchObject({ outcomes: { created: 1 } });
    expect(worker.state().llmAvailable).toBe(true);
  });

  it('a request the server refuses (HTTP 400): dead after one attempt, no retries spent on it', async () => {
    namespace = uniqueNamespace('wf400');
    rig = await startDeepPath(namespace);
    const { services, fake, worker } = rig;
    fake.respond(() => ({ status: 400, error: 'invalid format: expected "json" or a valid JSON schema' }));
    const content = 'The staging cluster is rebuilt from scratch every Sunday night.';
    const memory = await services.remember.remember({ content });
    worker.start();

    const job = await waitForJob(services, memory.memory.id, ['dead'], { timeoutMs: 30_000 });
    expect(job.attempts).toBe(1);
    expect(job.error).toMatch(/^attempt 1\/3: LlmHttpError: LLM server returned HTTP 400/);
    expect(fake.requests).toHaveLength(1);
    await expectRawMemoryIntact(rig, memory.memory.id, content);
  });

  it('slow answers beyond EXTRACTION_TIMEOUT_MS: each call is aborted, the job ends dead with a timeout error', async () => {
    namespace = uniqueNamespace('wfslow');
    rig = await startDeepPath(namespace, { EXTRACTION_TIMEOUT_MS: '5000', WORKER_MAX_ATTEMPTS: '2' });
    const { services, fake, worker } = rig;
    fake.respond(() => ({ text: extraction([]), delayMs: 20_000 }));
    const content = 'Release trains leave every second Thursday from the main branch.';
    const memory = await services.remember.remember({ content });
    worker.start();

    const job = await waitForJob(services, memory.memory.id, ['dead'], { timeoutMs: 40_000 });
    expect(job.attempts).toBe(2);
    expect(job.error).toMatch(/^attempt 2\/2: LlmTimeoutError: LLM call timed out after 5000 ms \(model qwen3:4b\)/);
    expect(fake.requests).toHaveLength(2);
    // The client hung up on each slow request: nothing left waiting on the server.
    await expect.poll(() => fake.requests.every((r) => r.aborted)).toBe(true);
    await expectRawMemoryIntact(rig, memory.memory.id, content);
  }, 60_000);

  it('garbage bodies (not JSON, HTTP 200): the job ends in a visible terminal state, the raw memory is intact and recall works', async () => {
    namespace = uniqueNamespace('wfgarbage');
    rig = await startDeepPath(namespace);
    const { services, fake, worker } = rig;
    fake.respond(() => ({ raw: '<html><body>502 Bad Gateway</body></html>\u0000\uFFFF', status: 200, contentType: 'application/json' }));
    const content = 'The analytics cluster is resized every first Tuesday of the month.';
    const memory = await services.remember.remember({ content });
    worker.start();
    const job = await waitForJob(services, memory.memory.id, ['dead', 'completed'], { timeoutMs: 40_000 });
    expect(fake.requests.length).toBeGreaterThan(0);
    if (job.status === 'dead') expect(job.error).toMatch(/^attempt \d\/3: /);
    await expectRawMemoryIntact(rig, memory.memory.id, content);
    const recalled = await services.recall.recall({ query: 'analytics cluster resized', namespace });
    expect(recalled.items.map((item) => item.memory.id)).toContain(memory.memory.id);
    expect(worker.state().running).toBe(true);
  }, 60_000);

  it('an unreachable server: the job fails, retries and stays visible as dead; the loop keeps running', async () => {
    namespace = uniqueNamespace('wfdown');
    const host = `http://127.0.0.1:${await closedPort()}`;
    rig = await startDeepPath(namespace, { OLLAMA_HOST: host });
    const { services, worker } = rig;
    const content = 'The staging database is backed up nightly at 2am.';
    const memory = await services.remember.remember({ content });
    worker.start();
    const job = await waitForJob(services, memory.memory.id, ['dead'], { timeoutMs: 40_000 });
    expect(job.error).toBe(`attempt 3/3: LlmError: LLM server unreachable at ${host}: ECONNREFUSED`);
    await expectRawMemoryIntact(rig, memory.memory.id, content);
    expect(worker.state()).toMatchObject({ running: true, failed: 3, processed: 0, llmAvailable: false });
  }, 60_000);
});
