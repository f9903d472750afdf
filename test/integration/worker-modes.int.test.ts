import { afterEach, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/worker/index.js';
import { uniqueNamespace } from '../support/services.js';
import {
  candidateIdsOf,
  extraction,
  memoryTextOf,
  query,
  scriptStages,
  startDeepPath,
  waitForJob,
  type DeepPathRig,
} from '../support/deep-path.js';

const FIRST = 'Alice uses MySQL for the billing service.';
const SECOND = 'Update from Alice: billing moved off MySQL.';
const SECOND_FACT = 'Alice uses PostgreSQL for the billing service.';

/** Two memories: the second one's fact is decided as UPDATE (or the scripted action) of the first. */
function scriptUpdate(rig: DeepPathRig, action: 'UPDATE' | 'ADD' = 'UPDATE'): void {
  scriptStages(rig.fake, {
    extract: (r) =>
      memoryTextOf(r.prompt) === FIRST
        ? extraction([[FIRST, 'fact', 0.9]], [['Alice', 'uses', 'MySQL']])
        : extraction([[SECOND_FACT, 'fact', 0.9]], [['Alice', 'uses', 'PostgreSQL']]),
    decide: (r) =>
      JSON.stringify({
        action,
        targetId: candidateIdsOf(r.prompt)[0] ?? null,
        confidence: 0.9,
        reason: 'billing moved from MySQL to PostgreSQL',
      }),
  });
}

async function proposals(rig: DeepPathRig, memoryId: string) {
  const rows = await query<{ outcome: string; details: string }>(
    rig.services,
    `MATCH (h:HistoryEvent {event: 'pipeline.proposal'})-[:ABOUT]->(:Memory {id: $memoryId}) RETURN h.outcome AS outcome, h.details AS details`,
    { memoryId },
  );
  return rows.map((r) => ({ outcome: r.outcome, details: JSON.parse(r.details) as Record<string, unknown> }));
}

describe('pipeline modes', () => {
  let rig: DeepPathRig | undefined;

  it('PIPELINE_ENABLED=false stops processing, not enqueueing: the backlog runs once it is enabled', async () => {
    rig = await startDeepPath(uniqueNamespace('wmoff'), { PIPELINE_ENABLED: 'false' });
    const { services, worker, fake } = rig;
    scriptUpdate(rig, 'ADD');
    const { memory } = await services.remember.remember({ content: FIRST });
    worker.start();
    expect(worker.state()).toMatchObject({ running: false, mode: 'disabled' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await waitForJob(services, memory.id, ['pending'])).attempts).toBe(0);
    expect(fake.requests).toHaveLength(0);

    const enabled = createWorker({
      executor: services.executor,
      embedder: services.embedder,
      remember: services.remember,
      config: { ...services.config, PIPELINE_ENABLED: true },
      logger: services.logger,
      namespaces: [memory.namespace],
    });
    enabled.start();
    try {
      await waitForJob(services, memory.id, ['completed']);
    } finally {
      await enabled.stop();
    }
  });

  let namespace = '';

  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  for (const [label, env, outcome] of [
    ['shadow', { PIPELINE_SHADOW_MODE: 'true' }, 'shadow'],
    ['frozen', { MUTATIONS_FROZEN: 'true' }, 'frozen'],
  ] as const) {
    it(`${label} mode: runs extraction and decisions, records every proposal, writes no facts and no graph`, async () => {
      namespace = uniqueNamespace(`wm${label}`);
      rig = await startDeepPath(namespace, env);
      scriptStages(rig.fake, {
        extract: () =>
          extraction(
            [
              ['Ravi maintains the search cluster.', 'fact', 0.95],
              ['Ravi prefers Rust for services.', 'preference', 0.9],
            ],
            [['Ravi', 'maintains', 'search cluster']],
          ),
        decide: () => JSON.stringify({ action: 'ADD', confidence: 0.9, reason: 'new' }),
      });
      const memory = await rig.services.remember.remember({ content: 'Ravi maintains the search cluster and prefers Rust for services.' });
      rig.worker.start();
      const job = await waitForJob(rig.services, memory.memory.id, ['completed']);
      expect(JSON.parse(job.result!)).toMatchObject({ mode: label, facts: 2, outcomes: { [outcome]: 2 } });
      expect(rig.worker.state().mode).toBe(label);

      const written = await query<{ facts: number; relations: number; attributes: number }>(
        rig.services,
        `RETURN COUNT { (m:Memory {namespace: $namespace}) WHERE m.who = 'pipeline-v2' } AS facts,
                COUNT { (:Entity {namespace: $namespace})-[:RELATES_TO]->() } AS relations,
                COUNT { (a:Attribute {namespace: $namespace}) WHERE a.createdBy = 'pipeline-v2' } AS attributes`,
        { namespace },
      );
      expect(written).toEqual([{ facts: 0, relations: 0, attributes: 0 }]);
      const recorded = await proposals(rig, memory.memory.id);
      expect(recorded.map((p) => p.outcome)).toEqual([outcome, outcome]);
      expect(recorded.map((p) => p.details.factContent).sort()).toEqual([
        'Ravi maintains the search cluster.',
        'Ravi prefers Rust for services.',
      ]);
      expect(recorded.every((p) => p.details.action === 'ADD' && p.details.mode === label)).toBe(true);
    });
  }

  it('controlled-write: an UPDATE is blocked and audited, with the contradiction check on its target', async () => {
    namespace = uniqueNamespace('wmblock');
    rig = await startDeepPath(namespace);
    scriptUpdate(rig);
    const first = await rig.services.remember.remember({ content: FIRST });
    rig.worker.start();
    await waitForJob(rig.services, first.memory.id, ['completed']);
    const second = await rig.services.remember.remember({ content: SECOND });
    const job = await waitForJob(rig.services, second.memory.id, ['completed']);
    expect(JSON.parse(job.result!).outcomes).toEqual({ 'blocked:update_delete_disabled': 1 });
    const [proposal] = await proposals(rig, second.memory.id);
    expect(proposal!.details).toMatchObject({
      action: 'UPDATE',
      targetId: first.memory.id,
      reviewNeeded: false,
      contradiction: { contradicts: false },
    });
    const [attr] = await query<{ status: string }>(
      rig.services,
      `MATCH (a:Attribute {createdBy: 'pipeline-v2'})-[:FROM]->(:Memory {id: $id}) RETURN a.status AS status`,
      { id: first.memory.id },
    );
    expect(attr!.status).toBe('active');
  });

  it('full mode: an UPDATE supersedes the target memory and its attributes; nothing is deleted', async () => {
    namespace = uniqueNamespace('wmfull');
    rig = await startDeepPath(namespace, { ALLOW_UPDATE_DELETE: 'true' });
    scriptUpdate(rig);
    const first = await rig.services.remember.remember({ content: FIRST });
    rig.worker.start();
    await waitForJob(rig.services, first.memory.id, ['completed']);
    const second = await rig.services.remember.remember({ content: SECOND });
    const job = await waitForJob(rig.services, second.memory.id, ['completed']);
    expect(JSON.parse(job.result!)).toMatchObject({ mode: 'full', outcomes: { 'applied:update': 1 } });

    // Every active attribute from the target — the pipeline's and the inline linker's — is superseded by the new one.
    const chain = await query<{
      createdBy: string;
      newer: string;
      older: string;
      olderStatus: string;
      validTo: string | null;
      method: string;
    }>(
      rig.services,
      `MATCH (n:Attribute)-[s:SUPERSEDES]->(o:Attribute)-[:FROM]->(:Memory {id: $target})
       RETURN o.createdBy AS createdBy, n.content AS newer, o.content AS older, o.status AS olderStatus, o.validTo AS validTo, s.method AS method
       ORDER BY createdBy`,
      { target: first.memory.id },
    );
    const superseded = { newer: SECOND_FACT, older: FIRST, olderStatus: 'superseded', validTo: expect.any(String), method: 'update' };
    expect(chain).toEqual([
      { createdBy: 'inline-linker', ...superseded },
      { createdBy: 'pipeline-v2', ...superseded },
    ]);
    const [active] = await query<{ n: number }>(
      rig.services,
      `MATCH (a:Attribute {status: 'active'})-[:FROM]->(:Memory {id: $target}) RETURN count(a) AS n`,
      { target: first.memory.id },
    );
    expect(active!.n).toBe(0);
    const [target] = await query<{ content: string; deleted: boolean; superseded: boolean; events: string[] }>(
      rig.services,
      `MATCH (m:Memory {id: $id}) RETURN m.content AS content, m.deletedAt IS NOT NULL AS deleted, m.supersededAt IS NOT NULL AS superseded, [(h:HistoryEvent)-[:ABOUT]->(m) | h.event] AS events`,
      { id: first.memory.id },
    );
    expect(target).toMatchObject({ content: FIRST, deleted: false, superseded: true });
    expect(target!.events).toContain('pipeline.target-retired');
  });
});
