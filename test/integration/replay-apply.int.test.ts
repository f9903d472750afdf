import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { queueSessionCompression } from '../../src/deep/index.js';
import { extraction, query, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { replayingExecutor } from '../support/replaying-executor.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * The document ingest writes and the deep path's apply transactions, each run a second time as
 * the driver does after a lost COMMIT reply (test/support/replaying-executor.ts): the outcome and
 * the graph are those of one run.
 */

const TIMEOUT = 120_000;
const DOCUMENT_OPERATIONS = /^documents\./;
const APPLY_OPERATIONS = new Set(['dedup.apply', 'dedup.audit', 'classify.apply', 'compress.apply']);

describe('document ingest re-run after a lost COMMIT reply', () => {
  let services: Services;
  let replays: () => number;
  const namespace = uniqueNamespace('replay-doc');

  beforeAll(async () => {
    services = testServices(
      { WORKER_NAMESPACES: namespace, DOCUMENT_CHUNK_SIZE: '200', DOCUMENT_CHUNK_OVERLAP: '20' },
      {
        wrapExecutor: (executor) => {
          const wrapped = replayingExecutor(executor, (operation) => DOCUMENT_OPERATIONS.test(operation));
          replays = wrapped.replays;
          return wrapped.executor;
        },
      },
    );
    await services.embedder.load();
  });
  afterAll(async () => {
    await cleanNamespace(services, namespace);
    await closeServices(services);
  });

  it(
    'one lease, one attempt, every window one part, DONE',
    async () => {
      const text = Array.from(
        { length: 8 },
        (_, i) => `Section ${i + 1}: the nightly backup of region ${i + 1} runs at 0${i}:00 UTC and is verified by the on-call engineer.`,
      ).join('\n');
      const queued = await services.upkeep.ingestDocument({ namespace, text, title: 'Backup runbook' });
      const before = replays();
      while (await services.upkeep.documents.processNext());
      expect(replays()).toBeGreaterThan(before + 3); // lease, states, links and finish were all re-run

      const document = await services.upkeep.documents.get(queued.id);
      expect(document).toMatchObject({ status: 'DONE', attempts: 1, error: null });
      expect(document!.chunksTotal).toBeGreaterThan(2);
      expect(document!.chunksDone).toBe(document!.chunksTotal);
      const [parts] = await query<{ links: number; indexes: number; memories: number; chunkMemories: number }>(
        services,
        `MATCH (d:Document {id: $id})-[r:HAS_PART]->(m:Memory)
       RETURN count(r) AS links, count(DISTINCT r.index) AS indexes, count(DISTINCT m) AS memories,
              COUNT { MATCH (x:Memory {namespace: $namespace, type: 'document_chunk'}) RETURN x } AS chunkMemories`,
        { id: queued.id, namespace },
      );
      expect(parts).toEqual({
        links: document!.chunksTotal,
        indexes: document!.chunksTotal,
        memories: document!.chunksTotal,
        chunkMemories: document!.chunksTotal,
      });
    },
    TIMEOUT,
  );
});

describe('deep-path apply transactions re-run after a lost COMMIT reply', () => {
  let rig: DeepPathRig;
  let replays: () => number;
  const namespace = uniqueNamespace('replay-apply');

  beforeAll(async () => {
    rig = await startDeepPath(
      namespace,
      {},
      {
        app: {
          wrapExecutor: (executor) => {
            const wrapped = replayingExecutor(executor, (operation) => APPLY_OPERATIONS.has(operation));
            replays = wrapped.replays;
            return wrapped.executor;
          },
        },
      },
    );
  }, TIMEOUT);
  afterAll(async () => rig?.close(), TIMEOUT);

  const jobResult = async (memoryId: string, kind: string) => {
    const job = await waitForJob(rig.services, memoryId, ['completed', 'dead'], { kind, timeoutMs: 90_000 });
    expect(job.status).toBe('completed');
    return JSON.parse(job.result!) as Record<string, unknown>;
  };

  it(
    'dedup: a replace decision applied once, reported as applied (not as a pair that changed)',
    async () => {
      const { services, fake, worker } = rig;
      scriptStages(fake, {
        extract: () => extraction([]),
        dedup: () => JSON.stringify({ action: 'replace', merged: '', confidence: 0.9, reason: 'the version was upgraded' }),
      });
      const older = (await services.remember.remember({ content: 'Our staging database runs PostgreSQL 15 on a single node.', namespace }))
        .memory;
      const newer = await services.remember.remember({ content: 'Our staging database runs PostgreSQL 16 on a single node.', namespace });
      expect(newer.dedup.action).toBe('NEAR_DUPLICATE');
      const before = replays();
      worker.start();
      const result = await jobResult(newer.memory.id, 'dedup');
      expect(replays()).toBeGreaterThan(before);
      expect(result).toMatchObject({ outcome: 'applied:replace' });
      const [row] = await query<{ supersededBy: string | null; supersedes: number; events: string[] }>(
        services,
        `MATCH (old:Memory {id: $oldId})
       RETURN old.supersededBy AS supersededBy, COUNT { ()-[:SUPERSEDES]->(old) } AS supersedes,
              COLLECT { MATCH (h:HistoryEvent {event: 'pipeline.dedup'})-[:ABOUT]->(:Memory {id: $newId}) RETURN h.outcome } AS events`,
        { oldId: older.id, newId: newer.memory.id },
      );
      expect(row).toEqual({ supersededBy: newer.memory.id, supersedes: 1, events: ['applied:replace'] });
    },
    TIMEOUT,
  );

  it(
    'classify: one set of aspects and one audit event',
    async () => {
      const { services, fake } = rig;
      scriptStages(fake, {
        extract: () =>
          extraction(
            [
              ['The osprey service must never deploy on Fridays.', 'decision', 0.9],
              ['The osprey service is owned by the data team.', 'fact', 0.9],
            ],
            [['osprey service', 'owned by', 'data team']],
          ),
        decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }),
        classify: (r) => {
          const index = (text: string) => Number(new RegExp(`(\\d+)\\. ${text}`).exec(r.prompt)![1]);
          return JSON.stringify({
            entityType: 'project',
            assignments: [
              { i: index('The osprey service must never'), aspect: 'release schedule', kind: 'constraint', new: true },
              { i: index('The osprey service is owned'), aspect: 'team', kind: 'attribute', new: true },
            ],
          });
        },
      });
      const memory = (
        await services.remember.remember({ content: 'osprey service notes: never deploy on Fridays, the data team owns it.', namespace })
      ).memory;
      await jobResult(memory.id, 'extract');
      const [entity] = await query<{ id: string }>(
        services,
        `MATCH (e:Entity {namespace: $namespace, canonicalName: 'osprey service'}) RETURN e.id AS id`,
        { namespace },
      );
      const deadline = Date.now() + 60_000;
      let classified: Array<{ status: string }> = [];
      while (Date.now() < deadline) {
        classified = await query<{ status: string }>(
          services,
          `MATCH (j:Job {kind: 'classify', namespace: $namespace}) RETURN j.status AS status`,
          { namespace },
        );
        if (classified.length > 0 && classified.every((j) => j.status === 'completed' || j.status === 'dead')) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(classified.map((j) => j.status)).toContain('completed');
      const [row] = await query<{ aspects: string[]; events: number; type: string }>(
        services,
        `MATCH (e:Entity {id: $id})
       RETURN COLLECT { MATCH (e)-[:HAS_ASPECT]->(a:Aspect) RETURN a.canonicalName ORDER BY a.canonicalName } AS aspects,
              COUNT { MATCH (h:HistoryEvent {event: 'pipeline.classify'})-[:ABOUT]->(e) RETURN h } AS events, e.type AS type`,
        { id: entity!.id },
      );
      expect(row!.type).toBe('project');
      expect(row!.aspects).toEqual([...new Set(row!.aspects)]); // no aspect twice
      expect(row!.aspects).toEqual(expect.arrayContaining(['release schedule', 'team']));
      expect(row!.events).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'compress: the session summarized and its sources linked once, reported as compressed',
    async () => {
      const { services, fake } = rig;
      const turns = ['Ines: I booked the venue in Porto for the offsite.', 'Rui: Great, the budget for it is 4000 euros.'];
      const sessionId = 'replay-session';
      await services.remember.rememberBatch(
        turns.map((content, i) => ({ content, namespace, sessionId, type: 'episodic', occurredAt: `2024-01-10T10:0${i}:00Z` })),
      );
      const summary = 'Ines booked a Porto venue for the offsite; Rui set its budget at 4000 euros.';
      scriptStages(fake, { extract: () => extraction([]), compress: () => JSON.stringify({ summary }) });
      const [queued] = await queueSessionCompression(services.executor, {
        namespace,
        olderThan: '2025-01-01T00:00:00Z',
        minSessions: 1,
        maxSessions: 5,
        maxAttempts: 3,
      });
      expect(queued).toBeDefined();
      const deadline = Date.now() + 90_000;
      let job: { status: string; result: string | null } | undefined;
      while (Date.now() < deadline) {
        [job] = await query<{ status: string; result: string | null }>(
          services,
          `MATCH (j:Job {id: $id}) RETURN j.status AS status, j.result AS result`,
          { id: queued!.id },
        );
        if (job && (job.status === 'completed' || job.status === 'dead')) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(job?.status).toBe('completed');
      expect(JSON.parse(job!.result!)).toMatchObject({ outcome: 'compressed', compressed: 2 });
      const [row] = await query<{ summaries: number; links: number; events: number }>(
        services,
        `MATCH (s:Memory {namespace: $namespace, content: $summary})
       RETURN count(DISTINCT s) AS summaries, COUNT { (s)-[:SUMMARIZES]->() } AS links,
              COUNT { MATCH (h:HistoryEvent {event: 'pipeline.compress'})-[:ABOUT]->(s) RETURN h } AS events`,
        { namespace, summary },
      );
      expect(row).toEqual({ summaries: 1, links: 2, events: 1 });
    },
    TIMEOUT,
  );
});
