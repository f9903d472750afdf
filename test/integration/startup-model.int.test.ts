import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMBEDDING_MODEL } from '../../src/config/defaults.js';
import { MAIN_ARGS, spawnProcess, spawnReplica } from '../support/processes.js';
import { TEST_NEO4J_ENV } from '../support/test-neo4j.js';

/** No EMBEDDING_MODEL is set: the service loads the default, e5-small-v2, which ships in 8 bits only. */
const MODEL = DEFAULT_EMBEDDING_MODEL;
const MODEL_FILE = 'onnx/model_quantized.onnx';

/** `npm start`'s entry point in a child process; resolves with its exit code and stderr. */
async function start(modelDir: string): Promise<{ code: number | null; stderr: string }> {
  const main = spawnProcess({
    name: 'main',
    args: MAIN_ARGS,
    env: {
      ...TEST_NEO4J_ENV,
      EMBEDDING_MODEL_DIR: modelDir,
      PORT: '0',
      WORKER_ENABLED: 'false',
      LOG_LEVEL: 'silent',
    },
  });
  const timer = setTimeout(() => main.child.kill('SIGKILL'), 90_000);
  try {
    return { code: await main.exited, stderr: main.stderr() };
  } finally {
    clearTimeout(timer);
  }
}

describe('start-up when the embedding model cannot load', () => {
  const root = mkdtempSync(join(tmpdir(), 'mnemograph-model-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('exits non-zero with one line naming the missing model file when the folder is empty', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const { code, stderr } = await start(empty);
    expect(code).not.toBe(0);
    const lines = stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('mnemograph'));
    expect(lines).toHaveLength(1);
    expect(MODEL).toBe('Xenova/e5-small-v2');
    expect(lines[0]).toBe(
      `mnemograph failed to start: [UNAVAILABLE] embedding model not found at ${join(empty, MODEL, MODEL_FILE)}; run npm run model:provision`,
    );
  }, 120_000);

  it('exits non-zero with one line naming the model and its folder when the files are corrupt', async () => {
    const corrupt = join(root, 'corrupt');
    mkdirSync(join(corrupt, MODEL, 'onnx'), { recursive: true });
    writeFileSync(join(corrupt, MODEL, MODEL_FILE), 'not an onnx graph');
    writeFileSync(join(corrupt, MODEL, 'config.json'), '{');
    writeFileSync(join(corrupt, MODEL, 'tokenizer.json'), 'garbage');
    const { code, stderr } = await start(corrupt);
    expect(code).not.toBe(0);
    const lines = stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('mnemograph'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`[UNAVAILABLE] embedding model ${MODEL} failed to load from ${corrupt}`);
    expect(lines[0]!.length).toBeLessThan(700);
  }, 120_000);
});

describe('start-up with no EMBEDDING_MODEL set', () => {
  it('loads the default model, e5-small-v2 in 8 bits, and reports it in the readiness report', async () => {
    const replica = spawnReplica({
      name: 'default-model',
      port: 48020,
      neo4jUri: TEST_NEO4J_ENV.NEO4J_URI,
      neo4jPassword: TEST_NEO4J_ENV.NEO4J_PASSWORD,
      // Empty is unset: the variable of the environment the tests run in is not inherited.
      env: { EMBEDDING_MODEL: '' },
    });
    try {
      const { body } = await replica.waitReady(180_000);
      expect(body).toMatchObject({ ok: true, embedding: { loaded: true, model: 'Xenova/e5-small-v2:quantized', dimensions: 384 } });
    } finally {
      await replica.stop();
    }
  }, 240_000);
});
