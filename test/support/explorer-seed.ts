import type { Services } from '../../src/app.js';
import { failJob } from '../../src/db/jobs/index.js';

/** The secret planted in one memory and one job error: it must never reach the explorer's page. */
export const PLANTED_SECRET = 'hunter2secret';

export interface ExplorerSeed {
  namespace: string;
  memories: { decision: string; redacted: string; updated: string; forgotten: string; ada: string };
  entities: { ada: string; neo4j: string; billing: string };
  deadJobId: string;
}

type Post = (body: Record<string, unknown>, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

const REMEMBER = `mutation R($i: RememberInput!) { remember(input: $i) { memory { id } } }`;

const MEMORIES = [
  {
    key: 'decision',
    content: 'We chose Neo4j for the knowledge graph because relationships are first-class there.',
    type: 'decision',
    sessionId: 'arch-review',
    source: 'meeting',
    tags: ['architecture'],
    occurredAt: '2026-03-02T10:00:00Z',
  },
  {
    key: 'ada',
    content: 'Ada Lovelace leads the billing team and owns the invoice service.',
    sessionId: 'team-sync',
    source: 'conversation',
    tags: ['people'],
    occurredAt: '2026-03-03T09:00:00Z',
  },
  {
    key: 'redacted',
    content: `Connect the billing worker with postgres://billing:${PLANTED_SECRET}@db.internal:5432/billing for the nightly export.`,
    type: 'procedural',
    sessionId: 'ops',
    source: 'tool',
    tags: ['ops'],
    occurredAt: '2026-03-04T22:00:00Z',
  },
  {
    key: 'grace',
    content: 'Grace Hopper prefers short standups on Mondays.',
    type: 'preference',
    sessionId: 'team-sync',
    source: 'conversation',
    occurredAt: '2026-03-05T09:30:00Z',
  },
  {
    key: 'invoice',
    content: 'The invoice service runs on Neo4j and Kafka.',
    sessionId: 'arch-review',
    source: 'meeting',
    tags: ['architecture'],
    occurredAt: '2026-03-06T11:00:00Z',
  },
  {
    key: 'updated',
    content: 'Deploy freeze starts Friday at 18:00 for the billing release.',
    type: 'decision',
    sessionId: 'ops',
    source: 'conversation',
    tags: ['release'],
    occurredAt: '2026-03-07T08:00:00Z',
  },
  {
    key: 'forgotten',
    content: 'Temporary note: the staging cluster is down until noon.',
    type: 'working',
    sessionId: 'ops',
    source: 'tool',
    occurredAt: '2026-03-08T07:00:00Z',
  },
  {
    key: 'moved',
    content: 'Ada Lovelace moved to the platform team in March; Grace Hopper took over billing.',
    sessionId: 'team-sync',
    source: 'conversation',
    tags: ['people'],
    occurredAt: '2026-03-20T09:00:00Z',
  },
] as const;

async function call(post: Post, headers: Record<string, string>, query: string, variables: Record<string, unknown>): Promise<any> {
  const { body } = await post({ query, variables }, headers);
  if (body.errors) throw new Error(`seed: ${JSON.stringify(body.errors).slice(0, 500)}`);
  return body.data;
}

/**
 * A small store for the explorer's tests and screenshots, written through the public API (like
 * any client) except one dead job, failed the way the worker fails one.
 */
export async function seedExplorer(
  post: Post,
  services: Services,
  namespace: string,
  headers: Record<string, string> = {},
): Promise<ExplorerSeed> {
  const ids: Record<string, string> = {};
  for (const { key, ...input } of MEMORIES) {
    const data = await call(post, headers, REMEMBER, { i: { ...input, namespace } });
    ids[key] = data.remember.memory.id;
  }
  await call(
    post,
    headers,
    `mutation U($id: ID!) { updateMemory(id: $id, content: "Deploy freeze starts Thursday at 18:00 for the billing release.") { id } }`,
    { id: ids.updated },
  );
  await call(post, headers, `mutation F($id: ID!) { forget(id: $id, reason: "the cluster is back") { id } }`, { id: ids.forgotten });
  await call(post, headers, `mutation P($id: ID!) { pin(id: $id) { id } }`, { id: ids.decision });

  const entity = async (name: string, type: string, description?: string) =>
    (
      await call(
        post,
        headers,
        `mutation E($ns: String, $n: String!, $t: EntityType, $d: String) { createEntity(namespace: $ns, name: $n, type: $t, description: $d) { entity { id } } }`,
        { ns: namespace, n: name, t: type, d: description ?? null },
      )
    ).createEntity.entity.id as string;
  const ada = await entity('Ada Lovelace', 'person', 'engineering lead');
  const neo4j = await entity('Neo4j', 'system');
  const billing = await entity('billing team', 'organization');
  await entity('platform team', 'organization');
  await entity('invoice service', 'system');
  await entity('Kafka', 'tool');
  const relate = (source: string, type: string, target: string) =>
    call(
      post,
      headers,
      `mutation L($ns: String, $s: String!, $t: String!, $o: String!) { relate(namespace: $ns, source: $s, type: $t, target: $o) { type } }`,
      { ns: namespace, s: source, t: type, o: target },
    );
  await relate('Ada Lovelace', 'leads', 'billing team');
  await relate('billing team', 'owns', 'invoice service');
  await relate('invoice service', 'runs on', 'Neo4j');
  await relate('invoice service', 'publishes to', 'Kafka');
  await relate('Ada Lovelace', 'member of', 'platform team');
  const fact = (aspect: string, content: string) =>
    call(
      post,
      headers,
      `mutation A($ns: String, $a: String!, $c: String!) { assertFact(namespace: $ns, entity: "Ada Lovelace", aspect: $a, content: $c) { outcome } }`,
      { ns: namespace, a: aspect, c: content },
    );
  await fact('role', 'Ada Lovelace leads the billing team.');
  // The second contradicts the first (prefers / avoids): the first is superseded.
  await fact('preferences', 'Ada Lovelace prefers tabs in the billing code.');
  await fact('preferences', 'Ada Lovelace avoids tabs in the billing code.');

  // One dead job: the extract job of the redacted memory, leased and failed for good, its error
  // carrying the same secret (failJob redacts what it stores).
  const [job] = await services.executor.write<{ id: string }>(
    'test.explorer.lease',
    `MATCH (j:Job)-[:FOR]->(:Memory {id: $memoryId}) WITH j ORDER BY j.createdAt LIMIT 1
     SET j.status = 'leased', j.leaseOwner = 'explorer-seed', j.leasedAt = toString(datetime()), j.attempts = 3
     RETURN j.id AS id`,
    { memoryId: ids.redacted },
  );
  if (!job) throw new Error('seed: the redacted memory has no job');
  const status = await failJob(
    services.executor,
    job.id,
    'explorer-seed',
    `model call failed: could not reach postgres://billing:${PLANTED_SECRET}@db.internal:5432/billing`,
    { attempts: 3, retryBaseMs: 0, permanent: true },
  );
  if (status !== 'dead') throw new Error(`seed: the job is ${status}, not dead`);

  return {
    namespace,
    memories: { decision: ids.decision!, redacted: ids.redacted!, updated: ids.updated!, forgotten: ids.forgotten!, ada: ids.ada! },
    entities: { ada, neo4j, billing },
    deadJobId: job.id,
  };
}
