import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory } from '../../src/db/queries/memory-mutations.js';
import { extraction, query, stageOf, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { uniqueNamespace } from '../support/services.js';

const SOURCE = 'Maya told the team: for the billing service we prefer PostgreSQL. The billing service runs on Kubernetes.';

describe('the worker discards results for a memory that changed while it was extracted', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('stale');

  beforeAll(async () => {
    rig = await startDeepPath(namespace);
  });
  afterAll(async () => {
    await rig.close();
  });

  it('forgotten during the model call: job completes as discarded, no fact, no graph, a pipeline.stale event', async () => {
    const { services, fake, worker } = rig;
    const source = await services.remember.remember({ content: SOURCE });
    // The interleaving: the memory is forgotten while the model is answering for it.
    fake.respond(async (request) => {
      const stage = stageOf(request);
      if (stage === 'extract') {
        await forgetMemory(services.executor, { id: source.memory.id, namespace, actor: 'test' }, 'changed my mind');
        return {
          text: extraction(
            [['Maya prefers PostgreSQL for the billing service.', 'preference', 0.92]],
            [['billing service', 'uses', 'PostgreSQL']],
          ),
        };
      }
      if (stage === 'decide') return { text: JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }) };
      return { status: 500, error: `unscripted ${stage}` };
    });
    worker.start();
    const job = await waitForJob(services, source.memory.id, ['completed', 'dead']);
    expect(job.status).toBe('completed');
    expect(JSON.parse(job.result!).discarded).toMatch(/forgotten or rewritten/);

    const facts = await query<{ n: number }>(
      services,
      `MATCH (f:Memory {namespace: $namespace, who: 'pipeline-v2'}) RETURN count(f) AS n`,
      { namespace },
    );
    expect(facts[0]!.n).toBe(0);
    const relations = await query<{ n: number }>(
      services,
      `MATCH (s:Entity {namespace: $namespace})-[r:RELATES_TO]->() RETURN count(r) AS n`,
      { namespace },
    );
    expect(relations[0]!.n).toBe(0);
    const events = await query<{ event: string }>(
      services,
      `MATCH (h:HistoryEvent)-[:ABOUT]->(:Memory {id: $id}) RETURN h.event AS event ORDER BY event`,
      { id: source.memory.id },
    );
    expect(events.map((e) => e.event)).toEqual(['created', 'forgotten', 'pipeline.stale']);
  });
});
