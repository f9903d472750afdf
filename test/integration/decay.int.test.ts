import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const DAY = 86_400_000;
const RECALL = `query($q: String!, $ns: String, $asOf: DateTime) { recall(query: $q, namespace: $ns, explain: true, asOf: $asOf, limit: 10) {
  items { memory { id stale staleReason staleAt } score explain { stale staleReason validity } } } }`;

describe('decay: expiry from time phrases, stale flags, recall ranks stale memories lower (real Neo4j)', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const ns = uniqueNamespace('decay');
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    services = testServices({ DECAY_UNRETRIEVED_DAYS: '30' });
    gql = await graphqlClient(services);
    const remember = async (key: string, content: string, occurredAt?: string) => {
      ids[key] = (
        await services.remember.remember({ content, namespace: ns, ...(occurredAt ? { occurredAt } : {}) }, { actor: 'test' })
      ).memory.id;
    };
    await remember('meeting', 'Budget review meeting with finance at 3pm tomorrow', '2026-03-02T09:00:00Z');
    await remember('oncall', 'Bob is on-call for the payments service through Friday', '2026-03-02T09:00:00Z');
    await remember('fact', 'The payments service stores card tokens in the vault cluster');
    await remember('twin', 'The payments service stores refund tokens in the vault cluster');
    await remember('decision', 'We decided to use the vault cluster over KMS for payments tokens');
    await remember('pinned', 'The payments vault cluster is owned by the platform team');
    await gql.data(`mutation($id: ID!) { pin(id: $id) { id } }`, { id: ids.pinned });
  });

  afterAll(async () => {
    await gql.stop();
    await cleanNamespace(services, ns);
    await closeServices(services);
  });

  const flags = async () => {
    const rows = await services.executor.read<{ id: string; stale: boolean | null; reason: string | null; validUntil: string | null }>(
      'test',
      `MATCH (m:Memory {namespace: $ns}) RETURN m.id AS id, m.stale AS stale, m.staleReason AS reason, m.validUntil AS validUntil`,
      { ns },
    );
    return new Map(rows.map((r) => [r.id, r]));
  };

  it('the write path reads the end of validity against occurredAt', async () => {
    const f = await flags();
    expect(f.get(ids.meeting!)!.validUntil).toBe('2026-03-03T15:00:00.000Z');
    expect(f.get(ids.oncall!)!.validUntil).toBe('2026-03-06T23:59:59.000Z'); // 2026-03-02 is a Monday
    expect(f.get(ids.fact!)!.validUntil).toBeNull();
  });

  it('flags expired temporal memories and, after the window, unretrieved persistent ones — never pinned ones or constraints', async () => {
    // Today (record time): the meeting and the on-call week are over; nothing is 30 days unretrieved.
    const now = new Date(Date.now() + 60_000);
    await services.sessionUpkeep.decay([ns], now);
    let f = await flags();
    expect(f.get(ids.meeting!)).toMatchObject({ stale: true, reason: 'expired' });
    expect(f.get(ids.oncall!)).toMatchObject({ stale: true, reason: 'expired' });
    for (const key of ['fact', 'twin', 'decision', 'pinned']) expect(f.get(ids[key]!)!.stale).toBeNull();

    // 31 days on: persistent memories nobody retrieved are stale; the decision and the pinned one are not.
    await services.sessionUpkeep.decay([ns], new Date(now.getTime() + 31 * DAY));
    f = await flags();
    expect(f.get(ids.fact!)).toMatchObject({ stale: true, reason: 'unretrieved' });
    expect(f.get(ids.twin!)).toMatchObject({ stale: true, reason: 'unretrieved' });
    expect(f.get(ids.decision!)!.stale).toBeNull();
    expect(f.get(ids.pinned!)!.stale).toBeNull();
  });

  it('recall ranks a stale memory lower and shows the flag and why; retrieving it lifts the flag', async () => {
    // Retrieved since it was flagged: the next pass lifts the flag of `twin` only.
    await services.executor.write('test', `MATCH (m:Memory {id: $id}) SET m.lastAccessed = $at`, {
      id: ids.twin,
      at: new Date(Date.now() + 40 * DAY).toISOString(),
    });
    await services.sessionUpkeep.decay([ns], new Date(Date.now() + 41 * DAY));
    const f = await flags();
    expect(f.get(ids.twin!)!.stale).toBeNull();
    expect(f.get(ids.fact!)).toMatchObject({ stale: true, reason: 'unretrieved' });

    const items = (
      await gql.data<{ recall: { items: any[] } }>(RECALL, { q: 'where does the payments service store tokens in the vault cluster', ns })
    ).recall.items;
    const fact = items.find((i) => i.memory.id === ids.fact)!;
    const twin = items.find((i) => i.memory.id === ids.twin)!;
    expect(fact.memory).toMatchObject({ stale: true, staleReason: 'unretrieved' });
    expect(fact.memory.staleAt).toBeTruthy();
    expect(fact.explain).toMatchObject({ stale: 0.8, staleReason: 'unretrieved' });
    expect(twin.explain).toMatchObject({ stale: 1, staleReason: null });
    // Near twins: the stale one ranks below the one that is not.
    expect(items.indexOf(twin)).toBeLessThan(items.indexOf(fact));

    const meeting = (
      await gql.data<{ recall: { items: any[] } }>(RECALL, { q: 'budget review meeting with finance', ns })
    ).recall.items.find((i) => i.memory.id === ids.meeting)!;
    expect(meeting.memory).toMatchObject({ stale: true, staleReason: 'expired' });
    expect(meeting.explain).toMatchObject({ stale: 1, staleReason: 'expired' });
    // Expired: not lowered twice; the validity factor is an option, off by default (docs/recall-quality.md).
    expect(meeting.explain.validity).toBe(1);
  });
});
