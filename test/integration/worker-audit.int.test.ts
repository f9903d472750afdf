import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor, TxWork } from '../../src/db/index.js';
import { ConflictError } from '../../src/errors.js';
import { requeueJob } from '../../src/db/jobs/index.js';
import { extraction, memoryTextOf, query, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { uniqueNamespace } from '../support/services.js';
import { withWriteTx } from '../support/faulting-executor.js';

const TIMEOUT = 120_000;

/**
 * Wraps the executor: inside every `extraction.graph` transaction, after its work and before its
 * commit, counts the audit events of the source memory (what that transaction will commit); and
 * crashes the first graph transaction and the audit fallback after it, as a dying process would.
 */
function probingExecutor(state: { crash: boolean; crashAudit: boolean; eventsSeenInGraphTx: number[]; auditTx: number }) {
  return (executor: Executor): Executor => {
    const writeTx = async <T>(operation: string, work: TxWork<T>): Promise<T> => {
      if (operation === 'extraction.audit') {
        state.auditTx += 1;
        if (state.crashAudit) {
          state.crashAudit = false;
          throw new Error('simulated crash (audit)');
        }
      }
      if (operation !== 'extraction.graph') return executor.writeTx(operation, work);
      return executor.writeTx(operation, async (tx) => {
        const result = await work(tx);
        const [row] = await tx.run<{ n: number }>(
          `MATCH (h:HistoryEvent)-[:ABOUT]->(m:Memory) WHERE h.event IN ['pipeline.proposal', 'pipeline.extraction', 'fact.asserted'] AND m.namespace = $ns RETURN count(h) AS n`,
          { ns: namespaceOf.current },
        );
        state.eventsSeenInGraphTx.push(Number(row!.n));
        if (state.crash) {
          state.crash = false;
          state.crashAudit = true;
          throw new Error('simulated crash before the graph commit');
        }
        return result;
      });
    };
    return withWriteTx(executor, writeTx);
  };
}
const namespaceOf = { current: '' };

describe('audit records commit with what they record', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('audit');
  const state = { crash: false, crashAudit: false, eventsSeenInGraphTx: [] as number[], auditTx: 0 };

  beforeAll(async () => {
    namespaceOf.current = namespace;
    rig = await startDeepPath(namespace, {}, { app: { wrapExecutor: probingExecutor(state) } });
  }, TIMEOUT);
  afterAll(async () => rig?.close(), TIMEOUT);

  it(
    'proposal and summary events are written by the graph transaction; a crash before its commit leaves neither, the retry writes each once',
    async () => {
      const { services, fake, worker } = rig;
      scriptStages(fake, {
        extract: () =>
          extraction(
            [
              ['Marta prefers green tea in the morning.', 'preference', 0.9],
              ['Marta works at Fabrikam.', 'fact', 0.9],
            ],
            [['Marta', 'works at', 'Fabrikam']],
          ),
        decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }),
      });
      state.crash = true;
      worker.start();
      const memory = (
        await services.remember.remember({ content: 'Marta prefers green tea in the morning and works at Fabrikam.', namespace })
      ).memory;
      const job = await waitForJob(services, memory.id, ['completed', 'dead'], { timeoutMs: 90_000 });
      expect(job.status, JSON.stringify(job)).toBe('completed');
      expect(job.attempts, JSON.stringify(job)).toBe(2);

      // First attempt: events were inside the graph transaction that crashed, so none committed.
      // Second attempt: the graph transaction held both proposals and the summary before commit.
      expect(state.eventsSeenInGraphTx).toEqual([3, 3]);
      expect(state.auditTx).toBe(1); // only the crashed attempt's fallback; the good run needs none
      const events = await query<{ event: string; outcome: string; n: number }>(
        services,
        `MATCH (h:HistoryEvent)-[:ABOUT]->(:Memory {id: $id}) WHERE h.event STARTS WITH 'pipeline.' RETURN h.event AS event, h.outcome AS outcome, count(*) AS n ORDER BY event, outcome`,
        { id: memory.id },
      );
      expect(events.map((e) => `${e.event}:${e.outcome}:${Number(e.n)}`)).toEqual([
        'pipeline.extraction:ok:1',
        'pipeline.proposal:deduped:2',
      ]);
      const [attributes] = await query<{ n: number }>(
        services,
        `MATCH (a:Attribute {createdBy: 'pipeline-v2'}) WHERE a.namespace = $namespace RETURN count(a) AS n`,
        { namespace },
      );
      expect(Number(attributes!.n)).toBeGreaterThan(0);
      await worker.stop();
    },
    TIMEOUT,
  );

  it(
    'assertFact: the fact.asserted event commits in the transaction that writes the attribute',
    async () => {
      const { services } = rig;
      state.eventsSeenInGraphTx.length = 0;
      const who = { namespace, actor: 'agent-7' };
      await services.knowledge.createEntity(who, { name: 'Orion', type: 'project' });
      const result = await services.knowledge.assertFact(who, { entity: 'Orion', aspect: 'deadline', content: 'Orion ships on 1 March.' });
      expect(result.outcome).toBe('created');
      const before = state.eventsSeenInGraphTx.at(-1)!;
      const [row] = await query<{ n: number; actor: string; attributeId: string }>(
        services,
        `MATCH (h:HistoryEvent {event: 'fact.asserted'})-[:ABOUT]->(:Memory {id: $id}) RETURN count(h) AS n, head(collect(h.actor)) AS actor, head(collect(h.details)) AS attributeId`,
        { id: result.memory!.id },
      );
      expect(Number(row!.n)).toBe(1);
      expect(row!.actor).toBe('agent-7');
      expect(JSON.parse(row!.attributeId).attributeId).toBe(result.attribute!.id);
      // The probe inside the graph transaction already counted it (3 pipeline events + this one).
      expect(before).toBe(4);
    },
    TIMEOUT,
  );
});

describe('one open extract job per memory', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('openjob');

  beforeAll(async () => {
    rig = await startDeepPath(namespace);
  }, TIMEOUT);
  afterAll(async () => rig?.close(), TIMEOUT);

  const extractJobs = (memoryId: string) =>
    query<{ id: string; status: string; rerun: string | null }>(
      rig.services,
      `MATCH (j:Job {kind: 'extract'})-[:FOR]->(:Memory {id: $id}) RETURN j.id AS id, j.status AS status, j.rerunRequested AS rerun`,
      { id: memoryId },
    );

  it(
    'an update while the job is leased queues no second job; the leased one runs again on the new content',
    async () => {
      const { services, fake, worker } = rig;
      const V1 = 'Priya keeps the release checklist in the ops wiki.';
      const V2 = 'Priya keeps the release checklist in the shared drive now.';
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const seen: string[] = [];
      scriptStages(fake, {
        extract: async (r) => {
          const text = memoryTextOf(r.prompt);
          seen.push(text);
          if (text === V1) await gate;
          return extraction([[text === V1 ? 'The checklist lives in the wiki.' : 'The checklist moved to a shared drive.', 'fact', 0.9]]);
        },
        decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }),
      });
      worker.start();
      const memory = (await services.remember.remember({ content: V1, namespace })).memory;
      await waitForJob(services, memory.id, ['leased']);
      while (!seen.includes(V1)) await new Promise((r) => setTimeout(r, 50));

      await services.update.update({ id: memory.id, namespace, content: V2, actor: 'test' });
      const during = await extractJobs(memory.id);
      expect(during).toHaveLength(1);
      expect(during[0]!.status).toBe('leased');
      expect(during[0]!.rerun).not.toBeNull();

      release();
      // The first run finds the memory rewritten and discards; the same job then runs on V2.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(seen.includes(V2) && (await extractJobs(memory.id))[0]!.status === 'completed'))
        await new Promise((r) => setTimeout(r, 100));
      const after = await extractJobs(memory.id);
      expect(after).toHaveLength(1);
      expect(after[0]!.status).toBe('completed');
      expect(after[0]!.rerun).toBeNull();
      const facts = await query<{ content: string }>(
        services,
        `MATCH (f:Memory)-[:EXTRACTED_FROM]->(:Memory {id: $id}) WHERE f.deletedAt IS NULL RETURN f.content AS content`,
        { id: memory.id },
      );
      expect(facts.map((f) => f.content)).toEqual(['The checklist moved to a shared drive.']);
      await worker.stop();
    },
    TIMEOUT,
  );

  it(
    'requeueJob refuses while another job of the same kind is open for the memory',
    async () => {
      const { services, fake, worker } = rig;
      scriptStages(fake, { extract: () => extraction([]) });
      worker.start();
      const memory = (await services.remember.remember({ content: 'Tomas runs the Thursday demo for the platform team.', namespace }))
        .memory;
      const first = await waitForJob(services, memory.id, ['completed']);
      await worker.stop();
      await services.update.update({
        id: memory.id,
        namespace,
        content: 'Tomas runs the Friday demo for the platform team.',
        actor: 'test',
      });
      const open = (await extractJobs(memory.id)).filter((j) => j.status === 'pending');
      expect(open).toHaveLength(1);
      await expect(requeueJob(services.executor, first.id, [namespace])).rejects.toBeInstanceOf(ConflictError);
      expect((await extractJobs(memory.id)).find((j) => j.id === first.id)!.status).toBe('completed');
    },
    TIMEOUT,
  );
});

describe('each fact is embedded once', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('embedonce');
  const embedded: string[] = [];

  beforeAll(async () => {
    rig = await startDeepPath(
      namespace,
      {},
      {
        wrapWorkerEmbedder: (inner) => ({
          get modelId() {
            return inner.modelId;
          },
          embed: async (texts: string[]) => {
            embedded.push(...texts);
            return inner.embed(texts);
          },
        }),
      },
    );
  }, TIMEOUT);
  afterAll(async () => rig?.close(), TIMEOUT);

  it(
    'planning and the fact write share the vector (content-hash cache)',
    async () => {
      const { services, fake, worker } = rig;
      const facts = ['Noor maintains the billing API.', 'Noor prefers  code reviews in the morning.'];
      scriptStages(fake, {
        extract: () => extraction(facts.map((f) => [f, 'fact', 0.9])),
        decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }),
      });
      worker.start();
      const memory = (
        await services.remember.remember({ content: 'Noor maintains the billing API and likes code reviews in the morning.', namespace })
      ).memory;
      const job = await waitForJob(services, memory.id, ['completed', 'dead'], { timeoutMs: 90_000 });
      expect(JSON.parse(job.result!).outcomes).toEqual({ created: 2 });
      const stored = await query<{ content: string }>(
        services,
        `MATCH (f:Memory)-[:EXTRACTED_FROM]->(:Memory {id: $id}) RETURN f.content AS content ORDER BY content`,
        { id: memory.id },
      );
      expect(stored.map((s) => s.content)).toEqual(['Noor maintains the billing API.', 'Noor prefers code reviews in the morning.']);
      // Every text the worker embedded, once each: the write path took the planning vectors.
      expect(embedded.sort()).toEqual(stored.map((s) => s.content));
      await worker.stop();
    },
    TIMEOUT,
  );
});
