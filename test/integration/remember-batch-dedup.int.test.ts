import type { BatchOutcome } from '../../src/write/index.js';
import { describe, expect, it } from '../support/fixture.js';

// Cosines with the default model (e5-small-v2; duplicate at 0.99, near-duplicate at 0.97): the
// paraphrase 0.995 (a duplicate), the tea pair 0.983 (a near-duplicate), the rest below 0.81.
const ORIGINAL = 'Our team deploys the billing service every Tuesday afternoon.';
const PARAPHRASE = 'Our team deploys the billing service on every Tuesday afternoon.';
const TEA = ['Alice prefers green tea in the morning.', 'Alice prefers hot green tea in the morning.'] as const;
const OTHER = 'Carol manages the Lisbon office budget.';

const MEMORIES = `MATCH (m:Memory {namespace: $namespace}) RETURN m.content AS content, coalesce(m.accessCount, 0) AS accessCount ORDER BY content`;
const NEAR_LINKS = `MATCH (a:Memory {namespace: $namespace})-[:DUPLICATE_OF]->(b:Memory) RETURN a.content AS from, b.content AS to`;

const summary = (outcomes: BatchOutcome[], ids: string[]) =>
  outcomes.map((o) => ({
    action: o.result!.dedup.action,
    // Which item of the batch the duplicate points at (ids differ between namespaces).
    existing: o.result!.dedup.existingId === null ? null : ids.indexOf(o.result!.dedup.existingId),
    importance: o.result!.importance,
  }));

describe('near-duplicates inside one rememberBatch', () => {
  it('the second of two near-identical items is the duplicate of the first, as when sent one by one', async ({
    services,
    freshNamespace,
  }) => {
    const batchNs = freshNamespace('batch-dedup');
    const oneByOneNs = freshNamespace('batch-dedup-seq');
    const contents = [ORIGINAL, TEA[0], PARAPHRASE, OTHER, TEA[1]];

    const batch = await services.remember.rememberBatch(contents.map((content) => ({ content, namespace: batchNs })));
    const sequential: BatchOutcome[] = [];
    for (const [index, content] of contents.entries())
      sequential.push({ index, result: await services.remember.remember({ content, namespace: oneByOneNs }) });

    const batchIds = batch.map((o) => o.result!.memory.id);
    expect(batch[2]!.result!.dedup).toMatchObject({ action: 'DUPLICATE_SEMANTIC', existingId: batchIds[0] });
    expect(batch[2]!.result!.dedup.similarity).toBeGreaterThanOrEqual(services.embedder.profile.duplicateThreshold);
    expect(batch[4]!.result!.dedup).toMatchObject({ action: 'NEAR_DUPLICATE', existingId: batchIds[1] });
    // The same actions, targets and importances (novelty counts the earlier items) as one by one.
    const seqIds = sequential.map((o) => o.result!.memory.id);
    expect(summary(batch, batchIds)).toEqual(summary(sequential, seqIds));

    const stored = await services.executor.read<{ content: string; accessCount: number }>('test.memories', MEMORIES, {
      namespace: batchNs,
    });
    expect(stored.map((m) => m.content)).toEqual([TEA[0], TEA[1], OTHER, ORIGINAL].sort());
    // The duplicate was a sighting of the first item, written in the same transaction.
    expect(stored.find((m) => m.content === ORIGINAL)!.accessCount).toBe(1);
    expect(await services.executor.read('test.links', NEAR_LINKS, { namespace: batchNs })).toEqual([{ from: TEA[1], to: TEA[0] }]);
  });

  it('items that only look alike to no one are all stored, and an exact repeat is still the first one', async ({ services, namespace }) => {
    const outcomes = await services.remember.rememberBatch(
      [ORIGINAL, OTHER, ORIGINAL, 'The Lisbon office closes in August.'].map((content) => ({ content, namespace })),
    );
    expect(outcomes.map((o) => o.result!.dedup.action)).toEqual(['STORED_NEW', 'STORED_NEW', 'DUPLICATE_EXACT', 'STORED_NEW']);
    expect(outcomes[2]!.result!.memory.id).toBe(outcomes[0]!.result!.memory.id);
    const stored = await services.executor.read<{ content: string }>('test.memories', MEMORIES, { namespace });
    expect(stored).toHaveLength(3);
  });
});
