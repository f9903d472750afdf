import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEmbedder } from './index.js';
import type { LocalEmbedder } from './embedder.js';
import { BGE_MODEL_NAME, E5_V2_MODEL_NAME, profileFor } from './model-profiles.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL_DIR = path.resolve(process.env.EMBEDDING_MODEL_DIR || path.join(REPO_ROOT, '.models'));
const LOAD_TIMEOUT_MS = 60 * 1000;

/**
 * Written by `npm run model:provision` (scripts/provision_jar_model.py): onnxruntime in Python on
 * the same ONNX file, token ids from the `tokenizers` package, each text alone, pooled and
 * prefixed as the model card says.
 */
interface ReferenceVectors {
  pooling: string;
  queryPrefix: string;
  passagePrefix: string;
  minCosine: number;
  texts: Array<{ text: string; truncated: boolean; query: number[]; passage: number[] }>;
}

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, x, i) => sum + x * b[i]!, 0);

function modelFolder(modelName: string): string {
  const folder = path.join(MODEL_DIR, modelName);
  if (!fs.existsSync(path.join(folder, 'reference-vectors.json'))) {
    throw new Error(`${modelName} missing at ${folder}: run npm run model:provision (or set EMBEDDING_MODEL_DIR)`);
  }
  return folder;
}

// A question, the turn that answers it, and turns about something else, as the benchmarks store them.
const RETRIEVAL = [
  {
    question: 'Where did Caroline go on 7 May 2023?',
    answer: 'Caroline: I went to the LGBTQ support group yesterday and it was so powerful.',
  },
  {
    question: 'Which database did we pick for billing?',
    answer: 'We picked Postgres for the billing service because it needs transactions.',
  },
  {
    question: 'What did Melanie paint last week?',
    answer: 'Melanie: I painted a lake at sunrise last week, it is for my kids’ room!',
  },
];

describe.each([
  { name: E5_V2_MODEL_NAME, pooling: 'mean' },
  { name: BGE_MODEL_NAME, pooling: 'cls' },
])('Embedder with $name (8 bits only, from Maven Central)', ({ name, pooling }) => {
  let embedder: LocalEmbedder;
  const reference = (): ReferenceVectors => JSON.parse(fs.readFileSync(path.join(modelFolder(name), 'reference-vectors.json'), 'utf8'));

  beforeAll(async () => {
    modelFolder(name);
    // Asked for the float model: a model that ships in 8 bits reads its 8-bit file anyway.
    embedder = createEmbedder({ modelName: name, modelDir: MODEL_DIR, quantized: false, batchSize: 8 });
    await embedder.load();
  }, LOAD_TIMEOUT_MS);
  afterAll(async () => {
    await embedder.dispose();
  });

  it('reads the 8-bit model under its own id, 384 dimensions, pooled as the model card says', () => {
    expect(embedder.quantized).toBe(true);
    expect(embedder.modelId).toBe(`${name}:quantized`);
    expect(embedder.dimensions).toBe(384);
    expect(profileFor(name).pooling).toBe(pooling);
    expect(reference().pooling).toBe(pooling);
    // The bert-base-uncased vocabulary, as MiniLM's.
    expect(embedder.countTokens('This is an example sentence')).toBe(5);
  });

  it('matches onnxruntime in Python as query and as passage, a text past the window included', async () => {
    const { minCosine, texts } = reference();
    expect(texts.some((t) => t.truncated)).toBe(true);
    const queries = await embedder.embed(
      texts.map((t) => t.text),
      'query',
    );
    const passages = await embedder.embed(texts.map((t) => t.text));
    texts.forEach((t, i) => {
      expect(cosine(queries[i]!, t.query), `query: ${t.text.slice(0, 40)}`).toBeGreaterThanOrEqual(minCosine);
      expect(cosine(passages[i]!, t.passage), `passage: ${t.text.slice(0, 40)}`).toBeGreaterThanOrEqual(minCosine);
      // The prefix matters: the same text embedded as the other purpose is measurably elsewhere
      // (past the window, 500 tokens of text drown a prefix).
      if (!t.truncated) expect(cosine(queries[i]!, t.passage)).toBeLessThan(minCosine);
    });
  });

  it('finds the turn that answers a question nearer than the other turns', async () => {
    const questions = await embedder.embed(
      RETRIEVAL.map((r) => r.question),
      'query',
    );
    const answers = await embedder.embed(RETRIEVAL.map((r) => r.answer));
    questions.forEach((question, i) => {
      const scores = answers.map((answer) => cosine(question, answer));
      const others = scores.filter((_, j) => j !== i);
      expect(scores[i]!, RETRIEVAL[i]!.question).toBeGreaterThan(Math.max(...others));
    });
  });

  it('embeds every text alone, so its vector does not depend on its batch company', async () => {
    const texts = ['Ok.', 'Deploys go through CI after code review, never straight from a laptop.', 'Bob prefers tea.'];
    const together = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      expect(Array.from(together[i]!)).toEqual(Array.from(await embedder.embedOne(text)));
    }
  });
});
