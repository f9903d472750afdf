/**
 * Fair to every tenant, at scale (#40 item 8): the real worker, the real queue on the test Neo4j
 * and a fake Ollama. A namespace with 2,000 pending jobs does not hold a newcomer's two memories
 * behind it, leasing reads a window of the turn index (not every pending job), and a namespace
 * over its model budget (LLM_BUDGET_CALLS) waits while the others run.
 */
import { createHash, randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueue, type JobInput } from '../../src/db/jobs/enqueue.js';
import { LEASE_WINDOW, PICK_JOB } from '../../src/db/jobs/lease-job.js';
import { SERIALIZED_KIND } from '../../src/db/jobs/extract-lane.js';
import { extraction, memoryTextOf, query, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from '../support/test-neo4j.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const BACKLOG = 2_000;
const NEWCOMER_TEXTS = ['Priya joined the platform team this week.', 'Priya moved from Lisbon to Porto in October.'];

/** `count` memories of `namespace` (bare: what extraction reads) and their extract jobs, queued as an import queues them: 100 at a time. */
async function seedBacklog(rig: DeepPathRig, namespace: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 100) {
    const memories = Array.from({ length: Math.min(100, count - start) }, (_, i) => {
      const content = `Imported note ${start + i}: nothing to extract here.`;
      return { id: randomUUID(), content, contentHash: createHash('sha256').update(content).digest('hex') };
    });
    const now = new Date().toISOString();
    await rig.services.executor.writeTx('test.seed-backlog', async (tx) => {
      await tx.run(
        `UNWIND $memories AS m
         CREATE (:Memory {id: m.id, namespace: $namespace, content: m.content, name: m.content, contentHash: m.contentHash,
           type: 'episodic', importance: 0.5, createdAt: $now, occurredAt: $now})`,
        { memories, namespace, now },
      );
      const jobs: JobInput[] = memories.map((m) => ({
        id: randomUUID(),
        kind: 'extract',
        namespace,
        name: 'extract',
        maxAttempts: 3,
        target: { memoryId: m.id },
      }));
      await enqueue(tx, jobs, now);
    });
  }
}

const COUNTS = `
MATCH (j:Job) WHERE j.namespace = $namespace
RETURN sum(CASE j.status WHEN 'completed' THEN 1 ELSE 0 END) AS completed, sum(CASE j.status WHEN 'pending' THEN 1 ELSE 0 END) AS pending,
       sum(CASE j.status WHEN 'dead' THEN 1 ELSE 0 END) AS dead, sum(CASE WHEN j.attempts > 0 AND j.status = 'pending' THEN 1 ELSE 0 END) AS retried`;

/** Per job of the newcomer: the backlog jobs leased after it could run (queued, and past any delay it was queued with) and before it was leased. */
const LEASED_AHEAD = `
MATCH (n:Job) WHERE n.namespace = $newcomer AND n.leasedAt IS NOT NULL
WITH n, CASE WHEN n.availableAt > n.createdAt THEN n.availableAt ELSE n.createdAt END AS runnable
OPTIONAL MATCH (b:Job) WHERE b.namespace = $busy AND b.leasedAt > runnable AND b.leasedAt < n.leasedAt
RETURN n.id AS id, n.kind AS kind, runnable, count(b) AS ahead ORDER BY runnable`;

interface Counts extends Record<string, unknown> {
  completed: number;
  pending: number;
  dead: number;
  retried: number;
}

/** Database hits of one claim (PICK_JOB under PROFILE, rolled back): what a claim reads, and any sort of more than its window. */
async function claimCost(namespaces: string[]): Promise<{ dbHits: number; indexRows: number; sorts: string[] }> {
  const driver = neo4j.driver(
    process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
    neo4j.auth.basic('neo4j', process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password),
  );
  const session = driver.session({ database: 'neo4j' });
  const tx = session.beginTransaction();
  try {
    const result = await tx.run(`PROFILE ${PICK_JOB}`, {
      now: new Date().toISOString(),
      kinds: ['extract'],
      namespaces,
      waiting: [],
      serialized: SERIALIZED_KIND,
      window: neo4j.int(LEASE_WINDOW),
    });
    let dbHits = 0;
    let indexRows = 0;
    const sorts: string[] = [];
    const walk = (plan: neo4j.ProfiledPlan) => {
      dbHits += Number(plan.dbHits);
      const operator = plan.operatorType.split('@')[0]!;
      if (operator === 'NodeIndexSeek' && String(plan.arguments.Details ?? '').includes('j:Job(status, turn)'))
        indexRows += Number(plan.rows);
      // A sort of what the index gave (the last one orders the window of 10 alone).
      const input = plan.children.reduce((n, child) => n + Number(child.rows), 0);
      if ((operator === 'Sort' || operator === 'Top') && input > LEASE_WINDOW + 1) sorts.push(`${operator} over ${input} rows`);
      plan.children.forEach(walk);
    };
    walk(result.summary.profile as neo4j.ProfiledPlan);
    return { dbHits, indexRows, sorts };
  } finally {
    await tx.rollback();
    await session.close();
    await driver.close();
  }
}

describe('fair leasing at scale', () => {
  let rig: DeepPathRig | undefined;
  const extra: string[] = [];

  afterEach(async () => {
    await rig?.worker.stop();
    for (const namespace of extra.splice(0)) await cleanNamespace(rig!.services, namespace);
    await rig?.close();
    rig = undefined;
  });

  it('two new memories behind 2,000 pending jobs of another namespace are processed within a minute, and the backlog keeps draining', async () => {
    const [busy, newcomer] = [uniqueNamespace('backlog'), uniqueNamespace('newcomer')];
    rig = await startDeepPath(busy, {}, { namespaces: [busy, newcomer] });
    extra.push(newcomer);
    scriptStages(rig.fake, {
      extract: (r) =>
        memoryTextOf(r.prompt).startsWith('Priya')
          ? extraction([[memoryTextOf(r.prompt), 'fact', 0.9]], [['Priya', 'lives in', 'Porto']])
          : extraction([]),
      decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }),
      classify: (r) =>
        JSON.stringify({
          entityType: 'person',
          assignments: [...r.prompt.matchAll(/^(\d+)\. /gm)].map((_, i) => ({ i, aspect: 'facts', kind: 'attribute', new: false })),
        }),
    });
    const seedStarted = Date.now();
    await seedBacklog(rig, busy, BACKLOG);
    const seedMs = Date.now() - seedStarted;

    // Leasing reads the turn index in order and stops after its window: no sort of every pending job.
    // (Other tests' pending jobs share the index and its turns: a claim may read some of theirs too.)
    const cost = await claimCost([busy, newcomer]);
    expect(cost.sorts).toEqual([]);
    expect(cost.indexRows).toBeLessThan(BACKLOG / 10);
    expect(cost.dbHits).toBeLessThan(2_000);

    rig.worker.start();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = (await query<Counts>(rig.services, COUNTS, { namespace: busy }))[0]!;
    const arrived = Date.now();
    const ids: string[] = [];
    for (const content of NEWCOMER_TEXTS) ids.push((await rig.services.remember.remember({ content, namespace: newcomer })).memory.id);
    const done = await Promise.all(ids.map((id) => waitForJob(rig!.services, id, ['completed', 'dead'], { timeoutMs: 60_000 })));
    const newcomerMs = Date.now() - arrived;
    const during = (await query<Counts>(rig.services, COUNTS, { namespace: busy }))[0]!;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = (await query<Counts>(rig.services, COUNTS, { namespace: busy }))[0]!;

    expect(done.map((j) => j.status)).toEqual(['completed', 'completed']);
    expect(newcomerMs).toBeLessThan(60_000);
    // The backlog drained before, while and after the newcomer was served, and nothing of it failed.
    expect(Number(before.completed)).toBeGreaterThan(0);
    expect(Number(after.completed)).toBeGreaterThan(Number(during.completed));
    expect(Number(after.dead)).toBe(0);
    // Served between the backlog's jobs, not after them: oldest first, the ~1,980 still pending would all have gone first.
    // (The count includes the backlog jobs run while the two memories were being written, and one per newcomer job:
    // its extractions and the classification they queue.)
    const backlogMeanwhile = Number(during.completed) - Number(before.completed);
    const perJobMs = 2_000 / Math.max(1, Number(after.completed) - Number(during.completed));
    console.log(
      `[fairness] ${BACKLOG} backlog jobs seeded in ${seedMs} ms; one claim: ${cost.dbHits} db hits, ${cost.indexRows} index rows, no sort; ` +
        `newcomer's 2 memories processed in ${newcomerMs} ms while ${backlogMeanwhile} backlog jobs completed ` +
        `(backlog: ${before.completed} done before, ${after.completed} after, about ${perJobMs.toFixed(0)} ms a job)`,
    );
    // Each newcomer job waited behind at most a few backlog jobs (a turn or two of the round), whatever
    // the machine's speed: counted from the jobs' own lease times, not from wall time.
    const ahead = await query<{ kind: string; ahead: number }>(rig.services, LEASED_AHEAD, { busy, newcomer });
    console.log(`[fairness] backlog jobs leased ahead of each newcomer job: ${ahead.map((r) => `${r.kind} ${r.ahead}`).join(', ')}`);
    expect(ahead.length).toBeGreaterThanOrEqual(2);
    // The first one's count starts while its memory is still being written (the job's createdAt is the
    // write transaction's time; 11–13 measured): bounded loosely. Every later one waits a turn or two.
    expect(Number(ahead[0]!.ahead)).toBeLessThan(20);
    expect(Math.max(...ahead.slice(1).map((r) => Number(r.ahead)))).toBeLessThanOrEqual(4);
  });

  it('a namespace over its model budget waits, pending and unfailed, while another namespace is served', async () => {
    const [importer, other] = [uniqueNamespace('importer'), uniqueNamespace('other')];
    rig = await startDeepPath(importer, { LLM_BUDGET_CALLS: '3' }, { namespaces: [importer, other] });
    extra.push(other);
    scriptStages(rig.fake, { extract: () => extraction([]) });
    await seedBacklog(rig, importer, 20);
    rig.worker.start();
    const otherId = (await rig.services.remember.remember({ content: 'Quiet tenant: the deploy window is Tuesday.', namespace: other }))
      .memory.id;
    const otherJob = await waitForJob(rig.services, otherId, ['completed', 'dead'], { timeoutMs: 30_000 });
    // Let the worker poll a few more times: the importer's jobs stay where they are.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const counts = (await query<Counts>(rig.services, COUNTS, { namespace: importer }))[0]!;

    expect(otherJob.status).toBe('completed');
    // One model call per job here: three jobs used the budget, the other seventeen wait without an attempt.
    expect(counts).toEqual({ completed: 3, pending: 17, dead: 0, retried: 0 });
    const importerCalls = rig.fake.requests.filter((r) => !memoryTextOf(r.prompt).startsWith('Quiet tenant')).length;
    expect(importerCalls).toBe(3);
  });
});
