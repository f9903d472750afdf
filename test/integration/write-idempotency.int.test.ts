import type { Services } from '../../src/app.js';
import { replayingExecutor } from '../support/replaying-executor.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '../support/fixture.js';
import { testServices } from '../support/services.js';

// Long enough for several chunks; strong entities (tools) with attributes (a decision).
const CONTENT = [
  'Alice Johnson prefers Postgres over MySQL for every new service.',
  'We decided to use Kubernetes for the Apollo deployment, with three nodes per region.',
  ...Array.from(
    { length: 12 },
    (_, i) =>
      `Runbook step ${i + 1}: check the dashboards for region ${i + 1}, then confirm the rollout with the on-call engineer before continuing.`,
  ),
].join(' ');

/** Everything one write leaves in a namespace, counted. */
const FOOTPRINT = `
MATCH (m:Memory {namespace: $ns})
RETURN count(m) AS memories,
       sum(m.accessCount) AS accessCount,
       sum(COUNT { (m)-[:HAS_CHUNK]->() }) AS hasChunk,
       COUNT { MATCH (c:Chunk) WHERE c.namespace = $ns RETURN c } AS chunks,
       COUNT { MATCH (j:Job) WHERE j.namespace = $ns RETURN j } AS jobs,
       COUNT { MATCH (h:HistoryEvent) WHERE h.namespace = $ns RETURN h } AS history,
       COUNT { MATCH (a:Attribute) WHERE a.namespace = $ns RETURN a } AS attributes,
       COUNT { MATCH (:Memory {namespace: $ns})-[r:MENTIONS]->() RETURN r } AS mentionLinks,
       COUNT { MATCH (e:Entity) WHERE e.namespace = $ns RETURN e } AS entities,
       COLLECT { MATCH (e:Entity) WHERE e.namespace = $ns RETURN e.mentions } AS entityMentions`;

type Footprint = Record<string, number | number[]>;

describe('a managed write transaction re-run after its COMMIT (lost reply) changes nothing', () => {
  let plain: Services;
  let replayed: Services;
  let replays: () => number;
  const footprint = async (namespace: string): Promise<Footprint> => {
    const [row] = await plain.executor.read<Footprint>('test.footprint', FOOTPRINT, { ns: namespace });
    return { ...row!, entityMentions: [...(row!.entityMentions as number[])].sort() };
  };

  beforeEach(({ services }) => void (plain = services));
  beforeAll(async () => {
    replayed = testServices(
      {},
      {
        wrapExecutor: (executor) => {
          const wrapped = replayingExecutor(executor);
          replays = wrapped.replays;
          return wrapped.executor;
        },
      },
    );
  });
  afterAll(async () => {
    await replayed.executor.close();
  });

  it('remember: one memory, one set of chunks, jobs, history, mentions and attributes', async ({ freshNamespace: ns }) => {
    const once = ns('once');
    const twice = ns('twice');
    await plain.remember.remember({ content: CONTENT, namespace: once });
    const before = replays();
    const result = await replayed.remember.remember({ content: CONTENT, namespace: twice });
    expect(replays()).toBe(before + 1);
    expect(result.dedup.action).toBe('STORED_NEW');

    const expected = await footprint(once);
    expect(expected).toMatchObject({ memories: 1, accessCount: 0, history: 1 });
    expect(expected.chunks).toBeGreaterThan(1);
    expect(expected.jobs).toBeGreaterThan(0);
    expect(expected.attributes).toBeGreaterThan(0);
    expect(expected.mentionLinks).toBeGreaterThan(0);
    expect(await footprint(twice)).toEqual(expected);
  });

  it('rememberBatch with repeats and an exact duplicate of an earlier memory', async ({ freshNamespace: ns }) => {
    const once = ns('batch-once');
    const twice = ns('batch-twice');
    const batch = (namespace: string) => [
      { content: 'The staging cluster runs on three nodes in eu-west-1.', namespace },
      { content: CONTENT, namespace },
      { content: 'The staging cluster runs on three nodes in eu-west-1.', namespace },
    ];
    await plain.remember.remember({ content: CONTENT, namespace: once });
    await plain.remember.remember({ content: CONTENT, namespace: twice });
    const a = await plain.remember.rememberBatch(batch(once));
    const b = await replayed.remember.rememberBatch(batch(twice));
    expect(b.map((o) => o.result?.dedup.action)).toEqual(a.map((o) => o.result?.dedup.action));
    expect(b.map((o) => o.result?.dedup.action)).toEqual(['STORED_NEW', 'DUPLICATE_EXACT', 'DUPLICATE_EXACT']);
    const expected = await footprint(once);
    // The earlier memory was seen once, the batch's first sentence once (its repeat).
    expect(expected).toMatchObject({ memories: 2, accessCount: 2 });
    expect(await footprint(twice)).toEqual(expected);
  });
});
