import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/app.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';

const REMEMBER = `
mutation ($input: RememberInput!) { remember(input: $input) { memory { id contentHash tags chunks { id text } entities { name } } dedup { action existingId } } }`;

const UPDATE = `
mutation ($id: ID!, $content: String!) {
  updateMemory(id: $id, content: $content) {
    id content contentHash type tags updatedAt createdAt
    chunks { id index text }
    entities { name }
    attributes { content status }
    history { event actor details }
  }
}`;

describe('updateMemory', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));

  const jobsOf = (id: string) =>
    services.executor.read<{ kind: string; status: string }>(
      'test.jobs',
      'MATCH (j:Job)-[:FOR]->(:Memory {id: $id}) RETURN j.kind AS kind, j.status AS status ORDER BY j.createdAt',
      { id },
    );

  it('replaces content, chunks, vectors and entity links, keeps the old content in history and queues extraction', async ({
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh();
    const oldContent = 'The payments API stores its ledger in PostgreSQL and ships as a Docker image.';
    const newContent = 'The search indexer is written in Rust and runs on Kubernetes.';
    const { remember } = await gql.data(REMEMBER, { input: { content: oldContent, namespace: ns, tags: ['team'], who: 'agent-7' } });
    const id = remember.memory.id;
    expect(remember.memory.entities.map((e: { name: string }) => e.name)).toContain('Docker');
    // The first extract job already ran: the update must queue a new one.
    await services.executor.write('test.complete', `MATCH (j:Job)-[:FOR]->(:Memory {id: $id}) SET j.status = 'completed'`, { id });

    const { updateMemory: updated } = await gql.data(UPDATE, { id, content: `  ${newContent}  ` });
    expect(updated.id).toBe(id);
    expect(updated.content).toBe(newContent);
    expect(updated.contentHash).not.toBe(remember.memory.contentHash);
    expect(updated.tags).toContain('team');
    expect(updated.updatedAt > updated.createdAt).toBe(true);
    expect(updated.chunks.map((c: { text: string }) => c.text).join(' ')).toContain('Rust');
    expect(updated.chunks.map((c: { id: string }) => c.id)).not.toContain(remember.memory.chunks[0].id);
    const names = updated.entities.map((e: { name: string }) => e.name);
    expect(names.sort()).toEqual(['Kubernetes', 'Rust']);
    // The old content's attributes stay on the memory as superseded, the new ones are active.
    expect(updated.attributes.filter((a: { status: string }) => a.status === 'active').map((a: { content: string }) => a.content)).toEqual([
      newContent,
      newContent,
    ]);
    expect(
      updated.attributes.filter((a: { status: string }) => a.status === 'superseded').map((a: { content: string }) => a.content),
    ).toEqual([oldContent, oldContent]);
    expect(updated.history.map((h: { event: string }) => h.event)).toEqual(['created', 'updated']);
    expect(updated.history[1].actor).toBe('local');
    expect(updated.history[1].details).toMatchObject({
      previousContent: oldContent,
      previousContentHash: remember.memory.contentHash,
      contentHash: updated.contentHash,
    });

    // Old chunks and their vectors are gone; the vector index finds the new text.
    const [chunks] = await services.executor.read<{ old: number; all: number }>(
      'test.chunks',
      `MATCH (c:Chunk {namespace: $ns}) RETURN count(CASE WHEN c.text CONTAINS 'Docker' THEN 1 END) AS old, count(c) AS all`,
      { ns },
    );
    expect(chunks).toMatchObject({ old: 0, all: updated.chunks.length });
    const { recall } = await gql.data(
      `query ($ns: String) { recall(query: "which language is the search indexer written in", namespace: $ns) { items { memory { id } } } }`,
      { ns },
    );
    expect(recall.items[0].memory.id).toBe(id);
    const [docker] = await services.executor.read<{ mentions: number; linked: number }>(
      'test.docker',
      `MATCH (e:Entity {namespace: $ns, canonicalName: 'docker'}) RETURN e.mentions AS mentions, COUNT { (:Memory)-[:MENTIONS]->(e) } AS linked`,
      { ns },
    );
    expect(docker).toEqual({ mentions: 0, linked: 0 });

    expect(await jobsOf(id)).toEqual([
      { kind: 'extract', status: 'completed' },
      { kind: 'extract', status: 'pending' },
    ]);
    // A second update while that job is pending does not queue another.
    await gql.data(UPDATE, { id, content: 'The search indexer is written in Rust and runs on Nomad now.' });
    expect((await jobsOf(id)).filter((j) => j.status === 'pending')).toHaveLength(1);

    // The old content is free again.
    const again = (await gql.data(REMEMBER, { input: { content: oldContent, namespace: ns } })).remember;
    expect(again.dedup.action).toBe('STORED_NEW');
  });

  it('supersedes the linker attributes of the old content, keeping them in the aspect history', async ({
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh();
    const { remember } = await gql.data(REMEMBER, {
      input: { content: 'We decided to use Redis over Memcached for sessions', namespace: ns },
    });
    const before = await gql.data(
      `query ($ns: String) { entity(name: "Redis", namespace: $ns) { id aspects { name attributes { id } } } }`,
      { ns },
    );
    const aspect = before.entity.aspects[0];
    expect(aspect.attributes).toHaveLength(1);

    const { updateMemory } = await gql.data(UPDATE, {
      id: remember.memory.id,
      content: 'We decided to use Redis over Memcached for rate limiting',
    });
    const active = updateMemory.attributes.filter((a: { status: string }) => a.status === 'active');
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((a: { content: string }) => a.content.includes('rate limiting'))).toBe(true);
    const { attributeHistory } = await gql.data(
      `query ($id: ID!, $aspect: String!) { attributeHistory(entityId: $id, aspect: $aspect) { id content status supersedes { id } } }`,
      {
        id: before.entity.id,
        aspect: aspect.name,
      },
    );
    expect(attributeHistory).toHaveLength(2);
    expect(attributeHistory[0]).toMatchObject({ id: aspect.attributes[0].id, status: 'superseded' });
    expect(attributeHistory[1]).toMatchObject({ status: 'active', supersedes: { id: aspect.attributes[0].id } });
    expect(attributeHistory[1].content).toContain('rate limiting');
  });

  it('refuses a duplicate of another live memory, PII, blank content, unknown and forgotten memories', async ({
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh();
    const a = (await gql.data(REMEMBER, { input: { content: 'The nightly backup job writes to the eu-central bucket.', namespace: ns } }))
      .remember.memory;
    const b = (await gql.data(REMEMBER, { input: { content: 'Frontend releases are tagged with the sprint number.', namespace: ns } }))
      .remember.memory;
    const code = async (id: string, content: string) => (await gql.exec(UPDATE, { id, content })).errors?.[0];

    const exact = await code(b.id, ' The nightly backup job writes to the eu-central bucket. ');
    expect(exact?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: { existingId: a.id } });
    const semantic = await code(b.id, 'The nightly backup job writes to the eu-central bucket');
    expect(semantic?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await code(b.id, 'my password is'))?.extensions?.code).toBe('PII_REJECTED');
    expect((await code(b.id, '   '))?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await code(randomUUID(), 'anything at all'))?.extensions?.code).toBe('NOT_FOUND');

    // Nothing was half-written: b is as it was.
    const { memory } = await gql.data(`query ($id: ID!) { memory(id: $id) { content contentHash chunks { id } history { event } } }`, {
      id: b.id,
    });
    expect(memory).toMatchObject({
      content: 'Frontend releases are tagged with the sprint number.',
      contentHash: b.contentHash,
      chunks: b.chunks.map((c: { id: string }) => ({ id: c.id })),
    });
    expect(memory.history.map((h: { event: string }) => h.event)).toEqual(['created']);

    // Same content again: nothing to redo, no history.
    const same = (await gql.data(UPDATE, { id: b.id, content: 'Frontend releases are tagged with the sprint number.' })).updateMemory;
    expect(same.history.map((h: { event: string }) => h.event)).toEqual(['created']);

    await gql.data(`mutation ($id: ID!) { forget(id: $id) { id } }`, { id: b.id });
    expect((await code(b.id, 'Frontend releases are tagged with the release date.'))?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
