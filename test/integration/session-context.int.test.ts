import type { Services } from '../../src/app.js';
import { fileURLToPath } from 'node:url';
import { CONTEXT_TAIL_CHARS, loadMigrations } from '../../src/db/index.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';

const BATCH = `
mutation ($inputs: [RememberInput!]!) { rememberBatch(inputs: $inputs) { result { memory { id content } } error { message } } }`;
const REMEMBER = `mutation ($input: RememberInput!) { remember(input: $input) { memory { id content } } }`;
const FORGET = `mutation ($id: ID!) { forget(id: $id) { id deletedAt } }`;
const UPDATE = `mutation ($id: ID!, $content: String!) { updateMemory(id: $id, content: $content) { id content } }`;

const CONTEXT_OF = `MATCH (m:Memory) WHERE m.id IN $ids RETURN m.id AS id, m.contextText AS contextText`;

const TURNS = [
  'Melanie: We finally adopted a greyhound from the rescue shelter downtown, have you ever had one?',
  'Caroline: Yes, twice, back when I lived near the coast.',
  'Melanie: That sounds lovely.',
];

describe('memories that know their conversation', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));

  const contexts = async (ids: string[]) => {
    const rows = await services.executor.read<{ id: string; contextText: string | null }>('test.context', CONTEXT_OF, { ids });
    return ids.map((id) => rows.find((r) => r.id === id)?.contextText ?? null);
  };
  const keywordIds = async (namespace: string, query: string, inContext: boolean) =>
    (
      await services.recall.recall({
        query,
        namespace,
        recipe: 'keywordOnly',
        overrides: { keywordContext: { enabled: inContext } },
        tokenBudget: null,
        trackAccess: false,
      })
    ).items.map((i) => i.memory.id);

  it('indexes each turn with the end of the previous turn, the speaker and the date, and stores the content as sent', async ({
    graphql: gql,
    namespace,
  }) => {
    const occurredAt = '2023-05-08T13:56:00.000Z';
    const { rememberBatch } = await gql.data(BATCH, {
      inputs: TURNS.map((content, i) => ({ content, namespace, sessionId: 's1', occurredAt, who: i === 1 ? 'Caroline' : 'Melanie' })),
    });
    const ids: string[] = rememberBatch.map((r: { result: { memory: { id: string } } }) => r.result.memory.id);
    expect(rememberBatch.map((r: { result: { memory: { content: string } } }) => r.result.memory.content)).toEqual(TURNS);
    const [first, second, third] = await contexts(ids);
    expect(first).toBe('8 May 2023 Melanie');
    expect(second).toBe(`8 May 2023 Caroline Melanie ${TURNS[0]}`);
    expect(third).toBe(`8 May 2023 Melanie Caroline ${TURNS[1]}`);

    // The reply names no greyhound: only the turn before it does.
    const query = 'greyhound rescue shelter';
    expect(await keywordIds(namespace, query, false)).not.toContain(ids[1]);
    const found = await keywordIds(namespace, query, true);
    expect(found).toContain(ids[1]);

    // A memory of no session has no neighbourhood.
    const { remember } = await gql.data(REMEMBER, { input: { content: 'Greyhounds are fast dogs.', namespace } });
    expect(await contexts([remember.memory.id])).toEqual([null]);
  });

  it('follows its neighbour: a turn stored later, a neighbour forgotten, a neighbour updated', async ({ graphql: gql, namespace }) => {
    const single = async (content: string, at: string) =>
      (await gql.data(REMEMBER, { input: { content, namespace, sessionId: 'talk', occurredAt: at } })).remember.memory.id as string;
    const long = `${'word '.repeat(100)}and the end of a long turn about the lighthouse`;
    const a = await single(long, '2024-01-02T10:00:00.000Z');
    const c = await single('Third turn.', '2024-01-02T10:02:00.000Z');
    expect((await contexts([c]))[0]).toContain('lighthouse');
    // Stored later but said earlier: it becomes the previous turn of the one after it.
    const b = await single('Second turn about the harbour.', '2024-01-02T10:01:00.000Z');
    const [ca, cb, cc] = await contexts([a, b, c]);
    expect(ca).toBe('2 January 2024');
    expect(cb!.endsWith('lighthouse')).toBe(true);
    const tail = cb!.slice('2 January 2024 '.length);
    expect(tail.length).toBeLessThanOrEqual(CONTEXT_TAIL_CHARS);
    expect(tail.startsWith('word ')).toBe(true); // starts at a word
    expect(cc).toBe('2 January 2024 Second turn about the harbour.');

    await gql.data(UPDATE, { id: b, content: 'Second turn about the pier.' });
    expect((await contexts([c]))[0]).toBe('2 January 2024 Second turn about the pier.');

    await gql.data(FORGET, { id: b });
    expect((await contexts([c]))[0]).toContain('lighthouse');
    expect((await contexts([c]))[0]).not.toContain('pier');
  });

  it('keeps facts extracted from a turn out of the conversation', async ({ namespace }) => {
    const [first, second] = await services.remember.rememberBatch(
      ['Melanie: I ran a charity race for mental health last Saturday.', 'Caroline: That is wonderful!'].map((content) => ({
        content,
        namespace,
        sessionId: 's2',
        occurredAt: '2023-06-01T10:00:00.000Z',
      })),
    );
    const source = first!.result!.memory;
    const [fact] = await services.remember.rememberBatch(
      [{ content: 'Melanie ran a charity race.', namespace, sessionId: 's2', occurredAt: '2023-06-01T10:00:00.000Z' }],
      { enqueueJobs: false, derivedFrom: { memoryId: source.id, contentHash: source.contentHash } },
    );
    const [next] = await services.remember.rememberBatch([
      { content: 'Melanie: Thanks, it was for a good cause.', namespace, sessionId: 's2', occurredAt: '2023-06-01T10:00:00.000Z' },
    ]);
    const [secondContext, factContext, nextContext] = await contexts([
      second!.result!.memory.id,
      fact!.result!.memory.id,
      next!.result!.memory.id,
    ]);
    expect(secondContext).toContain('charity race for mental health');
    expect(factContext).toBeNull();
    expect(nextContext).toBe('1 June 2023 Caroline: That is wonderful!');
  });

  it('migration 019 gives the session memories stored before it the same neighbourhood', async ({ namespace }) => {
    const written = await services.remember.rememberBatch(
      TURNS.map((content) => ({ content, namespace, sessionId: 'old', occurredAt: '2022-03-04T05:06:00.000Z' })),
    );
    const ids = written.map((w) => w.result!.memory.id);
    const before = await contexts(ids);
    await services.executor.write('test.forget-context', 'MATCH (m:Memory) WHERE m.id IN $ids REMOVE m.contextText', { ids });
    expect(await contexts(ids)).toEqual([null, null, null]);
    const migration = (await loadMigrations(fileURLToPath(new URL('../../cypher/', import.meta.url)))).find((m) => m.version === 19)!;
    for (const statement of migration.statements) await services.executor.autoCommit('test.migration-019', statement, {});
    expect(await contexts(ids)).toEqual(before);
    expect(before[1]).toBe(`4 March 2022 ${TURNS[0]}`);
  });
});
