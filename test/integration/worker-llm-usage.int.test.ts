import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRADICTION_SCHEMA, DECISION_SCHEMA, EXTRACTION_SCHEMA, hintsSchema } from '../../src/deep/output-schemas.js';
import type { LlmUsage } from '../../src/llm/index.js';
import { fakeTokenCount, type FakeRequest } from '../support/fake-ollama.js';
import { graphqlClient } from '../support/graphql.js';
import { memoryTextOf, query, stageOf, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { answerBySchema, matchesSchema } from '../support/schema-answer.js';
import { uniqueNamespace } from '../support/services.js';

const MEMORIES = [
  'Priya maintains the ingestion service. The ingestion service is written in Go.',
  'The ingestion service publishes events to Kafka. Priya prefers small pull requests.',
];

/** A model under structured outputs: every answer is an instance of the schema it was sent. */
function answer(request: FakeRequest): string {
  const stage = stageOf(request);
  const sentences = stage === 'extract' ? memoryTextOf(request.prompt).split(/(?<=\.)\s+/) : [];
  return JSON.stringify(
    answerBySchema(request.format, (path) => {
      if (stage === 'extract' && path === 'facts') return sentences.map((content) => ({ content, type: 'fact', confidence: 0.9 }));
      if (stage === 'extract' && path === 'entities') return [];
      if (stage === 'decide' && path === 'reason') return 'new information';
      if (stage === 'hints' && path === 'questions') return ['Who maintains the ingestion service?'];
      return undefined;
    }),
  );
}

describe('deep path: structured outputs and model usage accounting', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('llmuse');
  const observed: Array<{ kind: string; model: string; usage: LlmUsage }> = [];

  beforeAll(async () => {
    rig = await startDeepPath(
      namespace,
      { HINTS_ENABLED: 'true', HINTS_MAX: '3' },
      { onLlmUsage: (kind, model, usage) => observed.push({ kind, model, usage }) },
    );
  });
  afterAll(async () => {
    await rig.close();
  });

  it('sends each stage its JSON Schema, records the tokens Ollama reports on every job, and sums them in pipelineStatus', async () => {
    const { services, fake, worker } = rig;
    fake.respond(answer);
    const ids: string[] = [];
    for (const content of MEMORIES) ids.push((await services.remember.remember({ content })).memory.id);
    worker.start();
    for (const id of ids) {
      await waitForJob(services, id, ['completed']);
      await waitForJob(services, id, ['completed'], { kind: 'hints' });
    }

    // Every call carried the schema of its stage, and every answer fits it.
    const expected = {
      extract: EXTRACTION_SCHEMA,
      decide: DECISION_SCHEMA,
      contradiction: CONTRADICTION_SCHEMA,
      hints: hintsSchema(3),
    } as const;
    expect(fake.requests.length).toBeGreaterThanOrEqual(4);
    for (const request of fake.requests) {
      const stage = stageOf(request);
      expect(stage).not.toBe('unknown');
      expect(request.format).toEqual(expected[stage as keyof typeof expected]);
      expect(matchesSchema(request.format, JSON.parse(answer(request)))).toBe(true);
    }

    // The job nodes hold what the server reported: calls and tokens add up to the requests made.
    const jobs = await query<{ kind: string; calls: number; prompt: number; evalTokens: number; ms: number; model: string }>(
      services,
      `MATCH (j:Job {namespace: $namespace}) RETURN j.kind AS kind, j.llmCalls AS calls, j.llmPromptTokens AS prompt, j.llmEvalTokens AS evalTokens, j.llmDurationMs AS ms, j.llmModel AS model`,
      { namespace },
    );
    const sum = (rows: typeof jobs, key: 'calls' | 'prompt' | 'evalTokens' | 'ms') => rows.reduce((s, r) => s + (r[key] ?? 0), 0);
    expect(sum(jobs, 'calls')).toBe(fake.requests.length);
    expect(sum(jobs, 'prompt')).toBe(fake.requests.reduce((s, r) => s + fakeTokenCount(r.prompt), 0));
    expect(sum(jobs, 'evalTokens')).toBe(fake.requests.reduce((s, r) => s + fakeTokenCount(answer(r)), 0));
    expect(sum(jobs, 'ms')).toBeGreaterThan(0);
    expect(new Set(jobs.map((j) => j.model))).toEqual(new Set(['qwen3:4b']));

    // The worker told its metrics sink the same figures.
    expect(observed.reduce((s, o) => s + o.usage.calls, 0)).toBe(fake.requests.length);
    expect(new Set(observed.map((o) => o.kind))).toEqual(new Set(['extract', 'hints']));

    const client = await graphqlClient(services);
    try {
      const { pipelineStatus } = await client.data<{
        pipelineStatus: {
          llm: {
            tokensPerMemory: number;
            byKind: Array<{
              kind: string;
              jobs: number;
              memories: number;
              calls: number;
              promptTokens: number;
              evalTokens: number;
              tokensPerJob: number;
            }>;
          };
        };
      }>(
        `query ($ns: String) { pipelineStatus(namespace: $ns) { llm { tokensPerMemory byKind { kind jobs memories calls promptTokens evalTokens tokensPerJob durationMs durationMsPerJob } } } }`,
        { ns: namespace },
      );
      const { byKind, tokensPerMemory } = pipelineStatus.llm;
      expect(byKind.map((k) => k.kind)).toEqual(['extract', 'hints']);
      const extract = byKind.find((k) => k.kind === 'extract')!;
      expect(extract).toMatchObject({ jobs: MEMORIES.length, memories: MEMORIES.length });
      expect(extract.tokensPerJob).toBeCloseTo((extract.promptTokens + extract.evalTokens) / extract.jobs, 6);
      const total = byKind.reduce((s, k) => s + k.promptTokens + k.evalTokens, 0);
      expect(total).toBe(sum(jobs, 'prompt') + sum(jobs, 'evalTokens'));
      expect(tokensPerMemory).toBeCloseTo(total / MEMORIES.length, 6);
    } finally {
      await client.stop();
    }
  });

  it('keeps the usage of a failed attempt on the job', async () => {
    const { services, fake } = rig;
    // Extraction answers, then the model server fails: the attempt's tokens are still counted.
    fake.respond((request) =>
      stageOf(request) === 'extract' ? answer(request) : { status: 500, error: 'llama runner process has terminated' },
    );
    const before = fake.requests.length;
    const { memory } = await services.remember.remember({ content: 'Priya moved the ingestion service from Kafka to NATS last week.' });
    const usageOf = async () =>
      (
        await query<{ calls: number | null }>(
          services,
          `MATCH (j:Job {kind: 'extract'})-[:FOR]->(:Memory {id: $id}) RETURN j.llmCalls AS calls`,
          { id: memory.id },
        )
      )[0]?.calls ?? 0;
    await expect.poll(usageOf, { timeout: 45_000, interval: 200 }).toBeGreaterThan(0);
    const rows = await query<{ calls: number; status: string; error: string }>(
      services,
      `MATCH (j:Job {kind: 'extract'})-[:FOR]->(:Memory {id: $id}) RETURN j.llmCalls AS calls, j.status AS status, j.error AS error`,
      { id: memory.id },
    );
    expect(rows[0]!.error).toContain('HTTP 500');
    // Only successful calls report usage: one extraction per attempt so far.
    const extractions = fake.requests
      .slice(before)
      .filter((r) => stageOf(r) === 'extract' && memoryTextOf(r.prompt).includes('NATS')).length;
    expect(rows[0]!.calls).toBeGreaterThanOrEqual(1);
    expect(rows[0]!.calls).toBeLessThanOrEqual(extractions);
  });
});
