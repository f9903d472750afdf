import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlClient } from '../support/graphql.js';
import { extraction, memoryTextOf, query, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { uniqueNamespace } from '../support/services.js';

const BERLIN = 'Alice lives in Berlin.';
const LISBON = 'Alice moved to Lisbon last month, she loves the light there.';
const LISBON_FACT = 'Alice lives in Lisbon.';
const GITHUB_TOKEN = `ghp_${'Zq8'.repeat(12)}`;

/** The id of the decision prompt's candidate whose preview mentions `word`. */
function candidateMentioning(prompt: string, word: string): string | null {
  const match = new RegExp(`id=([0-9a-f-]{36}) [^\\n]*\\n\\s+[^\\n]*${word}`).exec(prompt);
  return match ? match[1]! : null;
}

type Client = Awaited<ReturnType<typeof graphqlClient>>;

describe('full mode: UPDATE supersedes the memory, and an applied proposal can be reverted', () => {
  let rig: DeepPathRig;
  let client: Client;
  const namespace = uniqueNamespace('revert');

  beforeAll(async () => {
    rig = await startDeepPath(namespace, { ALLOW_UPDATE_DELETE: 'true' });
    client = await graphqlClient(rig.services);
  });
  afterAll(async () => {
    await client.stop();
    await rig.close();
  });

  const recallContents = async (filters: Record<string, unknown> = {}) =>
    (
      await client.data<{ recall: { items: Array<{ memory: { id: string; content: string } }> } }>(
        `query ($ns: String, $f: RecallFilters) { recall(query: "Where does Alice live?", namespace: $ns, limit: 10, filters: $f) { items { memory { id content } } } }`,
        { ns: namespace, f: filters },
      )
    ).recall.items.map((i) => i.memory.content);

  it('"Alice lives in Berlin" then "Alice moved to Lisbon": Lisbon active and first, Berlin superseded but kept; revert restores Berlin', async () => {
    const { services, fake, worker } = rig;
    scriptStages(fake, {
      extract: (r) =>
        memoryTextOf(r.prompt) === BERLIN
          ? extraction([[BERLIN, 'fact', 0.95]], [['Alice', 'lives in', 'Berlin']])
          : extraction([[LISBON_FACT, 'fact', 0.95]], [['Alice', 'lives in', 'Lisbon']]),
      decide: (r) => {
        const berlin = r.prompt.includes(LISBON_FACT) ? candidateMentioning(r.prompt, 'Berlin') : null;
        return JSON.stringify(
          berlin
            ? { action: 'UPDATE', targetId: berlin, confidence: 0.95, reason: 'Alice moved from Berlin to Lisbon' }
            : { action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' },
        );
      },
    });
    worker.start();
    const berlin = (await services.remember.remember({ content: BERLIN, namespace })).memory;
    await waitForJob(services, berlin.id, ['completed']);
    const lisbon = (await services.remember.remember({ content: LISBON, namespace })).memory;
    const job = await waitForJob(services, lisbon.id, ['completed']);
    expect(JSON.parse(job.result!).outcomes).toMatchObject({ 'applied:update': 1 });

    // Default recall: Lisbon first, Berlin gone; includeSuperseded brings Berlin back.
    const active = await recallContents();
    expect(active[0]).toMatch(/Lisbon/);
    expect(active).not.toContain(BERLIN);
    expect(await recallContents({ includeSuperseded: true })).toContain(BERLIN);

    const data = await client.data<{
      memory: { supersededAt: string | null; supersededBy: string | null; history: Array<{ event: string; outcome: string }> };
    }>(`query ($id: ID!) { memory(id: $id) { supersededAt supersededBy history { event outcome } } }`, { id: berlin.id });
    expect(data.memory.supersededAt).not.toBeNull();
    expect(data.memory.history.map((h) => `${h.event}:${h.outcome}`)).toContain('pipeline.target-retired:update');
    const [fact] = await query<{ id: string }>(
      services,
      `MATCH (f:Memory {namespace: $namespace, content: $content}) WHERE f.deletedAt IS NULL RETURN f.id AS id`,
      { namespace, content: LISBON_FACT },
    );
    expect(data.memory.supersededBy).toBe(fact!.id);

    // Both values in the entity's attribute history: Berlin superseded by Lisbon.
    const attributes = async () => {
      const entity = await client.data<{ entity: { id: string; aspects: Array<{ name: string }> } }>(
        `query ($ns: String) { entity(name: "Alice", namespace: $ns) { id aspects { name } } }`,
        { ns: namespace },
      );
      const history = await client.data<{ attributeHistory: Array<{ content: string; status: string }> }>(
        `query ($id: ID!, $aspect: String!) { attributeHistory(entityId: $id, aspect: $aspect) { content status } }`,
        { id: entity.entity.id, aspect: entity.entity.aspects[0]!.name },
      );
      return Object.fromEntries(history.attributeHistory.map((a) => [a.content, a.status]));
    };
    expect(await attributes()).toEqual({ [BERLIN]: 'superseded', [LISBON_FACT]: 'active' });

    // Revert the UPDATE from its audit event.
    const [proposal] = await query<{ id: string }>(
      services,
      `MATCH (h:HistoryEvent {event: 'pipeline.proposal', outcome: 'applied:update'})-[:ABOUT]->(:Memory {id: $id}) RETURN h.id AS id`,
      { id: lisbon.id },
    );
    const revert = `mutation ($id: ID!, $reason: String) { revertProposal(eventId: $id, reason: $reason) { eventId revertEventId restoredMemoryIds restoredAttributeIds retractedAttributeIds forgottenMemoryIds } }`;
    // The reason is stored on the audit event: bounded, and never with a secret in it.
    const tooLong = await client.exec(revert, { id: proposal!.id, reason: 'x'.repeat(1_001) });
    expect(tooLong.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const reason = `wrong person, said the reviewer using token ${GITHUB_TOKEN}`;
    const { revertProposal } = await client.data<{
      revertProposal: { revertEventId: string; restoredMemoryIds: string[]; forgottenMemoryIds: string[]; retractedAttributeIds: string[] };
    }>(revert, { id: proposal!.id, reason });
    const [stored] = await query<{ reason: string }>(services, `MATCH (r:HistoryEvent {id: $id}) RETURN r.reason AS reason`, {
      id: revertProposal.revertEventId,
    });
    expect(stored!.reason).toMatch(/^wrong person, said the reviewer using token /);
    expect(stored!.reason).not.toContain(GITHUB_TOKEN);
    expect(revertProposal.restoredMemoryIds).toEqual([berlin.id]);
    expect(revertProposal.forgottenMemoryIds).toEqual([fact!.id]);
    expect(revertProposal.retractedAttributeIds).toHaveLength(1);

    const after = await recallContents();
    expect(after).toContain(BERLIN);
    expect(after).not.toContain(LISBON_FACT);
    expect(after).toContain(LISBON); // the raw memory is never touched
    expect(await attributes()).toEqual({ [BERLIN]: 'active', [LISBON_FACT]: 'superseded' });

    // The reverted fact is forgotten as forget does it: the same text remembered again is new.
    const [forgotten] = await query<{ dedupKey: string | null }>(services, `MATCH (f:Memory {id: $id}) RETURN f.dedupKey AS dedupKey`, {
      id: fact!.id,
    });
    expect(forgotten!.dedupKey).toBeNull();
    const again1 = await services.remember.remember({ content: LISBON_FACT, namespace });
    expect(again1.dedup.action).toBe('STORED_NEW');
    expect(again1.memory.id).not.toBe(fact!.id);

    const again = await client.exec(revert, { id: proposal!.id });
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const unknown = await client.exec(revert, { id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
