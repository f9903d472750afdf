import type { Services } from '../../src/app.js';
import { forgetMemory } from '../../src/db/queries/memory-mutations.js';
import { beforeEach, describe, expect, integrationTest } from '../support/fixture.js';
import { faultingExecutor } from '../support/faulting-executor.js';

const LIVE = `MATCH (m:Memory {namespace: $ns}) WHERE m.deletedAt IS NULL RETURN m.id AS id, m.content AS content`;

/**
 * Dedup is decided before the write transaction; these tests change the duplicate's target in
 * between (through an executor that runs them before remember's write transaction, deterministically) and check that what `remember`
 * answers is what the graph holds.
 */
let interleave: (() => Promise<void>) | null = null;
const it = integrationTest({
  app: {
    // Before remember's write transaction opens: after its dedup reads. One-shot, so only the
    // first round of a call is interleaved.
    wrapExecutor: faultingExecutor('remember', {
      beforeTx: async () => {
        if (!interleave) return;
        const run = interleave;
        interleave = null;
        await run();
      },
    }),
  },
});

describe('remember when the duplicate target changes between the dedup read and the write', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));
  const live = async (namespace: string) => services.executor.read<{ id: string; content: string }>('test.live', LIVE, { ns: namespace });

  it('an exact duplicate of a memory forgotten meanwhile is stored as new', async ({ freshNamespace: ns }) => {
    const namespace = ns();
    const content = 'The staging cluster runs on three nodes in eu-west-1.';
    const first = await services.remember.remember({ content, namespace });
    interleave = async () => void (await forgetMemory(services.executor, { id: first.memory.id, namespace, actor: 'test' }, 'race'));
    const second = await services.remember.remember({ content, namespace });
    expect(second.dedup.action).toBe('STORED_NEW');
    expect(second.memory.id).not.toBe(first.memory.id);
    expect(await live(namespace)).toEqual([{ id: second.memory.id, content }]);
  });

  it('an exact duplicate of a memory rewritten meanwhile is stored as new', async ({ freshNamespace: ns }) => {
    const namespace = ns();
    const content = 'Backups of the billing database run nightly at 02:00 UTC.';
    const first = await services.remember.remember({ content, namespace });
    interleave = async () =>
      void (await services.update.update({
        id: first.memory.id,
        namespace,
        content: 'The search cluster was moved to Frankfurt last spring.',
        actor: 'test',
      }));
    const second = await services.remember.remember({ content, namespace });
    expect(second.dedup.action).toBe('STORED_NEW');
    const contents = (await live(namespace)).map((m) => m.content).sort();
    expect(contents).toEqual([content, 'The search cluster was moved to Frankfurt last spring.'].sort());
  });

  it('a semantic duplicate of a memory forgotten meanwhile is stored as new', async ({ freshNamespace: ns }) => {
    const namespace = ns();
    const original = 'Our team deploys the billing service every Tuesday afternoon.';
    // A paraphrase e5-small-v2 counts a duplicate (0.995 ≥ its 0.99; remember.int.test.ts checks the premise).
    const paraphrase = 'Our team deploys the billing service on every Tuesday afternoon.';
    const first = await services.remember.remember({ content: original, namespace });
    // The premise: without the interleaving this is a semantic duplicate.
    const control = ns();
    await services.remember.remember({ content: original, namespace: control });
    expect((await services.remember.remember({ content: paraphrase, namespace: control })).dedup.action).toBe('DUPLICATE_SEMANTIC');

    interleave = async () => void (await forgetMemory(services.executor, { id: first.memory.id, namespace, actor: 'test' }, 'race'));
    const second = await services.remember.remember({ content: paraphrase, namespace });
    expect(second.dedup.action).toBe('STORED_NEW');
    expect(await live(namespace)).toEqual([{ id: second.memory.id, content: paraphrase }]);
  });

  it('a near duplicate of a memory forgotten meanwhile is stored without a link to it', async ({ freshNamespace: ns }) => {
    const namespace = ns();
    const original = 'The mobile team ships a release candidate every second Friday.';
    const near = 'The mobile team ships one release candidate every other Friday.'; // cosine 0.95
    const first = await services.remember.remember({ content: original, namespace });
    interleave = async () => void (await forgetMemory(services.executor, { id: first.memory.id, namespace, actor: 'test' }, 'race'));
    const second = await services.remember.remember({ content: near, namespace });
    expect(second.dedup.action).not.toBe('DUPLICATE_SEMANTIC');
    expect(second.dedup.action).toBe('STORED_NEW');
    const [links] = await services.executor.read<{ n: number }>(
      'test.links',
      'MATCH (:Memory {id: $id})-[d:DUPLICATE_OF]->() RETURN count(d) AS n',
      { id: second.memory.id },
    );
    expect(links!.n).toBe(0);
  });
});
