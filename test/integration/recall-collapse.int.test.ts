import type { Services } from '../../src/app.js';
import { beforeEach, describe, expect, integrationTest } from '../support/fixture.js';
import { uniqueNamespace } from '../support/services.js';

// Recall shows one member of an open near-duplicate group, and leaves compressed memories out
// unless asked for them.
const namespace = uniqueNamespace('collapse');
const it = integrationTest({ env: { WORKER_ENABLED: 'false' }, sharedNamespaces: [namespace] });

describe('recall: near-duplicate groups and compressed memories', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));

  it('an open near-duplicate pair comes back as its best-ranked member only; a decided pair as both', async () => {
    const [a, b] = [
      'Our team deploys the billing service each Tuesday afternoon.',
      'Our team deploys the billing service each Tuesday afternoon - ok',
    ];
    const [va, vb] = await services.embedder.embed([a, b]);
    const cosine = va!.reduce((sum, x, i) => sum + x * vb![i]!, 0);
    // The premise: a near-duplicate, not a duplicate, by the model's own thresholds (e5-small-v2: 0.981 in [0.97, 0.99)).
    expect(cosine).toBeGreaterThanOrEqual(services.embedder.profile.nearDuplicateThreshold);
    expect(cosine).toBeLessThan(services.embedder.profile.duplicateThreshold);
    const first = await services.remember.remember({ content: a, namespace });
    const second = await services.remember.remember({ content: b, namespace });
    expect(second.dedup.action).toBe('NEAR_DUPLICATE');
    const other = await services.remember.remember({ content: 'The billing service dashboard lives in Grafana.', namespace });
    const ids = async () =>
      (await services.recall.recall({ query: 'when does the team deploy the billing service', namespace, trackAccess: false })).items.map(
        (i) => i.memory.id,
      );

    const collapsed = await ids();
    expect(collapsed).toContain(other.memory.id);
    expect(collapsed.filter((id) => id === first.memory.id || id === second.memory.id)).toHaveLength(1);

    // Once the deep path has reviewed the pair (keep both), both are shown.
    await services.executor.write('test.review', 'MATCH (:Memory {id: $id})-[d:DUPLICATE_OF]-() SET d.reviewedAt = datetime()', {
      id: second.memory.id,
    });
    expect(await ids()).toEqual(expect.arrayContaining([first.memory.id, second.memory.id]));
  });

  it('a compressed memory leaves default recall and comes back with includeCompressed', async () => {
    const turn = await services.remember.remember({ content: 'We picked the Lisbon office for the autumn offsite in October.', namespace });
    await services.executor.write('test.compress', 'MATCH (m:Memory {id: $id}) SET m.compressedAt = datetime()', { id: turn.memory.id });
    const query = 'where is the autumn offsite';
    const plain = await services.recall.recall({ query, namespace, trackAccess: false });
    expect(plain.items.map((i) => i.memory.id)).not.toContain(turn.memory.id);
    const all = await services.recall.recall({ query, namespace, trackAccess: false, filters: { includeCompressed: true } });
    expect(all.items.map((i) => i.memory.id)).toContain(turn.memory.id);
  });
});
