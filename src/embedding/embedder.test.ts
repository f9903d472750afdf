import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it, vi } from 'vitest';

import { createEmbedder, type Embedder } from './index.js';
import { DEFAULT_EMBEDDING_MODEL_NAME, EMBEDDING_DIMENSIONS } from './embedder.js';
import { E5_V2_MODEL_NAME, MINILM_MODEL_NAME } from './model-profiles.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL_DIR = path.resolve(process.env.EMBEDDING_MODEL_DIR || path.join(REPO_ROOT, '.models'));
const LOAD_TIMEOUT_MS = 60 * 1000;
// These tests check all-MiniLM-L6-v2 against its sentence-transformers and model-card vectors and
// its float model (batches), so they name it; the default, e5-small-v2, is checked in int8-embedders.test.ts.
const MINILM = { modelName: MINILM_MODEL_NAME, modelDir: MODEL_DIR };

// sentence-transformers output for the model card sentences (mean pooling + normalize).
const REFERENCE = [
  { text: 'This is an example sentence', head: [0.0677, 0.0635, 0.0487] },
  { text: 'Each sentence is converted', head: [0.0864, 0.1028, 0.0054] },
];
const FLOAT_TOLERANCE = 1e-3;
// Per-tensor activation quantization moves single components by up to ~0.02.
const QUANTIZED_TOLERANCE = 0.025;
// The transformers.js model card's figures (quantized model); the acceptance bound is 0.02.
const MODEL_CARD_QUANTIZED = [
  { text: 'This is an example sentence', head: [0.0459, 0.0733, 0.054] },
  { text: 'Each sentence is converted', head: [0.0819, 0.1076, -0.0132] },
];
const MODEL_CARD_TOLERANCE = 0.02;

function requireModel(quantized: boolean): void {
  const file = path.join(MODEL_DIR, MINILM_MODEL_NAME, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx');
  if (!fs.existsSync(file)) {
    throw new Error(`embedding model missing at ${file}: run npm run model:provision (or set EMBEDDING_MODEL_DIR)`);
  }
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i]!)));

describe('Embedder (MiniLM, float model)', () => {
  let embedder: Embedder;

  beforeAll(async () => {
    requireModel(false);
    embedder = createEmbedder(MINILM);
    expect(embedder.isLoaded()).toBe(false);
    await embedder.load();
  }, LOAD_TIMEOUT_MS);

  it('loads once and reports its identity', async () => {
    await Promise.all([embedder.load(), embedder.load()]);
    expect(embedder.isLoaded()).toBe(true);
    expect(embedder.dimensions).toBe(EMBEDDING_DIMENSIONS);
    expect(embedder.modelId).toBe('Xenova/all-MiniLM-L6-v2');
  });

  it('matches the sentence-transformers reference', async () => {
    const vectors = await embedder.embed(REFERENCE.map((r) => r.text));
    REFERENCE.forEach(({ head }, i) => {
      expect(maxAbsDiff(vectors[i]!.subarray(0, 3), head)).toBeLessThanOrEqual(FLOAT_TOLERANCE);
    });
  });

  it('returns 384-dimensional unit vectors', async () => {
    const [vector] = await embedder.embed(['Alice moved to Berlin in 2019.']);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector!.length).toBe(384);
    expect(Math.sqrt(dot(vector!, vector!))).toBeCloseTo(1, 5);
  });

  it('returns [] for no texts', async () => {
    expect(await embedder.embed([])).toEqual([]);
  });

  it('preserves order across batches, and a batch equals each text alone', async () => {
    const small = createEmbedder({ ...MINILM, batchSize: 3 });
    const texts = [
      'We picked Postgres for billing.',
      'The cat sleeps.',
      'Remember to water the plants every Tuesday before the weekly standup meeting.',
      'Bob prefers tea.',
      'Deploys go through CI after code review, never straight from a laptop.',
      'Ok.',
      'The meeting moved to Friday.',
    ];
    const batched = await small.embed(texts);
    expect(batched).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      expect(maxAbsDiff(batched[i]!, await embedder.embedOne(text))).toBeLessThan(1e-4);
    }
    await small.dispose();
  });

  it('puts similar sentences closer than unrelated ones', async () => {
    const [cat, feline, finance] = await embedder.embed([
      'The cat sat on the mat.',
      'A kitten was lying on the rug.',
      'Quarterly revenue grew by eight percent.',
    ]);
    expect(dot(cat!, feline!)).toBeGreaterThan(dot(cat!, finance!) + 0.2);
  });

  it('embeds texts longer than the model window (truncated)', async () => {
    const [vector] = await embedder.embed(['word '.repeat(2000)]);
    expect(vector!.length).toBe(384);
  });

  it('answers a question asked again from its cache, a copy each time; stored texts always go to the model', async () => {
    const model = vi.spyOn(embedder as unknown as { run: (texts: string[], purpose: string) => Promise<Float32Array[]> }, 'run');
    const [a, b, again] = await embedder.embed(['who runs billing?', 'where is staging?', 'who runs billing?'], 'query');
    expect(model.mock.calls.map((c) => c[0])).toEqual([['who runs billing?', 'where is staging?']]);
    expect(again).toEqual(a);
    expect(dot(a!, b!)).toBeLessThan(0.99);

    a!.fill(0);
    const [cached] = await embedder.embed(['who runs billing?'], 'query');
    expect(model).toHaveBeenCalledTimes(1);
    expect(cached).toEqual(again);

    await embedder.embed(['who runs billing?'], 'passage');
    await embedder.embed(['who runs billing?'], 'passage');
    expect(model).toHaveBeenCalledTimes(3);
    model.mockRestore();
  });

  it('counts word-piece tokens without special tokens', () => {
    expect(embedder.countTokens('')).toBe(0);
    expect(embedder.countTokens('This is an example sentence')).toBe(5);
    expect(embedder.countTokens('Tokenization splits unfamiliar words')).toBeGreaterThan(4);
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(100);
    expect(embedder.countTokens(long)).toBe(1000);
  });
});

describe('Embedder (MiniLM, quantized model)', () => {
  it(
    'matches the reference within quantization error',
    async () => {
      requireModel(true);
      const embedder = createEmbedder({ ...MINILM, quantized: true });
      expect(embedder.modelId).toBe('Xenova/all-MiniLM-L6-v2:quantized');
      for (const { text, head } of REFERENCE) {
        const vector = await embedder.embedOne(text);
        expect(maxAbsDiff(vector.subarray(0, 3), head)).toBeLessThanOrEqual(QUANTIZED_TOLERANCE);
      }
      for (const { text, head } of MODEL_CARD_QUANTIZED) {
        const vector = await embedder.embedOne(text);
        expect(maxAbsDiff(vector.subarray(0, 3), head)).toBeLessThanOrEqual(MODEL_CARD_TOLERANCE);
      }
      await embedder.dispose();
    },
    LOAD_TIMEOUT_MS,
  );

  it(
    'embeds every text alone, so its vector does not depend on its batch company',
    async () => {
      requireModel(true);
      const embedder = createEmbedder({ ...MINILM, quantized: true, batchSize: 8 });
      const texts = ['Ok.', 'Deploys go through CI after code review, never straight from a laptop.', 'Bob prefers tea.'];
      const together = await embedder.embed(texts);
      for (const [i, text] of texts.entries()) {
        expect(Array.from(together[i]!)).toEqual(Array.from(await embedder.embedOne(text)));
      }
      await embedder.dispose();
    },
    LOAD_TIMEOUT_MS,
  );
});

describe('Embedder thread', () => {
  const longTexts = Array.from(
    { length: 32 },
    (_, i) => `Note ${i}: ${'the deploy pipeline runs the integration suite before release. '.repeat(20)}`,
  );

  it(
    'keeps the event loop free while a batch runs',
    async () => {
      requireModel(false);
      const embedder = createEmbedder(MINILM);
      await embedder.load();
      let last = performance.now();
      let longestGapMs = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longestGapMs = Math.max(longestGapMs, now - last);
        last = now;
      }, 2);
      const started = performance.now();
      await embedder.embed(longTexts);
      const tookMs = performance.now() - started;
      clearInterval(timer);
      await embedder.dispose();
      // One padded batch of 32 × 256 tokens; run on the main thread, it would block for all of it.
      expect(longestGapMs).toBeLessThan(tookMs / 2);
    },
    LOAD_TIMEOUT_MS,
  );

  it(
    'rejects calls after dispose, and loads again on the next load()',
    async () => {
      requireModel(false);
      const embedder = createEmbedder(MINILM);
      const before = await embedder.embedOne('Bob prefers tea.');
      const rejected = expect(embedder.embed(longTexts)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      await embedder.dispose();
      await rejected;
      expect(embedder.isLoaded()).toBe(false);
      expect(Array.from(await embedder.embedOne('Bob prefers tea.'))).toEqual(Array.from(before));
      expect(embedder.isLoaded()).toBe(true);
      await embedder.dispose();
    },
    LOAD_TIMEOUT_MS,
  );
});

describe('Embedder default', () => {
  it('is e5-small-v2, read in 8 bits', () => {
    const embedder = createEmbedder({ modelDir: MODEL_DIR });
    expect(DEFAULT_EMBEDDING_MODEL_NAME).toBe(E5_V2_MODEL_NAME);
    expect(embedder.modelName).toBe('Xenova/e5-small-v2');
    expect(embedder.modelId).toBe('Xenova/e5-small-v2:quantized');
    expect(embedder.profile.queryPrefix).toBe('query: ');
  });
});

describe('Embedder without a model', () => {
  it('fails with a message saying how to provision', async () => {
    const embedder = createEmbedder({ modelDir: path.join(REPO_ROOT, 'no-such-models-dir') });
    await expect(embedder.load()).rejects.toThrow(/npm run model:provision/);
    expect(() => embedder.countTokens('x')).toThrow(/load\(\)/);
  });
});
