import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CANARY = 'canary-variable-value-7f3a';

/** Value of one sample line of the Prometheus text format, or undefined when absent. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('request ids, operation logs, /metrics and /health', () => {
  let http: TestHttpServer;
  const namespace = uniqueNamespace('http-obs');

  beforeAll(async () => {
    http = await startTestHttpServer({ LOG_LEVEL: 'info' });
    const remembered = await http.post({
      query: 'mutation Seed($input: RememberInput!) { remember(input: $input) { memory { id } } }',
      variables: { input: { content: 'The team decided to keep sessions in Redis, not Memcached.', namespace } },
    });
    expect(remembered.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it('echoes a caller x-request-id, makes one when absent or unusable, and logs under it', async () => {
    const given = await http.post({ query: '{ health { ok } }' }, { 'x-request-id': 'caller-req.42' });
    expect(given.headers.get('x-request-id')).toBe('caller-req.42');

    const made = await http.post({ query: '{ health { ok } }' });
    expect(made.headers.get('x-request-id')).toMatch(UUID);

    const unusable = await http.post({ query: '{ health { ok } }' }, { 'x-request-id': 'has spaces and <html>' });
    expect(unusable.headers.get('x-request-id')).toMatch(UUID);

    const health = await fetch(`${http.origin}/health/live`, { headers: { 'x-request-id': 'live-probe-1' } });
    expect(health.headers.get('x-request-id')).toBe('live-probe-1');

    await expect.poll(() => http.logLines.some((l) => l.requestId === 'caller-req.42' && l.msg === 'graphql operation')).toBe(true);
  });

  it('logs one line per operation with name, type, duration and error codes, never the variables', async () => {
    await http.post(
      { query: 'query Probe($q: String!) { recall(query: $q, namespace: "nowhere") { items { score } } }', variables: { q: CANARY } },
      { 'x-request-id': 'log-ok-1' },
    );
    await http.post({ query: 'query Broken { health { nope } }' }, { 'x-request-id': 'log-err-1' });

    await expect.poll(() => http.logLines.filter((l) => l.requestId === 'log-ok-1' || l.requestId === 'log-err-1').length).toBe(2);
    const ok = http.logLines.find((l) => l.requestId === 'log-ok-1')!;
    expect(ok).toMatchObject({ msg: 'graphql operation', operationName: 'Probe', operationType: 'query', status: 200, outcome: 'ok' });
    expect(typeof ok.durationMs).toBe('number');
    expect(ok.errorCodes).toBeUndefined();

    const failed = http.logLines.find((l) => l.requestId === 'log-err-1')!;
    expect(failed).toMatchObject({ operationName: 'Broken', status: 400, outcome: 'error', errorCodes: ['GRAPHQL_VALIDATION_FAILED'] });

    const everything = JSON.stringify(http.logLines);
    expect(everything).not.toContain(CANARY);
    expect(everything).not.toContain('Memcached'); // remembered content stays out of the logs too
  });

  it('exposes latency, recall stage, embedding and queue histograms/gauges in Prometheus format after a recall', async () => {
    const recalled = await http.post({
      query: `query RecallIt { recall(query: "where do sessions live?", namespace: "${namespace}") { items { score } } }`,
    });
    expect(recalled.body.data.recall.items.length).toBeGreaterThan(0);

    const response = await fetch(`${http.origin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const metrics = await response.text();

    expect(sample(metrics, 'mnemograph_graphql_operation_duration_seconds_count{operation="RecallIt",outcome="ok"}')).toBe(1);
    expect(sample(metrics, 'mnemograph_graphql_operation_duration_seconds_count{operation="Broken",outcome="error"}')).toBe(1);
    expect(metrics).toContain('# TYPE mnemograph_graphql_operation_duration_seconds histogram');
    for (const stage of ['embed', 'vector', 'keyword', 'load', 'rank', 'budget', 'total']) {
      expect(sample(metrics, `mnemograph_recall_stage_duration_seconds_count{stage="${stage}"}`), stage).toBeGreaterThanOrEqual(1);
    }
    expect(metrics).toContain('# TYPE mnemograph_recall_stage_duration_seconds histogram');
    // One embed call for the remembered memory's chunks, one per recall query.
    expect(sample(metrics, 'mnemograph_embedding_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(sample(metrics, 'mnemograph_embedded_texts_total')).toBeGreaterThanOrEqual(2);
    // The remembered memory queued deep-path jobs; the gauge counts every namespace.
    expect(sample(metrics, 'mnemograph_job_queue_depth{status="pending"}')).toBeGreaterThanOrEqual(1);
    for (const status of ['leased', 'completed', 'dead'])
      expect(sample(metrics, `mnemograph_job_queue_depth{status="${status}"}`), status).toBeGreaterThanOrEqual(0);
    // Node's default metrics.
    expect(sample(metrics, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics).toContain('nodejs_eventloop_lag_seconds');
  });

  it('reports readiness at /health/ready', async () => {
    const response = await fetch(`${http.origin}/health/ready`);
    expect(response.status).toBe(200);
    const report = (await response.json()) as { neo4j: { schemaVersion: number } };
    expect(report).toMatchObject({ ok: true, neo4j: { connected: true }, embedding: { loaded: true, dimensions: 384 } });
    expect(report.neo4j.schemaVersion).toBeGreaterThan(0);
  });
});
