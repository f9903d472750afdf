import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { createLogger } from '../../src/logger.js';
import { runSessionEnd } from '../../src/sessions/index.js';
import { latestCheckpoints } from '../../src/sessions/session-checkpoints.js';
import { leaseJob } from '../../src/db/jobs/index.js';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const START = `mutation($i: StartSessionInput!) { startSession(input: $i) { context chars maxChars omitted checkpointId sections { name items } preferences { id type } session { sessionId status injectedMemoryIds } } }`;
const RECALL = `query($q: String!, $ns: String, $s: String) { recall(query: $q, namespace: $ns, sessionId: $s) { items { memory { id } explain { stale } } checkpoint { id trigger digest promptCount } } }`;
const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) { memory { id } checkpoint { id trigger } } }`;
const SESSION = `query($ns: String, $s: String!) { session(namespace: $ns, sessionId: $s) {
  status endReason prompts toolResults checkpoints keywordHits injectedMemoryIds summaryJob { id status }
  summary { request investigated learned nextSteps summarizer } continuity { score injected used feedbackApplied memories { memoryId relevance } } } }`;
const logger = createLogger('silent');

describe('sessions that look after themselves (real Neo4j)', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  let ollama: FakeOllama;
  const ns = uniqueNamespace('sess');
  const global = uniqueNamespace('sess-global');
  const unavailable = new OllamaProvider({ host: 'http://127.0.0.1:9', model: 'none' });

  beforeAll(async () => {
    services = testServices({ SESSION_GLOBAL_NAMESPACE: global, SESSION_IDLE_TIMEOUT_MS: String(30 * 60_000) });
    gql = await graphqlClient(services);
    ollama = await startFakeOllama({ models: ['qwen3:4b'] });
  });

  afterAll(async () => {
    await gql.stop();
    await ollama.close();
    await cleanNamespace(services, ns);
    await cleanNamespace(services, global);
    await closeServices(services);
  });

  const session = async (sessionId: string) => (await gql.data<{ session: any }>(SESSION, { ns, s: sessionId })).session;
  const start = async (input: Record<string, unknown>) =>
    (await gql.data<{ startSession: any }>(START, { i: { namespace: ns, ...input } })).startSession;
  const remember = (content: string, extra: Record<string, unknown> = {}) =>
    gql.data<{ remember: any }>(REMEMBER, { i: { namespace: ns, content, ...extra } });

  it('startSession answers pinned and constraint memories first, then preferences, the latest checkpoint, project and global memories, within maxChars', async () => {
    const pinned = (await remember('The payments API must always be called through the gateway, never directly.')).remember.memory.id;
    await gql.data(`mutation($id: ID!) { pin(id: $id) { id } }`, { id: pinned });
    const decision = (await remember('We decided to use PostgreSQL over MySQL for the ledger service.')).remember.memory.id;
    const preference = (await remember('The user prefers short answers with code first.', { type: 'preference' })).remember.memory.id;
    const project = (await remember('The invoice exporter runs every Monday at 02:00 UTC and uploads to S3.')).remember.memory.id;
    await gql.data(REMEMBER, { i: { namespace: global, content: 'Company-wide: production deploys need two approvals.' } });

    const r = await start({ sessionId: 'ctx-1', maxChars: 4000, project: 'billing' });
    expect(r.session).toMatchObject({ sessionId: 'ctx-1', status: 'open' });
    expect(r.chars).toBe(r.context.length);
    expect(r.chars).toBeLessThanOrEqual(4000);
    const at = (text: string) => r.context.indexOf(text);
    expect(at('never directly')).toBeGreaterThan(0);
    expect(at('PostgreSQL over MySQL')).toBeGreaterThan(at('never directly'));
    expect(at('## Preferences and how to work')).toBeGreaterThan(at('PostgreSQL over MySQL'));
    expect(at('short answers with code first')).toBeGreaterThan(at('## Preferences and how to work'));
    expect(at('invoice exporter')).toBeGreaterThan(at('short answers with code first'));
    expect(at('two approvals')).toBeGreaterThan(at('invoice exporter'));
    expect(r.sections.map((s: { name: string }) => s.name)).toEqual([
      'previous',
      'files',
      'pinned',
      'preferences',
      'checkpoint',
      'project',
      'global',
    ]);
    expect(r.sections.find((s: { name: string }) => s.name === 'preferences').items).toBe(1);
    expect(r.preferences).toEqual([{ id: preference, type: 'preference' }]);
    expect(r.session.injectedMemoryIds).toEqual(expect.arrayContaining([pinned, decision, preference, project]));
    // Listed once: under preferences, not again among the project's memories.
    expect(r.context.indexOf('short answers with code first')).toBe(r.context.lastIndexOf('short answers with code first'));

    // A small budget keeps the first section and leaves the rest out, counted.
    const small = await start({ sessionId: 'ctx-2', maxChars: 200 });
    expect(small.chars).toBeLessThanOrEqual(200);
    expect(small.omitted).toBeGreaterThan(0);
    expect(small.context).toContain('never directly');
    expect(small.context).not.toContain('two approvals');
  }, 120_000);

  it('fires a periodic checkpoint at the 10th prompt (not before), with a digest of its trigger, and counts tool results', async () => {
    await start({ sessionId: 'count-1' });
    for (let i = 1; i <= 9; i += 1) {
      const r = (await gql.data<{ recall: any }>(RECALL, { q: `invoice exporter question ${i}`, ns, s: 'count-1' })).recall;
      expect(r.checkpoint).toBeNull();
      expect(r.items.every((item: { explain: unknown }) => item.explain === null)).toBe(true); // explain not asked for
    }
    const tool = (await remember('The exporter retries three times before it gives up.', { sessionId: 'count-1' })).remember;
    expect(tool.checkpoint).toBeNull();
    const tenth = (await gql.data<{ recall: any }>(RECALL, { q: 'invoice exporter question 10', ns, s: 'count-1' })).recall;
    expect(tenth.checkpoint).toMatchObject({ trigger: 'periodic', promptCount: 10 });
    expect(tenth.checkpoint.digest).toMatch(/^## Checkpoint — periodic: 10 prompts since the last checkpoint/);
    expect(tenth.checkpoint.digest).toContain('invoice exporter question 10');
    expect(tenth.checkpoint.digest).toContain('remembered: The exporter retries three times');
    const s = await session('count-1');
    expect(s).toMatchObject({ prompts: 10, toolResults: 1, checkpoints: 1 });
    expect(s.keywordHits).toBeGreaterThan(0);
    // The 11th does not fire again; a recall without sessionId is not counted.
    expect((await gql.data<{ recall: any }>(RECALL, { q: 'q11', ns, s: 'count-1' })).recall.checkpoint).toBeNull();
    await gql.data(RECALL, { q: 'not counted', ns, s: null });
    expect((await session('count-1')).prompts).toBe(11);
  }, 120_000);

  it('fires a periodic checkpoint at the first prompt 15 minutes after the last one', async () => {
    await start({ sessionId: 'time-1' });
    const t0 = Date.now();
    expect(
      (await services.sessions.observe({ namespace: ns, sessionId: 'time-1', kind: 'prompt', query: 'first' }, new Date(t0 + 60_000)))!
        .checkpoint,
    ).toBeNull();
    expect(
      (await services.sessions.observe(
        { namespace: ns, sessionId: 'time-1', kind: 'tool', remembered: 'a tool result' },
        new Date(t0 + 14 * 60_000),
      ))!.checkpoint,
    ).toBeNull();
    const fired = await services.sessions.observe(
      { namespace: ns, sessionId: 'time-1', kind: 'tool', remembered: 'later' },
      new Date(t0 + 15 * 60_000 + 1_000),
    );
    expect(fired!.checkpoint).toMatchObject({ trigger: 'periodic', promptCount: 1 });
    expect(fired!.checkpoint!.digest).toMatch(/^## Checkpoint — periodic: 15 min since the last checkpoint/);
    // The clock restarts at the checkpoint.
    expect(
      (await services.sessions.observe({ namespace: ns, sessionId: 'time-1', kind: 'prompt', query: 'next' }, new Date(t0 + 20 * 60_000)))!
        .checkpoint,
    ).toBeNull();
    // A session never started is not counted.
    expect(await services.sessions.observe({ namespace: ns, sessionId: 'never-started', kind: 'prompt', query: 'x' })).toBeNull();
  }, 60_000);

  it('keeps prompts and tool results well-formed, on one line and redacted', async () => {
    await start({ sessionId: 'clean-1' });
    await services.sessions.observe({
      namespace: ns,
      sessionId: 'clean-1',
      kind: 'prompt',
      query: 'deploy with key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD\u0000\u202E now\nplease',
    });
    await services.sessions.observe({ namespace: ns, sessionId: 'clean-1', kind: 'tool', remembered: `${'long output '.repeat(100)}` });
    const s = (await services.sessions.get(ns, 'clean-1'))!;
    expect(s.recentQueries[0]).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD');
    expect(s.recentQueries[0]).not.toMatch(/[\u0000\u202E\n]/);
    expect(s.recentRemembers[0]!.length).toBeLessThanOrEqual(300);
    expect(s.recentRemembers[0]!.endsWith('…')).toBe(true);
  }, 60_000);

  it('recoverSession answers within its character budget', async () => {
    for (const budgetChars of [200, 500, 2000]) {
      const r = (
        await gql.data<{ recoverSession: any }>(
          `query($ns: String, $b: Int) { recoverSession(namespace: $ns, sessionId: "count-1", budgetChars: $b) { digest chars budgetChars checkpointId } }`,
          { ns, b: budgetChars },
        )
      ).recoverSession;
      expect(r.chars).toBe(r.digest.length);
      expect(r.chars).toBeLessThanOrEqual(budgetChars);
      expect(r.digest).toMatch(/^# Recovering session count-1 \(open\)\n11 prompts, 1 tool results/);
      expect(r.checkpointId).toBeTruthy();
    }
    const big = (
      await gql.data<{ recoverSession: any }>(
        `query($ns: String) { recoverSession(namespace: $ns, sessionId: "count-1") { digest chars budgetChars } }`,
        { ns },
      )
    ).recoverSession;
    expect(big.budgetChars).toBe(2000);
    expect(big.digest).toContain('## Last checkpoint');
    expect(big.digest).toContain('## Recent prompts\n- q11');
    const bad = await gql.exec(`query($ns: String) { recoverSession(namespace: $ns, sessionId: "count-1", budgetChars: 50) { chars } }`, {
      ns,
    });
    expect(bad.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
    const missing = await gql.exec(`query($ns: String) { recoverSession(namespace: $ns, sessionId: "nope") { chars } }`, { ns });
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  }, 60_000);

  it('session end: a session_end checkpoint and one summary job; the job summarizes (deterministic without a model), scores continuity and records aspect feedback once; pipelineStatus shows it', async () => {
    await remember('Next step: we need to add a retry for the S3 upload of the exporter.', { sessionId: 'count-1' });
    const ended = (
      await gql.data<{ endSession: any }>(
        `mutation($ns: String) { endSession(namespace: $ns, sessionId: "count-1") { status endReason summaryJob { id status } } }`,
        { ns },
      )
    ).endSession;
    expect(ended).toMatchObject({ status: 'ended', endReason: 'ended', summaryJob: { status: 'pending' } });
    const again = (
      await gql.data<{ endSession: any }>(
        `mutation($ns: String) { endSession(namespace: $ns, sessionId: "count-1") { summaryJob { id } } }`,
        { ns },
      )
    ).endSession;
    expect(again.summaryJob.id).toBe(ended.summaryJob.id);
    const [last] = await latestCheckpoints(services.executor, ns, 'count-1', 1);
    expect(last).toMatchObject({ trigger: 'session_end' });
    expect(last!.digest).toContain('session end (ended)');
    expect(last!.digest).toContain('11 prompts in total');
    // A prompt after the end is not counted.
    expect(await services.sessions.observe({ namespace: ns, sessionId: 'count-1', kind: 'prompt', query: 'late' })).toBeNull();
    const status = (
      await gql.data<{ pipelineStatus: any }>(
        `query($ns: String) { pipelineStatus(namespace: $ns) { sessions { open ended summarized pendingJobs completedJobs } } }`,
        { ns },
      )
    ).pipelineStatus;
    expect(status.sessions).toMatchObject({ ended: 1, summarized: 0, pendingJobs: 1 });

    const job = await leaseJob(services.executor, 'sessions-test', ['session_end'], { namespaces: [ns] });
    expect(job).toMatchObject({ id: ended.summaryJob.id, kind: 'session_end' });
    const deps = {
      executor: services.executor,
      writer: services.remember,
      provider: unavailable,
      feedback: services.upkeep.feedback,
      logger,
      settings: { llmTimeoutMs: 5_000 },
    };
    const result = await runSessionEnd(deps, job!.id);
    expect(result).toMatchObject({ outcome: 'summarized', summarizer: 'deterministic', feedback: { applied: true } });
    const again2 = await runSessionEnd(deps, job!.id);
    expect(again2.feedback!.applied).toBe(false); // feedback once per session
    const s = await session('count-1');
    expect(s.summary).toMatchObject({ summarizer: 'deterministic', request: 'invoice exporter question 1' });
    expect(s.summary.learned).toContain('The exporter retries three times');
    expect(s.summary.nextSteps).toContain('we need to add a retry for the S3 upload');
    // The summary is a memory of the namespace as well (the session's id, tagged), stored once, found by recall.
    expect(result.summaryMemoryId).toEqual(expect.any(String));
    expect(again2.summaryMemoryId).toBe(result.summaryMemoryId);
    const found = (
      await gql.data<{ recall: any }>(
        `query($q: String!, $ns: String) { recall(query: $q, namespace: $ns) { items { memory { id sessionId tags } } } }`,
        {
          q: 'summary of session count-1: the invoice exporter and its S3 upload retry',
          ns,
        },
      )
    ).recall.items.find((i: { memory: { id: string } }) => i.memory.id === result.summaryMemoryId);
    expect(found?.memory).toMatchObject({ sessionId: 'count-1', tags: expect.arrayContaining(['session-summary']) });
    // The next session of the namespace leads with it, and with what the session's memories taught.
    const next = await start({ sessionId: 'after-count-1', maxChars: 8000 });
    expect(next.sections[0]).toMatchObject({ name: 'previous' });
    expect(next.sections[0].items).toBeGreaterThanOrEqual(2);
    const lead = next.context.indexOf('## What the last session learned (session count-1');
    expect(lead).toBeGreaterThan(0);
    expect(next.context.indexOf('learned: ', lead)).toBeGreaterThan(lead);
    expect(next.context.indexOf('taught: The exporter retries three times')).toBeGreaterThan(lead);
    expect(next.context.indexOf('## Pinned memories')).toBeGreaterThan(lead);
    // Injected at its start: the three memories of the namespace then, and its preference (the preferences
    // section); the exporter one came up in its prompts.
    expect(s.continuity).toMatchObject({ injected: 4, feedbackApplied: true });
    expect(s.continuity.memories).toHaveLength(4);
    expect(s.continuity.used).toBeGreaterThanOrEqual(1);
    expect(s.continuity.score).toBeGreaterThan(0);
    expect(s.continuity.score).toBeLessThan(1);
    const events = await services.executor.read<{ event: string; n: number }>(
      'test',
      `MATCH (h:HistoryEvent {namespace: $ns}) WHERE h.event IN ['session.ended', 'session.summarized', 'aspect.feedback'] RETURN h.event AS event, count(*) AS n ORDER BY event`,
      { ns },
    );
    expect(events).toEqual([
      { event: 'aspect.feedback', n: 1 },
      { event: 'session.ended', n: 1 },
      { event: 'session.summarized', n: 1 },
    ]);
  }, 120_000);

  it('scores continuity of the memories injected at start, and summarizes through the model when one answers', async () => {
    const r = await start({ sessionId: 'cont-1', maxChars: 4000 });
    expect(r.session.injectedMemoryIds.length).toBeGreaterThan(0);
    await services.sessions.observe({
      namespace: ns,
      sessionId: 'cont-1',
      kind: 'prompt',
      query: 'When does the invoice exporter upload to S3 on Monday?',
    });
    await services.sessions.end({
      namespace: ns,
      sessionId: 'cont-1',
      reason: 'ended',
      actor: 'test',
      transcript: 'User: When does the invoice exporter upload to S3?\nAssistant: Every Monday at 02:00 UTC.',
    });
    ollama.respond(() =>
      JSON.stringify({
        request: 'When the exporter uploads',
        investigated: 'the exporter schedule',
        learned: 'Mondays 02:00 UTC',
        next_steps: 'none',
      }),
    );
    const provider = new OllamaProvider({ host: ollama.url, model: 'qwen3:4b' });
    const job = await leaseJob(services.executor, 'sessions-test', ['session_end'], { namespaces: [ns] });
    const result = await runSessionEnd(
      {
        executor: services.executor,
        writer: services.remember,
        provider,
        feedback: services.upkeep.feedback,
        logger,
        settings: { llmTimeoutMs: 10_000 },
      },
      job!.id,
    );
    expect(result).toMatchObject({ outcome: 'summarized', summarizer: 'llm:qwen3:4b' });
    expect(ollama.requests.at(-1)!.prompt).toContain('Every Monday at 02:00 UTC.');
    const s = await session('cont-1');
    expect(s.summary).toMatchObject({ learned: 'Mondays 02:00 UTC', summarizer: 'llm:qwen3:4b' });
    const exporter = s.continuity.memories.find(
      (m: { memoryId: string; relevance: number }) => r.session.injectedMemoryIds.includes(m.memoryId) && m.relevance > 0.5,
    );
    expect(exporter).toBeTruthy(); // the exporter memory was used
    expect(s.continuity.used).toBeGreaterThanOrEqual(1);
    expect(s.continuity.used).toBeLessThan(s.continuity.injected); // the gateway rule was not
  }, 120_000);

  it('ends a session idle past the timeout (and only that one), queueing its summary job', async () => {
    await start({ sessionId: 'idle-1' });
    await start({ sessionId: 'busy-1' });
    const now = Date.now();
    await services.sessions.observe(
      { namespace: ns, sessionId: 'busy-1', kind: 'prompt', query: 'still here' },
      new Date(now + 31 * 60_000),
    );
    expect(await services.sessions.sweepIdle([ns], new Date(now + 31 * 60_000 + 1_000))).toBeGreaterThanOrEqual(1);
    const idle = await session('idle-1');
    expect(idle).toMatchObject({ status: 'ended', endReason: 'idle', summaryJob: { status: 'pending' } });
    expect((await session('busy-1')).status).toBe('open');
    const [last] = await latestCheckpoints(services.executor, ns, 'idle-1', 1);
    expect(last!.digest).toContain('session end (idle)');
    // A started-again ended session is refused.
    const refused = await gql.exec(START, { i: { namespace: ns, sessionId: 'idle-1' } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  }, 60_000);
});
