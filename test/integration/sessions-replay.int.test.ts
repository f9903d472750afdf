import type { Services } from '../../src/app.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { createLogger } from '../../src/logger.js';
import { runSessionEnd } from '../../src/sessions/index.js';
import { leaseJob } from '../../src/db/jobs/index.js';
import { replayingExecutor } from '../support/replaying-executor.js';
import { beforeEach, describe, expect, integrationTest } from '../support/fixture.js';
import { uniqueNamespace } from '../support/services.js';

/**
 * Every new write transaction of sessions and decay, run twice as the driver does when a
 * COMMIT reply is lost: one copy of everything, counters moved once.
 */
let replays: () => number;
const ns = uniqueNamespace('sess-replay');
const it = integrationTest({
  env: { SESSION_CHECKPOINT_PROMPTS: '3' },
  app: {
    wrapExecutor: (executor) => {
      const wrapped = replayingExecutor(executor, (operation) => operation.startsWith('sessions.') || operation.startsWith('decay.'));
      replays = wrapped.replays;
      return wrapped.executor;
    },
  },
  sharedNamespaces: [ns],
});

describe('session and decay writes are safe to run twice (lost COMMIT reply)', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));

  const count = async (cypher: string) => (await services.executor.read<{ n: number }>('test', cypher, { ns }))[0]!.n;

  it('start, prompts that fire a checkpoint, end and the summary: one of each', async () => {
    await services.remember.remember({ content: 'The invoice exporter runs every Monday at 02:00 UTC.', namespace: ns }, { actor: 'test' });
    const before = replays();
    const started = await services.sessions.start({ namespace: ns, sessionId: 'r-1', canReadGlobal: false });
    expect(started.session.injectedIds).toHaveLength(1);
    expect(await count(`MATCH (s:Session {namespace: $ns}) RETURN count(s) AS n`)).toBe(1);

    const outcomes = [];
    for (let i = 1; i <= 3; i += 1)
      outcomes.push(await services.sessions.observe({ namespace: ns, sessionId: 'r-1', kind: 'prompt', query: `exporter question ${i}` }));
    // The third prompt fired the checkpoint; its re-run answered the same checkpoint and moved nothing.
    expect(outcomes[2]!.checkpoint).toMatchObject({ trigger: 'periodic', promptCount: 3 });
    const s = (await services.sessions.get(ns, 'r-1'))!;
    expect(s).toMatchObject({ prompts: 3, checkpoints: 1, checkpointPrompts: 3 });
    expect(s.recentQueries).toEqual(['exporter question 1', 'exporter question 2', 'exporter question 3']);
    expect(await count(`MATCH (c:Checkpoint {namespace: $ns, sessionId: 'r-1'}) RETURN count(c) AS n`)).toBe(1);

    const ended = await services.sessions.end({ namespace: ns, sessionId: 'r-1', reason: 'ended', actor: 'test' });
    expect(ended.session.status).toBe('ended');
    expect(await count(`MATCH (j:Job {namespace: $ns, kind: 'session_end'}) RETURN count(j) AS n`)).toBe(1);
    expect(await count(`MATCH (c:Checkpoint {namespace: $ns, sessionId: 'r-1', trigger: 'session_end'}) RETURN count(c) AS n`)).toBe(1);
    expect(await count(`MATCH (h:HistoryEvent {namespace: $ns, event: 'session.ended'}) RETURN count(h) AS n`)).toBe(1);

    const job = await leaseJob(services.executor, 'replay-test', ['session_end'], { namespaces: [ns] });
    const provider = new OllamaProvider({ host: 'http://127.0.0.1:9', model: 'none' });
    await runSessionEnd(
      {
        executor: services.executor,
        writer: services.remember,
        provider,
        feedback: services.upkeep.feedback,
        logger: createLogger('silent'),
        settings: { llmTimeoutMs: 1_000 },
      },
      job!.id,
    );
    expect(await count(`MATCH (h:HistoryEvent {namespace: $ns, event: 'session.summarized'}) RETURN count(h) AS n`)).toBe(1);
    expect((await services.sessions.get(ns, 'r-1'))!.summarizer).toBe('deterministic');
    // start, 3 events, end and summary were each run twice.
    expect(replays() - before).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it('the decay pass: expiry set once, stale flags set and lifted, each statement run twice', async () => {
    const temporal = (
      await services.remember.remember(
        { content: 'Meeting with the auditors at 3pm tomorrow', namespace: ns, occurredAt: '2026-01-05T09:00:00Z' },
        { actor: 'test' },
      )
    ).memory.id;
    // As written before relative phrases were read: no end of validity yet.
    await services.executor.write('test', `MATCH (m:Memory {id: $id}) SET m.validUntil = null`, { id: temporal });
    const report = await services.sessionUpkeep.decay([ns], new Date('2026-06-01T00:00:00Z'));
    expect(report.again).toBe(false);
    const [m] = await services.executor.read<{ validUntil: string; stale: boolean; staleReason: string }>(
      'test',
      `MATCH (m:Memory {id: $id}) RETURN m.validUntil AS validUntil, m.stale AS stale, m.staleReason AS staleReason`,
      { id: temporal },
    );
    expect(m).toEqual({ validUntil: '2026-01-06T15:00:00.000Z', stale: true, staleReason: 'expired' });
    expect(services.sessionUpkeep.snapshot().decay).toMatchObject({ expiryParsed: 1, flaggedExpired: 1 });
  }, 60_000);
});
