import { describe, expect, it } from 'vitest';
import { observeEmbedder, observeRecall } from './instrument.js';
import { MAX_OPERATION_LABELS, Metrics } from './prometheus-metrics.js';

const count = async (metrics: Metrics, series: string) => {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

describe('Metrics', () => {
  it('keeps operation labels bounded: anonymous, invalid, then "other" past the cap', async () => {
    const metrics = new Metrics();
    metrics.observeOperation(null, 'ok', 0.01);
    metrics.observeOperation('has spaces', 'error', 0.01);
    for (let i = 0; i < MAX_OPERATION_LABELS + 5; i++) metrics.observeOperation(`Op${i}`, 'ok', 0.01);
    expect(await count(metrics, 'mnemograph_graphql_operation_duration_seconds_count{operation="anonymous",outcome="ok"}')).toBe(1);
    expect(await count(metrics, 'mnemograph_graphql_operation_duration_seconds_count{operation="invalid",outcome="error"}')).toBe(1);
    expect(await count(metrics, 'mnemograph_graphql_operation_duration_seconds_count{operation="Op0",outcome="ok"}')).toBe(1);
    expect(await count(metrics, 'mnemograph_graphql_operation_duration_seconds_count{operation="other",outcome="ok"}')).toBe(5);
  });

  it('sums model usage per job kind and model, prompt and eval tokens apart', async () => {
    const metrics = new Metrics();
    const usage = {
      calls: 2,
      promptTokens: 900,
      evalTokens: 120,
      totalDurationMs: 5_500,
      loadDurationMs: 20,
      promptDurationMs: 2_000,
      evalDurationMs: 3_400,
    };
    metrics.observeLlmUsage('extract', 'qwen3:4b', usage);
    metrics.observeLlmUsage('extract', 'qwen3:4b', { ...usage, calls: 1, promptTokens: 100 });
    metrics.observeLlmUsage('hints', 'qwen3:4b', usage);
    expect(await count(metrics, 'mnemograph_llm_calls_total{kind="extract",model="qwen3:4b"}')).toBe(3);
    expect(await count(metrics, 'mnemograph_llm_tokens_total{kind="extract",model="qwen3:4b",direction="prompt"}')).toBe(1000);
    expect(await count(metrics, 'mnemograph_llm_tokens_total{kind="extract",model="qwen3:4b",direction="eval"}')).toBe(240);
    expect(await count(metrics, 'mnemograph_llm_duration_seconds_total{kind="hints",model="qwen3:4b"}')).toBe(5.5);
  });

  it('reads the queue depth at scrape time and drops the series when Neo4j cannot answer', async () => {
    const metrics = new Metrics();
    let fail = false;
    metrics.trackQueueDepth(async () => {
      if (fail) throw new Error('neo4j down');
      return { pending: 3, leased: 1, completed: 7, dead: 2 };
    });
    expect(await count(metrics, 'mnemograph_job_queue_depth{status="dead"}')).toBe(2);
    fail = true;
    expect(await count(metrics, 'mnemograph_job_queue_depth{status="dead"}')).toBeUndefined();
  });

  it('observes embed and recall calls through proxies, leaving the originals untouched', async () => {
    const metrics = new Metrics();
    const embedder = {
      calls: 0,
      async embed(texts: readonly string[]) {
        this.calls++;
        return texts.map(() => new Float32Array(2));
      },
      async embedOne(text: string) {
        return (await this.embed([text]))[0]!;
      },
    };
    const observed = observeEmbedder(embedder, metrics);
    await observed.embed(['a', 'b']);
    await observed.embedOne('c'); // goes through the proxy's embed too
    expect(embedder.calls).toBe(2);
    expect(await count(metrics, 'mnemograph_embedding_duration_seconds_count')).toBe(2);
    expect(await count(metrics, 'mnemograph_embedded_texts_total')).toBe(3);
    await embedder.embed(['unobserved']);
    expect(await count(metrics, 'mnemograph_embedding_duration_seconds_count')).toBe(2);

    const recall = observeRecall({ recall: async () => ({ timings: { vector: 12, keyword: 3, 'Bad Stage': 1 }, tookMs: 20 }) }, metrics);
    await recall.recall();
    expect(await count(metrics, 'mnemograph_recall_stage_duration_seconds_count{stage="vector"}')).toBe(1);
    expect(await count(metrics, 'mnemograph_recall_stage_duration_seconds_sum{stage="total"}')).toBe(0.02);
    expect(await count(metrics, 'mnemograph_recall_stage_duration_seconds_count{stage="Bad Stage"}')).toBeUndefined();
  });
});
