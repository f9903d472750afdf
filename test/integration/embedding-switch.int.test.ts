import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { createEmbedder, type Embedder } from '../../src/embedding/index.js';
import { E5_MODEL_NAME, MINILM_MODEL_NAME } from '../../src/embedding/model-profiles.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

// A store switched from MiniLM (named: the former default, which stores written before hold) to
// multilingual-e5-small and back: the embedding tracker re-embeds every
// chunk under the configured model, and recall then answers as it does on a store ingested fresh with
// that model. Skips only where e5 is not provisioned (npm run model:provision builds both; CI does).
const MODEL_DIR = process.env.EMBEDDING_MODEL_DIR ?? new URL('../../.models', import.meta.url).pathname;
const provisioned = fs.existsSync(path.join(MODEL_DIR, E5_MODEL_NAME, 'onnx', 'model.onnx'));

const CONTENTS = [
  'The billing service retries failed card payments three times before giving up.',
  'Our staging cluster runs on three machines in Falkenstein.',
  'Release notes are written by the on-call engineer every Friday afternoon.',
  'Mi hermana trabaja como enfermera en un hospital de Valencia.',
  'Die Datenbank wird jede Nacht um zwei Uhr gesichert.',
  'The design review for the new search page is on Tuesday.',
];
const QUERIES = [
  'how often are card payments retried?',
  'when do the backups run?',
  'who writes the release notes?',
  'where does my sister work?',
];

describe.skipIf(!provisioned)(`switching the embedding model between MiniLM and ${E5_MODEL_NAME} (skipped when not provisioned)`, () => {
  const switched = uniqueNamespace('switch');
  const freshE5 = uniqueNamespace('fresh-e5');
  const freshMiniLM = uniqueNamespace('fresh-minilm');
  let e5: Embedder;
  let miniLM: Embedder;
  const opened: Services[] = [];
  const services = (embedder: Embedder) => {
    const s = testServices({ WORKER_NAMESPACES: switched, EMBEDDING_TRACKER_BATCH_SIZE: '4' }, { embedder });
    opened.push(s);
    return s;
  };
  // The vector leg alone: what a re-embedding changes. The fused score also moves with the full-text
  // index's statistics, which other namespaces written meanwhile (other test files) shift.
  const ranked = async (s: Services, namespace: string, query: string) => {
    const { items } = await s.recall.recall({ query, namespace, limit: 6, tokenBudget: null, trackAccess: false, recipe: 'vectorOnly' });
    return items.map((i) => ({ content: i.memory.content, score: Number(i.score.toFixed(3)) }));
  };
  const models = (s: Services) =>
    s.executor.read<{ model: string }>(
      'test.chunkModels',
      'MATCH (m:Memory {namespace: $ns})-[:HAS_CHUNK]->(c:Chunk) RETURN DISTINCT c.embeddingModel AS model',
      { ns: switched },
    );

  beforeAll(async () => {
    e5 = createEmbedder({ modelName: E5_MODEL_NAME, modelDir: MODEL_DIR });
    miniLM = createEmbedder({ modelName: MINILM_MODEL_NAME, modelDir: MODEL_DIR });
    await Promise.all([e5.load(), miniLM.load()]);
  });
  afterAll(async () => {
    const any = opened[0];
    if (any) for (const ns of [switched, freshE5, freshMiniLM]) await cleanNamespace(any, ns);
    for (const s of opened) await closeServices(s);
    await Promise.all([e5.dispose(), miniLM.dispose()]);
  });

  it('re-embeds the store each way, and recall then equals a fresh ingest under the new model', async () => {
    const minilm = services(miniLM);
    await minilm.remember.rememberBatch(CONTENTS.map((content) => ({ content, namespace: switched })));
    await minilm.remember.rememberBatch(CONTENTS.map((content) => ({ content, namespace: freshMiniLM })));
    const before = await Promise.all(QUERIES.map((q) => ranked(minilm, switched, q)));

    const withE5 = services(e5);
    expect(await withE5.upkeep.tracker!.drain()).toBeGreaterThanOrEqual(CONTENTS.length);
    expect(await models(withE5)).toEqual([{ model: E5_MODEL_NAME }]);
    await withE5.remember.rememberBatch(CONTENTS.map((content) => ({ content, namespace: freshE5 })));
    const reembedded = await Promise.all(QUERIES.map((q) => ranked(withE5, switched, q)));
    expect(reembedded).toEqual(await Promise.all(QUERIES.map((q) => ranked(withE5, freshE5, q))));
    // The models differ: the scores moved (a tracker that re-stamped without re-embedding would not).
    expect(reembedded).not.toEqual(before);

    const back = services(miniLM);
    expect(await back.upkeep.tracker!.drain()).toBeGreaterThanOrEqual(CONTENTS.length);
    expect(await models(back)).toEqual([{ model: MINILM_MODEL_NAME }]);
    const after = await Promise.all(QUERIES.map((q) => ranked(back, switched, q)));
    expect(after).toEqual(before);
    expect(after).toEqual(await Promise.all(QUERIES.map((q) => ranked(back, freshMiniLM, q))));
  }, 300_000);
});
