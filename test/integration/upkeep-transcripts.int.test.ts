import { describe, expect, integrationTest } from '../support/fixture.js';
import { uniqueNamespace } from '../support/services.js';

const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) { memory { id sessionId } } }`;
const RECALL = `query($q: String!, $ns: String, $expand: Boolean) { recall(query: $q, namespace: $ns, expand: $expand) {
  items { memory { content sessionId } } transcripts { sessionId namespace content bytes } } }`;

const ns = uniqueNamespace('tr');
const other = uniqueNamespace('tr-other');
const it = integrationTest({ sharedNamespaces: [ns, other] });

describe('lossless session transcripts', () => {
  it('stores one transcript per session (the first wins, redacted), refuses one without a session, and recall(expand) returns those of its sessions only', async ({
    services,
    graphql: gql,
  }) => {
    const first =
      'user: our staging database password is hunter2-Staging-9 and AWS key AKIAIOSFODNN7EXAMPLE\nassistant: noted, the Grafana alert fires at 80% disk.';
    await gql.data(REMEMBER, {
      i: { namespace: ns, sessionId: 'sess-1', content: 'The Grafana disk alert fires at 80 percent usage.', transcript: first },
    });
    await gql.data(REMEMBER, {
      i: {
        namespace: ns,
        sessionId: 'sess-1',
        content: 'Grafana alerts go to the ops channel.',
        transcript: 'a later, different transcript',
      },
    });
    await gql.data(REMEMBER, { i: { namespace: ns, sessionId: 'sess-2', content: 'The invoice exporter runs every Monday.' } });
    // Same session id in another namespace: its own transcript, never returned to this one.
    await gql.data(REMEMBER, {
      i: {
        namespace: other,
        sessionId: 'sess-1',
        content: 'The Grafana disk alert fires at 90 percent.',
        transcript: 'other tenant transcript',
      },
    });

    const refused = await gql.exec(REMEMBER, {
      i: { namespace: ns, content: 'No session for this one.', transcript: 'orphan transcript' },
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // A batch answers per item: the one carrying a transcript is refused at its index, the other stored.
    const batch = await gql.exec(
      `mutation($i: [RememberInput!]!) { rememberBatch(inputs: $i) { index error { code } result { memory { id } } } }`,
      {
        i: [
          { namespace: ns, sessionId: 'sess-3', content: 'x y z', transcript: 't' },
          { namespace: ns, sessionId: 'sess-3', content: 'The batch neighbour is kept.' },
        ],
      },
    );
    expect(batch.errors).toBeUndefined();
    expect((batch.data as any).rememberBatch.map((i: any) => [i.index, i.error?.code ?? null, i.result ? 'stored' : null])).toEqual([
      [0, 'BAD_USER_INPUT', null],
      [1, null, 'stored'],
    ]);
    const stored = await services.executor.read<{ n: number }>(
      'test.count',
      `MATCH (m:Memory {namespace: $ns}) WHERE m.content STARTS WITH 'No session' OR m.content = 'x y z' RETURN count(m) AS n`,
      { ns },
    );
    expect(Number(stored[0]!.n)).toBe(0); // nothing written for the refused call and item

    const transcripts = await services.executor.read<{ sessionId: string; content: string }>(
      'test.transcripts',
      `MATCH (t:Transcript {namespace: $ns}) RETURN t.sessionId AS sessionId, t.content AS content ORDER BY sessionId`,
      { ns },
    );
    expect(transcripts.map((t) => t.sessionId)).toEqual(['sess-1']);
    expect(transcripts[0]!.content).toContain('the Grafana alert fires at 80% disk');
    expect(transcripts[0]!.content).not.toContain('hunter2-Staging-9');
    expect(transcripts[0]!.content).not.toContain('AKIAIOSFODNN7EXAMPLE');

    const plain = await gql.data<{ recall: { transcripts: unknown } }>(RECALL, { q: 'When does the Grafana disk alert fire?', ns });
    expect(plain.recall.transcripts).toBeNull();
    const expanded = await gql.data<{
      recall: {
        items: Array<{ memory: { sessionId: string } }>;
        transcripts: Array<{ sessionId: string; namespace: string; content: string; bytes: number }>;
      };
    }>(RECALL, { q: 'When does the Grafana disk alert fire?', ns, expand: true });
    expect(expanded.recall.items.some((i) => i.memory.sessionId === 'sess-1')).toBe(true);
    expect(expanded.recall.transcripts).toHaveLength(1);
    expect(expanded.recall.transcripts[0]).toMatchObject({ sessionId: 'sess-1', namespace: ns });
    expect(expanded.recall.transcripts[0]!.content).toBe(transcripts[0]!.content);
    expect(expanded.recall.transcripts[0]!.bytes).toBe(Buffer.byteLength(transcripts[0]!.content));
  }, 300_000);
});
