import fs from 'node:fs';
import path from 'node:path';

import { env, pipeline, type FeatureExtractionPipeline } from '@xenova/transformers';

import { MnemographError } from '../errors.js';

export const DEFAULT_EMBEDDING_MODEL_NAME = 'Xenova/all-MiniLM-L6-v2';
export const EMBEDDING_DIMENSIONS = 384;
export const DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS = 32;
/** sentence-transformers' max_seq_length for all-MiniLM-L6-v2; longer inputs are truncated. */
export const MAX_SEQUENCE_TOKENS = 256;
/** Recently counted texts kept by countTokens; recall re-counts the same memories often. */
export const TOKEN_COUNT_CACHE_ENTRIES = 2_000;
/** Model-specific id suffix, so vectors from the 8-bit model are never mixed with float ones. */
const QUANTIZED_MODEL_ID_SUFFIX = ':quantized';

export interface EmbedderOptions {
  /** Model id in the transformers.js layout (`<owner>/<name>`). */
  modelName?: string;
  /** Local models root holding `<modelName>/`; when set, remote download is off. */
  modelDir?: string;
  /** Texts per model call. */
  batchSize?: number;
  /** Download cache for remote models (only used when `modelDir` is unset). */
  cacheDir?: string;
  /**
   * Use `onnx/model_quantized.onnx`. Off by default: the float model is exact and batch-invariant,
   * while the 8-bit one quantizes activations per batch, so a text's vector moves (cosine ~0.99)
   * with whatever else is in its batch, for only a modest speed-up.
   */
  quantized?: boolean;
  logger?: { info(obj: object, msg?: string): void };
}

/** The writable part of transformers.js' global `env` (its typings declare these as constants). */
interface TransformersEnv {
  localModelPath: string;
  allowLocalModels: boolean;
  allowRemoteModels: boolean;
  cacheDir: string;
}

interface Tokenizer {
  model_max_length: number;
  encode(text: string, textPair?: string | null, options?: { add_special_tokens?: boolean }): number[];
}

const EMBED_OPTIONS = { pooling: 'mean', normalize: true } as const;

/**
 * Sentence embeddings with all-MiniLM-L6-v2 through @xenova/transformers: mean pooled,
 * L2-normalized. Model calls run one at a time; onnxruntime already uses every core per call.
 */
export class Embedder {
  readonly modelName: string;
  /** Stored with every vector; changes whenever vectors would not be comparable. */
  readonly modelId: string;
  readonly batchSize: number;
  private readonly options: EmbedderOptions;
  private extractor: FeatureExtractionPipeline | undefined;
  private tokenizer: Tokenizer | undefined;
  private loading: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private dims = EMBEDDING_DIMENSIONS;
  private readonly tokenCounts = new Map<string, number>();

  constructor(options: EmbedderOptions = {}) {
    this.options = options;
    this.modelName = options.modelName ?? DEFAULT_EMBEDDING_MODEL_NAME;
    this.modelId = options.quantized ? `${this.modelName}${QUANTIZED_MODEL_ID_SUFFIX}` : this.modelName;
    this.batchSize = options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new RangeError(`batchSize must be a positive integer, got ${this.batchSize}`);
    }
  }

  /** Vector length; read from the model config once loaded. */
  get dimensions(): number {
    return this.dims;
  }

  isLoaded(): boolean {
    return this.extractor !== undefined;
  }

  /** Loads the model once; concurrent and later calls share the same promise. A failed load may be retried. */
  load(): Promise<void> {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /**
   * One unit vector per text, in input order. Texts are batched by length, because every text
   * of a batch is padded to the longest one: mixing lengths doubled the cost on chat turns.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    await this.load();
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const vectors = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const indices = order.slice(start, start + this.batchSize);
      const batch = await this.runBatch(indices.map((i) => texts[i]!));
      indices.forEach((textIndex, j) => (vectors[textIndex] = batch[j]!));
    }
    return vectors;
  }

  async embedOne(text: string): Promise<Float32Array> {
    const [vector] = await this.embed([text]);
    return vector!;
  }

  /** Word pieces in `text`, without [CLS]/[SEP]; synchronous, so the model must be loaded first. */
  countTokens(text: string): number {
    if (!this.tokenizer) throw new Error('Embedder.countTokens needs the model: await embedder.load() first');
    const cached = this.tokenCounts.get(text);
    if (cached !== undefined) return cached;
    const count = this.tokenizer.encode(text, null, { add_special_tokens: false }).length;
    // Map keeps insertion order: dropping the first key evicts the oldest entry.
    if (this.tokenCounts.size >= TOKEN_COUNT_CACHE_ENTRIES) this.tokenCounts.delete(this.tokenCounts.keys().next().value!);
    this.tokenCounts.set(text, count);
    return count;
  }

  async dispose(): Promise<void> {
    const extractor = this.extractor;
    this.extractor = undefined;
    this.tokenizer = undefined;
    this.loading = undefined;
    await extractor?.dispose();
  }

  private async doLoad(): Promise<void> {
    const started = performance.now();
    const { modelDir, cacheDir } = this.options;
    const quantized = this.options.quantized ?? false;
    // transformers.js keeps these settings in one global; set them right before loading.
    const tjsEnv = env as unknown as TransformersEnv;
    if (modelDir) {
      assertModelPresent(modelDir, this.modelName, quantized);
      tjsEnv.localModelPath = path.resolve(modelDir);
      tjsEnv.allowLocalModels = true;
      tjsEnv.allowRemoteModels = false;
    } else {
      tjsEnv.allowRemoteModels = true;
    }
    if (cacheDir) tjsEnv.cacheDir = cacheDir;

    const extractor = await pipeline('feature-extraction', this.modelName, { quantized });
    const tokenizer = extractor.tokenizer as unknown as Tokenizer;
    tokenizer.model_max_length = Math.min(tokenizer.model_max_length ?? MAX_SEQUENCE_TOKENS, MAX_SEQUENCE_TOKENS);
    const hiddenSize = (extractor.model.config as { hidden_size?: number }).hidden_size;
    if (hiddenSize) this.dims = hiddenSize;
    this.extractor = extractor;
    this.tokenizer = tokenizer;
    this.options.logger?.info(
      { modelId: this.modelId, dimensions: this.dims, loadMs: Math.round(performance.now() - started) },
      'embedding model loaded',
    );
  }

  private runBatch(batch: string[]): Promise<Float32Array[]> {
    const run = this.queue.then(async () => {
      const extractor = this.extractor;
      if (!extractor) throw new Error('Embedder was disposed');
      const output = await extractor(batch, EMBED_OPTIONS);
      const data = output.data as Float32Array;
      const width = output.dims.at(-1) ?? this.dims;
      // Copies, so each vector owns its memory rather than pinning the whole batch buffer.
      return batch.map((_, i) => data.slice(i * width, (i + 1) * width));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

export function createEmbedder(options: EmbedderOptions = {}): Embedder {
  return new Embedder(options);
}

function assertModelPresent(modelDir: string, modelName: string, quantized: boolean): void {
  const file = path.join(modelDir, modelName, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx');
  if (!fs.existsSync(file)) {
    throw new MnemographError('UNAVAILABLE', `embedding model not found at ${file}; run npm run model:provision`, {
      details: { modelDir, modelName, quantized },
    });
  }
}
