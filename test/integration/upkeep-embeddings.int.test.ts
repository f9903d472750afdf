import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import type { Embedder } from '../../src/embedding/index.js';
import type { EmbedPurpose } from '../../src/embedding/model-profiles.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testEmbedder, testServices, uniqueNamespace } from '../support/services.js';

/** The same 384-dimension model under another name, counting the texts it embeds. */
function renamed(inner: Embedder, modelId: string): Embedder & { texts: number } {
  const wrapper = Object.create(inner) as Embedder & { texts: number };
  Object.defineProperty(wrapper, 'modelId', { value: modelId });
  wrapper.texts = 0;
  // The purpose goes through: a model with prefixes (the default, e5-small-v2) embeds a question unlike a stored text.
  wrapper.embed = async (texts: readonly string[], purpose?: EmbedPurpose) => {
    wrapper.texts += texts.length;
    return inner.embed(texts, purpose);
  };
  return wrapper;
}

const RENAMED = 'default-model-renamed';

const CONTENTS = [
  'The billing service retries failed card payments three times before giving up.',
  'Our staging cluster runs on three Hetzner machines in Falkenstein.',
  'Release notes are written by the on-call engineer every Friday afternoon.',
];

describe('the embedding tracker re-embeds after a model change', () => {
  let before: Services;
  const ns = uniqueNamespace('emb');

  beforeAll(async () => {
    before = testServices({ WORKER_NAMESPACES: ns });
    for (const content of CONTENTS) await before.remember.remember({ content, namespace: ns });
  });

  afterAll(async () => {
    await cleanNamespace(before, ns);
    await closeServices(before);
  });

  it('stamps new chunks with the model and their hash, re-embeds every chunk under a new model name, and recall keeps working', async () => {
    const chunks = () =>
      before.executor.read<{
        id: string;
        model: string | null;
        embeddedHash: string | null;
        contentHash: string;
        memoryModel: string;
        at: string | null;
      }>(
        'test.chunks',
        `MATCH (m:Memory {namespace: $ns})-[:HAS_CHUNK]->(c:Chunk)
         RETURN c.id AS id, c.embeddingModel AS model, c.embeddedHash AS embeddedHash, c.contentHash AS contentHash, m.embeddingModel AS memoryModel, c.embeddedAt AS at`,
        { ns },
      );
    const original = await chunks();
    expect(original.length).toBeGreaterThanOrEqual(CONTENTS.length);
    for (const c of original) expect([c.model, c.embeddedHash]).toEqual([testEmbedder().modelId, c.contentHash]);

    // Nothing is stale under the model that wrote them.
    expect(await before.upkeep.tracker!.drain()).toBe(0);

    const embedder = renamed(testEmbedder(), RENAMED);
    const after = testServices({ WORKER_NAMESPACES: ns, EMBEDDING_TRACKER_BATCH_SIZE: '2' }, { embedder });
    try {
      const gql = await graphqlClient(after);
      // A half-done switch: recall answers from the vectors both models made.
      await after.upkeep.tracker!.cycle();
      const mid = await gql.data<{ recall: { items: Array<{ memory: { content: string } }> } }>(
        `query($ns: String) { recall(query: "how often are card payments retried?", namespace: $ns) { items { memory { content } } } }`,
        { ns },
      );
      expect(mid.recall.items[0]?.memory.content).toContain('card payments');

      await after.upkeep.tracker!.drain();
      const switched = await chunks();
      expect(switched.map((c) => c.model)).toEqual(original.map(() => RENAMED));
      for (const c of switched) expect([c.embeddedHash, c.memoryModel, c.at !== null]).toEqual([c.contentHash, RENAMED, true]);
      expect(embedder.texts).toBe(original.length + 1); // every chunk once, plus the recall query above

      const status = await gql.data<{ pipelineStatus: { embeddings: { model: string; processed: number; queueDepth: number } } }>(
        `query($ns: String) { pipelineStatus(namespace: $ns) { embeddings { model processed queueDepth } } }`,
        { ns },
      );
      expect(status.pipelineStatus.embeddings).toEqual({ model: RENAMED, processed: original.length, queueDepth: 0 });
      const recalled = await gql.data<{ recall: { items: Array<{ memory: { content: string } }> } }>(
        `query($ns: String) { recall(query: "where does the staging cluster run?", namespace: $ns) { items { memory { content } } } }`,
        { ns },
      );
      expect(recalled.recall.items[0]?.memory.content).toContain('Falkenstein');
      await gql.stop();
    } finally {
      await closeServices(after);
    }
  }, 300_000);
});
