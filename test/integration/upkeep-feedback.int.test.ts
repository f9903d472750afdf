import { describe, expect, integrationTest } from '../support/fixture.js';
import { uniqueNamespace } from '../support/services.js';

const FEEDBACK = `mutation($ns: String, $s: String!, $ids: [ID!]!) { aspectFeedback(namespace: $ns, sessionId: $s, memoryIds: $ids) {
  applied aspectsUpdated confirmations decayedAspects propagatedAttributes } }`;
const STATUS = `query($ns: String) { pipelineStatus(namespace: $ns) { feedback { aspectsUpdated ftsConfirmations decayedAspects propagatedAttributes } } }`;

const ns = uniqueNamespace('fb');
const other = uniqueNamespace('fb-other');
const it = integrationTest({ sharedNamespaces: [ns, other] });

describe('aspect feedback', () => {
  it('raises the weights of the aspects a session confirmed, once per session, and counts it for that namespace only', async ({
    services,
    graphql: gql,
  }) => {
    const { memory } = await services.remember.remember({
      content: 'We decided to use Kubernetes for the Apollo deployment.',
      namespace: ns,
    });
    const weights = async () =>
      services.executor.read<{ id: string; weight: number }>(
        'test.weights',
        `MATCH (:Memory {id: $id})<-[:FROM]-(:Attribute {status: 'active'})<-[:HAS_ATTRIBUTE]-(a:Aspect) RETURN DISTINCT a.id AS id, a.weight AS weight ORDER BY id`,
        { id: memory.id },
      );
    const before = await weights();
    expect(before.length).toBeGreaterThan(0); // the decision became a constraint under an aspect

    const first = (
      await gql.data<{ aspectFeedback: Record<string, unknown> }>(FEEDBACK, { ns, s: 'session-1', ids: [memory.id, 'not-a-memory'] })
    ).aspectFeedback;
    expect(first).toMatchObject({ applied: true, aspectsUpdated: before.length, confirmations: before.length });
    expect((await weights()).map((w) => w.weight)).toEqual(before.map((w) => Math.round((w.weight + 0.05) * 1e9) / 1e9));

    const again = (await gql.data<{ aspectFeedback: Record<string, unknown> }>(FEEDBACK, { ns, s: 'session-1', ids: [memory.id] }))
      .aspectFeedback;
    expect(again).toMatchObject({ applied: false, aspectsUpdated: 0 });
    expect((await weights()).map((w) => w.weight)).toEqual(before.map((w) => Math.round((w.weight + 0.05) * 1e9) / 1e9));

    // Another namespace cannot move this namespace's aspects with this namespace's memory ids.
    const foreign = (await gql.data<{ aspectFeedback: Record<string, unknown> }>(FEEDBACK, { ns: other, s: 'session-1', ids: [memory.id] }))
      .aspectFeedback;
    expect(foreign).toMatchObject({ applied: true, aspectsUpdated: 0 });

    const status = (await gql.data<{ pipelineStatus: { feedback: Record<string, number> } }>(STATUS, { ns })).pipelineStatus.feedback;
    expect(status).toMatchObject({ aspectsUpdated: before.length, ftsConfirmations: before.length, decayedAspects: 0 });
    expect(status.propagatedAttributes).toBeGreaterThanOrEqual(1);
    const otherStatus = (await gql.data<{ pipelineStatus: { feedback: Record<string, number> } }>(STATUS, { ns: other })).pipelineStatus
      .feedback;
    expect(otherStatus).toEqual({ aspectsUpdated: 0, ftsConfirmations: 0, decayedAspects: 0, propagatedAttributes: 0 });
  }, 300_000);
});
