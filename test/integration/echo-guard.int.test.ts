import { describe, expect, it } from '../support/fixture.js';

const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) {
  memory { id content } dedup { action existingId } echo { lines memoryIds stored } } }`;
const RECALL = `query($q: String!, $ns: String) { recall(query: $q, namespace: $ns, limit: 5) { prompt items { memory { id } } } }`;
const COUNT = `query($ns: String) { memoriesConnection(namespace: $ns, first: 1) { totalCount } }`;
const ECHOES = `query($ns: String) { pipelineStatus(namespace: $ns) { echoes { remembers skipped lastAt } } }`;

const FACTS = [
  'The invoice exporter runs every Monday at 02:00 UTC and uploads to S3.',
  'The payments API must always be called through the gateway, never directly.',
  'Priya owns the billing service and reviews every schema change.',
];

describe('the echo guard: no memory from memory (real Neo4j)', () => {
  it("a recall's <memory> block pasted back stores nothing new; a new fact beside it is stored alone; counted in pipelineStatus", async ({
    graphql,
    namespace,
  }) => {
    const ids: string[] = [];
    for (const content of FACTS)
      ids.push((await graphql.data<{ remember: any }>(REMEMBER, { i: { namespace, content } })).remember.memory.id);
    const count = async () =>
      (await graphql.data<{ memoriesConnection: { totalCount: number } }>(COUNT, { ns: namespace })).memoriesConnection.totalCount;
    expect(await count()).toBe(3);

    const recalled = (await graphql.data<{ recall: any }>(RECALL, { q: 'billing exporter payments gateway', ns: namespace })).recall;
    expect(recalled.prompt).toContain('<memory>');
    expect(recalled.items.length).toBe(3);

    // The block as a tool would print it back: nothing stored, the answer names what it repeated.
    const echoed = (await graphql.data<{ remember: any }>(REMEMBER, { i: { namespace, content: `Tool output:\n${recalled.prompt}` } }))
      .remember;
    expect(echoed.dedup.action).toBe('ECHO');
    expect(echoed.echo).toMatchObject({ lines: 3, stored: false });
    expect([...echoed.echo.memoryIds].sort()).toEqual([...ids].sort());
    expect(ids).toContain(echoed.memory.id);
    expect(await count()).toBe(3);

    // Quoted back line by line (bullets), with one genuinely new fact: only the new fact is stored.
    const fact = 'The staging database moved to db-staging-2.internal on port 6432 last night.';
    const mixed = (
      await graphql.data<{ remember: any }>(REMEMBER, {
        i: { namespace, content: `Here is what I know:\n- ${FACTS[0]}\n- ${FACTS[2]}\n\n${fact}` },
      })
    ).remember;
    expect(mixed.dedup.action).toBe('STORED_NEW');
    expect(mixed.echo).toMatchObject({ lines: 2, stored: true });
    expect(mixed.memory.content).toContain(fact);
    expect(mixed.memory.content).not.toContain('invoice exporter');
    expect(mixed.memory.content).not.toContain('Priya');
    expect(await count()).toBe(4);

    // A memory remembered again whole is exact dedup's business, as before.
    const again = (await graphql.data<{ remember: any }>(REMEMBER, { i: { namespace, content: FACTS[1] } })).remember;
    expect(again).toMatchObject({ dedup: { action: 'DUPLICATE_EXACT', existingId: ids[1] }, echo: null });
    // Text that repeats nothing is untouched.
    const plain = (
      await graphql.data<{ remember: any }>(REMEMBER, {
        i: { namespace, content: 'Deploys freeze on Fridays after 15:00.\nThe freeze is lifted for hotfixes signed off by two people.' },
      })
    ).remember;
    expect(plain).toMatchObject({ dedup: { action: 'STORED_NEW' }, echo: null });
    expect(plain.memory.content).toContain('Deploys freeze on Fridays');

    const echoes = (await graphql.data<{ pipelineStatus: any }>(ECHOES, { ns: namespace })).pipelineStatus.echoes;
    expect(echoes).toMatchObject({ remembers: 2, skipped: 1 });
    expect(echoes.lastAt).toBeTruthy();
  });
});
