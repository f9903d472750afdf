import type { AppOptions, Services } from '../../src/app.js';
import {
  CONTRADICTION_PROMPT_HEADER,
  DECISION_PROMPT_HEADER,
  EXTRACTION_PROMPT_HEADER,
  HINTS_PROMPT_HEADER,
} from '../../src/deep/prompts.js';
import { NEAR_DUPLICATE_PROMPT_HEADER } from '../../src/deep/near-duplicate-decide.js';
import { CLASSIFY_PROMPT_HEADER } from '../../src/deep/structural-classify.js';
import { COMPRESS_PROMPT_HEADER } from '../../src/deep/compression-job.js';
import { createWorker } from '../../src/worker/index.js';
import { type Worker, type WorkerDeps } from '../../src/worker/worker.js';
import { startFakeOllama, type FakeOllama, type FakeReply, type FakeRequest } from './fake-ollama.js';
import { cleanNamespace, testServices } from './services.js';

/**
 * A deep-path rig for one test: services on the test Neo4j, a fake Ollama the worker reaches
 * over HTTP through the real OllamaProvider, and a worker confined to the test's namespace.
 */
export interface DeepPathRig {
  services: Services;
  fake: FakeOllama;
  worker: Worker;
  /** Stops the worker and the fake, removes the test's namespace and closes the driver. */
  close(): Promise<void>;
}

export const FAST_WORKER_ENV = {
  WORKER_ENABLED: 'true',
  WORKER_POLL_MS: '100',
  WORKER_RETRY_BASE_MS: '0',
  WORKER_MAX_ATTEMPTS: '3',
} as const;

export async function startDeepPath(
  namespace: string,
  env: Record<string, string> = {},
  options: Pick<WorkerDeps, 'onLlmUsage'> & {
    app?: Partial<AppOptions>;
    /** The namespaces the worker takes jobs of; the test's one alone by default. */
    namespaces?: string[];
    wrapWorkerEmbedder?: (embedder: WorkerDeps['embedder']) => WorkerDeps['embedder'];
  } = {},
): Promise<DeepPathRig> {
  const fake = await startFakeOllama({ models: ['qwen3:4b'] });
  const services = testServices(
    { ...FAST_WORKER_ENV, OLLAMA_HOST: fake.url, OLLAMA_MODEL: 'qwen3:4b', DEFAULT_NAMESPACE: namespace, ...env },
    options.app,
  );
  await services.embedder.load();
  const worker = createWorker({
    executor: services.executor,
    embedder: options.wrapWorkerEmbedder ? options.wrapWorkerEmbedder(services.embedder) : services.embedder,
    remember: services.remember,
    update: services.update,
    config: services.config,
    logger: services.logger,
    namespaces: options.namespaces ?? [namespace],
    onLlmUsage: options.onLlmUsage,
  });
  return {
    services,
    fake,
    worker,
    async close() {
      await worker.stop();
      await fake.close();
      await cleanNamespace(services, namespace);
      await services.executor.close();
    },
  };
}

export type Stage = 'extract' | 'decide' | 'contradiction' | 'hints' | 'dedup' | 'classify' | 'compress';

export function stageOf(request: Pick<FakeRequest, 'prompt'>): Stage | 'unknown' {
  if (request.prompt.startsWith(EXTRACTION_PROMPT_HEADER)) return 'extract';
  if (request.prompt.startsWith(DECISION_PROMPT_HEADER)) return 'decide';
  if (request.prompt.startsWith(CONTRADICTION_PROMPT_HEADER)) return 'contradiction';
  if (request.prompt.startsWith(HINTS_PROMPT_HEADER)) return 'hints';
  if (request.prompt.startsWith(NEAR_DUPLICATE_PROMPT_HEADER)) return 'dedup';
  if (request.prompt.startsWith(CLASSIFY_PROMPT_HEADER)) return 'classify';
  if (request.prompt.startsWith(COMPRESS_PROMPT_HEADER)) return 'compress';
  return 'unknown';
}

/** Routes each model call by pipeline stage; a stage without a script fails loudly with HTTP 500. */
export function scriptStages(
  fake: FakeOllama,
  stages: Partial<Record<Stage, (request: FakeRequest) => FakeReply | Promise<FakeReply>>>,
): void {
  fake.respond((request) => {
    const stage = stageOf(request);
    const script = stage === 'unknown' ? undefined : stages[stage];
    return script ? script(request) : { status: 500, error: `test did not script the ${stage} stage` };
  });
}

/** The memory text inside the extraction prompt's triple quotes. */
export function memoryTextOf(prompt: string): string {
  const marker = 'Text:\n"""';
  return prompt.slice(prompt.indexOf(marker) + marker.length, -3);
}

/** Candidate ids listed in a decision prompt, in order. */
export function candidateIdsOf(prompt: string): string[] {
  return [...prompt.matchAll(/id=([0-9a-f-]{36})/g)].map((m) => m[1]!);
}

export function extraction(
  facts: Array<[content: string, type: string, confidence: number]>,
  entities: Array<[string, string, string, number?]> = [],
): string {
  return JSON.stringify({
    facts: facts.map(([content, type, confidence]) => ({ content, type, confidence })),
    entities: entities.map(([source, relationship, target, confidence]) => ({
      source,
      relationship,
      target,
      confidence: confidence ?? 0.9,
    })),
  });
}

export interface JobRow {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  result: string | null;
}

const JOB_FOR = `
MATCH (j:Job {kind: $kind})-[:FOR]->(:Memory {id: $memoryId})
RETURN j.id AS id, j.status AS status, j.attempts AS attempts, j.error AS error, j.result AS result`;

export async function jobFor(services: Services, memoryId: string, kind = 'extract'): Promise<JobRow | undefined> {
  return (await services.executor.read<JobRow & Record<string, unknown>>('test.job-for', JOB_FOR, { memoryId, kind }))[0];
}

/** Polls until the memory's job reaches one of `statuses`; fails with the job's last state. */
export async function waitForJob(
  services: Services,
  memoryId: string,
  statuses: string[],
  options: { kind?: string; timeoutMs?: number } = {},
): Promise<JobRow> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last: JobRow | undefined;
  while (Date.now() < deadline) {
    last = await jobFor(services, memoryId, options.kind ?? 'extract');
    if (last && statuses.includes(last.status)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job for memory ${memoryId} did not reach ${statuses.join('|')} in time; last seen: ${JSON.stringify(last ?? null)}`);
}

export async function query<T extends Record<string, unknown>>(
  services: Services,
  cypher: string,
  params: Record<string, unknown> = {},
): Promise<T[]> {
  return services.executor.read<T>('test.query', cypher, params);
}
