import type { BatchOutcome, TextEmbedder } from '../../src/write/index.js';
import { SPECULATION_SLICE } from '../../src/write/index.js';
import { describe, expect, it } from '../support/fixture.js';

// A batch larger than one slice embeds and searches each prepared slice while the next one is
// prepared (src/write/speculation.ts). These check that it changes the work, never the answer.

const TOPICS = ['billing', 'search', 'onboarding', 'payroll', 'analytics', 'mobile app', 'warehouse', 'support desk', 'data lake'];
const PEOPLE = ['Alice', 'Bruno', 'Chen', 'Dana', 'Emeka'];
const distinct = (n: number, tag: string) =>
  Array.from(
    { length: n },
    (_, i) => `${PEOPLE[i % 5]} owns the ${TOPICS[i % 9]} rollout ${tag}-${i}; the review is on day ${(i * 7) % 31} of sprint ${i}.`,
  );

const STORED = 'Our team deploys the billing service every Tuesday afternoon.';
const PARAPHRASE = 'Our team deploys the billing service each Tuesday afternoon.';
const TEA = ['Alice prefers green tea in the morning.', 'Alice prefers green tea in the morning, without sugar.'] as const;

function counting(inner: TextEmbedder, failFirst = false): TextEmbedder & { calls: number[] } {
  const calls: number[] = [];
  let failed = !failFirst;
  return {
    modelId: inner.modelId,
    calls,
    async embed(texts: string[]) {
      if (!failed) {
        failed = true;
        throw new Error('model thread restarted');
      }
      calls.push(texts.length);
      return inner.embed(texts);
    },
  };
}

const summary = (outcomes: BatchOutcome[]) =>
  outcomes.map((o) => ({ action: o.result!.dedup.action, similarity: o.result!.dedup.similarity, importance: o.result!.importance }));

describe('rememberBatch prepares, embeds and searches slices side by side', () => {
  it('decides every item of a batch of several slices as it decides them one by one', async ({ services, freshNamespace }) => {
    const batchNs = freshNamespace('spec-batch');
    const oneByOneNs = freshNamespace('spec-seq');
    const contents = distinct(SPECULATION_SLICE + 13, 'x');
    contents[5] = TEA[0];
    contents[SPECULATION_SLICE + 4] = TEA[1]; // a near-duplicate of an item in the first slice
    contents[SPECULATION_SLICE + 8] = PARAPHRASE; // a duplicate of what is stored before
    contents[SPECULATION_SLICE + 9] = contents[3]!; // an exact repeat inside the batch
    for (const ns of [batchNs, oneByOneNs]) await services.remember.remember({ content: STORED, namespace: ns });

    const batch = await services.remember.rememberBatch(contents.map((content) => ({ content, namespace: batchNs })));
    const sequential: BatchOutcome[] = [];
    for (const [index, content] of contents.entries())
      sequential.push({ index, result: await services.remember.remember({ content, namespace: oneByOneNs }) });

    expect(batch.every((o) => o.result)).toBe(true);
    expect(batch[SPECULATION_SLICE + 8]!.result!.dedup.action).toBe('DUPLICATE_SEMANTIC');
    expect(batch[SPECULATION_SLICE + 4]!.result!.dedup).toMatchObject({
      action: 'NEAR_DUPLICATE',
      existingId: batch[5]!.result!.memory.id,
    });
    expect(batch[SPECULATION_SLICE + 9]!.result!.memory.id).toBe(batch[3]!.result!.memory.id);
    const round = (rows: ReturnType<typeof summary>) =>
      rows.map((r) => ({ ...r, similarity: r.similarity === null ? null : Number(r.similarity.toFixed(3)) }));
    expect(round(summary(batch))).toEqual(round(summary(sequential)));
  });

  it('embeds each text once, in more than one call, and a retried batch not at all', async ({ services, namespace }) => {
    const contents = distinct(SPECULATION_SLICE + 8, 'once');
    const embedder = counting(services.embedder);
    const first = await services.remember.rememberBatch(
      contents.map((content) => ({ content, namespace })),
      { embedder },
    );
    expect(first.map((o) => o.result?.dedup.action)).toEqual(contents.map(() => 'STORED_NEW'));
    // The first slice went to the model before the second was prepared; no text went twice.
    expect(embedder.calls.length).toBeGreaterThanOrEqual(2);
    expect(embedder.calls.reduce((a, b) => a + b, 0)).toBe(contents.length);

    const retry = counting(services.embedder);
    const again = await services.remember.rememberBatch(
      contents.map((content) => ({ content, namespace })),
      { embedder: retry },
    );
    expect(again.map((o) => o.result?.dedup.action)).toEqual(contents.map(() => 'DUPLICATE_EXACT'));
    expect(again.map((o) => o.result!.memory.id)).toEqual(first.map((o) => o.result!.memory.id));
    expect(retry.calls.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('a failure of the work started early is recomputed, not the batch’s', async ({ services, namespace }) => {
    const contents = distinct(SPECULATION_SLICE + 3, 'fail');
    const embedder = counting(services.embedder, true);
    const outcomes = await services.remember.rememberBatch(
      contents.map((content) => ({ content, namespace })),
      { embedder },
    );
    expect(outcomes.map((o) => o.result?.dedup.action)).toEqual(contents.map(() => 'STORED_NEW'));
    // The first slice's model call failed; its texts were embedded again on the normal path.
    expect(embedder.calls.reduce((a, b) => a + b, 0)).toBe(contents.length);
  });
});
