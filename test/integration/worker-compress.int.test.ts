import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlClient } from '../support/graphql.js';
import { extraction, query, scriptStages, startDeepPath, type DeepPathRig } from '../support/deep-path.js';
import { uniqueNamespace } from '../support/services.js';

const TIMEOUT = 120_000;
type Client = Awaited<ReturnType<typeof graphqlClient>>;

const SESSIONS: Record<string, { at: string; turns: string[] }> = {
  s1: {
    at: '2024-01-10T10:00:00Z',
    turns: [
      'Ines: I booked the venue in Porto for the offsite.',
      'Rui: Great, the budget for it is 4000 euros.',
      'Ines: The offsite runs from 12 to 14 March.',
    ],
  },
  s2: {
    at: '2024-02-02T09:00:00Z',
    turns: ['Rui: The new laptop order went to the supplier today.', 'Ines: Ask them for the 32 GB models, not 16 GB.'],
  },
  s3: {
    at: '2026-11-20T09:00:00Z',
    turns: ['Rui: Standup moves to 9:45 from next week.', 'Ines: Noted, I will update the calendar invite.'],
  },
  s4: { at: '2024-01-05T09:00:00Z', turns: ['Rui: Lunch?'] },
};
const SUMMARY = {
  s1: 'Ines booked a Porto venue for the 12-14 March offsite; Rui set its budget at 4000 euros.',
  s2: 'Rui ordered new laptops; Ines asked for the 32 GB models instead of 16 GB.',
};

const COMPRESS = `mutation ($ns: String, $before: DateTime!, $min: Int) { compressSessions(namespace: $ns, olderThan: $before, minSessions: $min) { sessions jobs { id kind status } } }`;

describe('compression: old episodic sessions summarized into semantic memories', () => {
  let rig: DeepPathRig;
  let client: Client;
  const namespace = uniqueNamespace('compress');
  const ids: Record<string, string[]> = {};

  beforeAll(async () => {
    rig = await startDeepPath(namespace);
    client = await graphqlClient(rig.services);
    for (const [sessionId, session] of Object.entries(SESSIONS)) {
      const outcomes = await rig.services.remember.rememberBatch(
        session.turns.map((content, i) => ({
          content,
          namespace,
          sessionId,
          type: 'episodic',
          occurredAt: new Date(Date.parse(session.at) + i * 60_000).toISOString(),
        })),
      );
      ids[sessionId] = outcomes.map((o) => o.result!.memory.id);
    }
  }, TIMEOUT);
  afterAll(async () => {
    await client?.stop();
    await rig?.close();
  }, TIMEOUT);

  it(
    'queues nothing below minSessions; then summarizes s1 and s2, links the sources, and leaves recent and one-turn sessions alone',
    async () => {
      const { services, fake, worker } = rig;
      const none = await client.data<{ compressSessions: { sessions: number } }>(COMPRESS, {
        ns: namespace,
        before: '2025-01-01T00:00:00Z',
        min: 3,
      });
      expect(none.compressSessions.sessions).toBe(0);

      const queued = await client.data<{ compressSessions: { sessions: number; jobs: Array<{ kind: string; status: string }> } }>(
        COMPRESS,
        { ns: namespace, before: '2025-01-01T00:00:00Z', min: 2 },
      );
      expect(queued.compressSessions.sessions).toBe(2);
      expect(queued.compressSessions.jobs.map((j) => `${j.kind}:${j.status}`)).toEqual(['compress:pending', 'compress:pending']);
      // Asking again while they are open queues nothing more.
      expect(
        (await client.data<{ compressSessions: { sessions: number } }>(COMPRESS, { ns: namespace, before: '2025-01-01T00:00:00Z', min: 1 }))
          .compressSessions.sessions,
      ).toBe(0);

      scriptStages(fake, {
        extract: () => extraction([]),
        compress: (r) => JSON.stringify({ summary: r.prompt.includes('Porto') ? SUMMARY.s1 : SUMMARY.s2 }),
      });
      worker.start();
      const deadline = Date.now() + 90_000;
      let jobs: Array<{ status: string; result: string | null }> = [];
      while (Date.now() < deadline) {
        jobs = await query<{ status: string; result: string | null }>(
          services,
          `MATCH (j:Job {kind: 'compress', namespace: $namespace}) RETURN j.status AS status, j.result AS result`,
          { namespace },
        );
        if (jobs.every((j) => j.status === 'completed' || j.status === 'dead')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(jobs.map((j) => j.status)).toEqual(['completed', 'completed']);
      await worker.stop();

      for (const sessionId of ['s1', 's2'] as const) {
        const [summary] = await query<{ id: string; content: string; type: string; sources: string[] }>(
          services,
          `MATCH (s:Memory {namespace: $namespace, content: $content})-[:SUMMARIZES]->(m:Memory) RETURN s.id AS id, s.content AS content, s.type AS type, collect(m.id) AS sources`,
          { namespace, content: SUMMARY[sessionId] },
        );
        expect(summary!.type).toBe('semantic');
        expect([...summary!.sources].sort()).toEqual([...ids[sessionId]!].sort());
        const compressed = await query<{ compressedInto: string }>(
          services,
          `MATCH (m:Memory) WHERE m.id IN $ids AND m.compressedAt IS NOT NULL RETURN m.compressedInto AS compressedInto`,
          { ids: ids[sessionId] },
        );
        expect(compressed.map((c) => c.compressedInto)).toEqual(ids[sessionId]!.map(() => summary!.id));
        const [event] = await query<{ outcome: string }>(
          services,
          `MATCH (h:HistoryEvent {event: 'pipeline.compress'})-[:ABOUT]->(:Memory {id: $id}) RETURN h.outcome AS outcome`,
          { id: summary!.id },
        );
        expect(event!.outcome).toBe('compressed');
      }
      const untouched = await query<{ n: number }>(
        services,
        `MATCH (m:Memory) WHERE m.id IN $ids AND m.compressedAt IS NULL RETURN count(m) AS n`,
        { ids: [...ids.s3!, ...ids.s4!] },
      );
      expect(Number(untouched[0]!.n)).toBe(3);

      // A compressed memory stays readable by id.
      const one = await client.data<{ memory: { content: string } | null }>(`query ($id: ID!) { memory(id: $id) { content } }`, {
        id: ids.s1![0],
      });
      expect(one.memory?.content).toBe(SESSIONS.s1!.turns[0]);
    },
    TIMEOUT,
  );
});
