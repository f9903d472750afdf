import { CHECKPOINTS, pruneCheckpoints, writeCheckpoint } from '../../src/sessions/session-checkpoints.js';
import { describe, expect, it } from '../support/fixture.js';

const WRITE = `mutation($i: CheckpointInput!) { checkpoint(input: $i) { id trigger digest promptCount memoryQueries recentRemembers } }`;

describe('session checkpoints', () => {
  it('merges writes inside the flush window, redacts, caps per session and prunes old ones', async ({
    services,
    graphql: gql,
    namespace: ns,
  }) => {
    const a = (
      await gql.data<{ checkpoint: any }>(WRITE, {
        i: {
          namespace: ns,
          sessionId: 's1',
          trigger: 'periodic',
          digest: 'Working on the billing exporter',
          promptCount: 3,
          memoryQueries: ['billing exporter', 'cron'],
          recentRemembers: ['exporter runs Monday'],
        },
      })
    ).checkpoint;
    const b = (
      await gql.data<{ checkpoint: any }>(WRITE, {
        i: {
          namespace: ns,
          sessionId: 's1',
          trigger: 'pre_compaction',
          digest: 'token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD in use',
          promptCount: 2,
          memoryQueries: ['cron', 'retries'],
        },
      })
    ).checkpoint;
    expect(b.id).toBe(a.id); // merged: same checkpoint
    expect(b).toMatchObject({
      trigger: 'pre_compaction',
      promptCount: 5,
      memoryQueries: ['billing exporter', 'cron', 'retries'],
      recentRemembers: ['exporter runs Monday'],
    });
    expect(b.digest).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD');

    // Outside the window: a new checkpoint each time; the cap keeps the newest.
    const base = Date.now() + 10_000;
    for (let i = 0; i < CHECKPOINTS.maxPerSession + 3; i += 1) {
      await writeCheckpoint(
        services.executor,
        { namespace: ns, sessionId: 's2', trigger: 'periodic', digest: `step ${i}` },
        new Date(base + i * (CHECKPOINTS.mergeWindowMs + 1)),
      );
    }
    const latest = (
      await gql.data<{ checkpoints: Array<{ digest: string }> }>(
        `query($ns: String) { checkpoints(namespace: $ns, sessionId: "s2", last: 50) { digest } }`,
        { ns },
      )
    ).checkpoints;
    expect(latest).toHaveLength(CHECKPOINTS.maxPerSession);
    expect(latest[0]!.digest).toBe(`step ${CHECKPOINTS.maxPerSession + 2}`);
    expect(latest.at(-1)!.digest).toBe('step 3');

    // Eight days later everything of this namespace is past the 7-day window.
    const pruned = await pruneCheckpoints(services.executor, ns, new Date(base + 8 * 86_400_000 + 3_600_000));
    expect(pruned).toBe(CHECKPOINTS.maxPerSession + 1);
    const bad = await gql.exec(WRITE, { i: { namespace: ns, sessionId: 's3', trigger: 'periodic', digest: 'x', promptCount: -1 } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  }, 300_000);
});
