import { AutoTokenizer } from '@huggingface/transformers';
import { LRUCache } from 'lru-cache';

import { configureModelSource, dtypeFor } from './model-files.js';
import { EmbedThread } from './embed-thread.js';
import { QueryVectorCache } from './query-cache.js';
import type { Embedder } from './embedder-contract.js';
import { E5_V2_MODEL_NAME, type EmbedPurpose, MINILM_MODEL_NAME, type ModelProfile, modelInput, profileFor } from './model-profiles.js';

export const DEFAULT_EMBEDDING_MODEL_NAME = E5_V2_MODEL_NAME;
export const EMBEDDING_DIMENSIONS = 384;
export const DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS = 32;
/** 0 lets onnxruntime choose: one intra-op thread per physical core. */
export const DEFAULT_EMBEDDING_THREADS = 0;
/** sentence-transformers' max_seq_length for all-MiniLM-L6-v2; longer inputs are truncated. */
export const MAX_SEQUENCE_TOKENS = profileFor(MINILM_MODEL_NAME).maxSequenceTokens;
/** Recently counted texts kept by countTokens; recall re-counts the same memories often. */
export const TOKEN_COUNT_CACHE_ENTRIES = 2_000;
/** Model-specific id suffix, so vectors from the 8-bit model are never mixed with float ones. */
const QUANTIZED_MODEL_ID_SUFFIX = ':quantized';

export interface EmbedderOptions {
  /** Model id in the transformers.js layout (`<owner>/<name>`). */
  modelName?: string;
  /** Local models root holding `<modelName>/`; when set, remote download is off. */
  modelDir?: string;
  /** Texts per model call (float model only; the 8-bit model embeds every text alone). */
  batchSize?: number;
  /** Download cache for remote models (only used when `modelDir` is unset). */
  cacheDir?: string;
  /**
   * Use `onnx/model_quantized.onnx`. The 8-bit model quantizes activations per model call, so in
   * a padded batch a text's vector would move with its batch company; it therefore embeds every
   * text alone, which keeps it deterministic. Always on for a model whose profile is
   * `quantizedOnly` (e5-small-v2, bge-small-en-v1.5).
   */
  quantized?: boolean;
  /** onnxruntime intra-op threads; 0 lets onnxruntime choose. */
  threads?: number;
  logger?: { info(obj: object, msg?: string): void };
}

interface Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}

/**
 * Sentence embeddings through @huggingface/transformers (e5-small-v2 by default,
 * all-MiniLM-L6-v2, multilingual-e5-small or bge-small-en-v1.5): pooled as the model's profile says
 * (mean, or bge's [CLS] token), L2-normalized. A model that wants prefixes (e5's "query: " /
 * "passage: ", bge's query instruction) gets them here, by the purpose each caller names. The model runs on a
 * worker thread (onnxruntime-node computes synchronously), one call at a time; onnxruntime
 * already uses every core per call.
 */
export class LocalEmbedder implements Embedder {
  readonly modelName: string;
  /** Stored with every vector; changes whenever vectors would not be comparable. */
  readonly modelId: string;
  readonly batchSize: number;
  readonly quantized: boolean;
  readonly profile: ModelProfile;
  private readonly options: EmbedderOptions;
  private thread: EmbedThread | undefined;
  private tokenizer: Tokenizer | undefined;
  private loading: Promise<EmbedThread> | undefined;
  private dims = EMBEDDING_DIMENSIONS;
  private readonly tokenCounts = new LRUCache<string, number>({ max: TOKEN_COUNT_CACHE_ENTRIES });
  private readonly queryVectors = new QueryVectorCache();

  constructor(options: EmbedderOptions = {}) {
    this.options = options;
    this.modelName = options.modelName ?? DEFAULT_EMBEDDING_MODEL_NAME;
    this.profile = profileFor(this.modelName);
    // A model that ships in 8 bits only reads its 8-bit file whatever the option says.
    this.quantized = (options.quantized ?? false) || this.profile.quantizedOnly;
    this.modelId = this.quantized ? `${this.modelName}${QUANTIZED_MODEL_ID_SUFFIX}` : this.modelName;
    this.batchSize = options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new RangeError(`batchSize must be a positive integer, got ${this.batchSize}`);
    }
    const threads = options.threads ?? DEFAULT_EMBEDDING_THREADS;
    if (!Number.isInteger(threads) || threads < 0) throw new RangeError(`threads must be a non-negative integer, got ${threads}`);
  }

  /** Vector length; read from the model config once loaded. */
  get dimensions(): number {
    return this.dims;
  }

  isLoaded(): boolean {
    return this.thread !== undefined && !this.thread.stopped && this.tokenizer !== undefined;
  }

  /**
   * Loads the model once; concurrent and later calls share the same promise. A failed load, or
   * an embedding thread that died, is retried by the next call.
   */
  async load(): Promise<void> {
    await this.ready();
  }

  /**
   * One unit vector per text, in input order. `purpose` is what the texts are: stored texts
   * (`passage`, the default) or recall's questions (`query`); it picks the model's prefix.
   */
  async embed(texts: readonly string[], purpose: EmbedPurpose = 'passage'): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (purpose === 'query') return this.queryVectors.embed(texts, (missing) => this.run(missing, 'query'));
    return this.run(texts, purpose);
  }

  private async run(texts: readonly string[], purpose: EmbedPurpose): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const thread = await this.ready();
    return thread.embed(
      texts.map((text) => modelInput(this.profile, text, purpose)),
      this.quantized ? 1 : this.batchSize,
    );
  }

  async embedOne(text: string, purpose: EmbedPurpose = 'passage'): Promise<Float32Array> {
    const [vector] = await this.embed([text], purpose);
    return vector!;
  }

  /** Word pieces in `text` (no prefix), without special tokens; synchronous, so the model must be loaded first. */
  countTokens(text: string): number {
    if (!this.tokenizer) throw new Error('Embedder.countTokens needs the model: await embedder.load() first');
    const cached = this.tokenCounts.get(text);
    if (cached !== undefined) return cached;
    const count = this.tokenizer.encode(text, { add_special_tokens: false }).length;
    this.tokenCounts.set(text, count);
    return count;
  }

  async dispose(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    this.tokenizer = undefined;
    this.loading = undefined;
    await thread?.terminate();
  }

  private ready(): Promise<EmbedThread> {
    if (this.thread?.stopped) this.loading = undefined;
    const loading = (this.loading ??= this.doLoad().catch((error: unknown) => {
      if (this.loading === loading) this.loading = undefined;
      throw error;
    }));
    return loading;
  }

  private async doLoad(): Promise<EmbedThread> {
    const started = performance.now();
    const dtype = dtypeFor(this.quantized);
    const location = { modelName: this.modelName, modelDir: this.options.modelDir, cacheDir: this.options.cacheDir };
    configureModelSource(location, dtype);
    const thread = new EmbedThread({
      ...location,
      dtype,
      threads: this.options.threads ?? DEFAULT_EMBEDDING_THREADS,
      maxSequenceTokens: this.profile.maxSequenceTokens,
      pooling: this.profile.pooling,
    });
    this.thread = thread;
    // The tokenizer is loaded here too: countTokens is synchronous and cheap.
    const [dimensions, tokenizer] = await Promise.all([thread.ready, AutoTokenizer.from_pretrained(this.modelName)]).catch(
      async (error: unknown) => {
        await thread.terminate();
        throw error;
      },
    );
    if (dimensions > 0) this.dims = dimensions;
    this.tokenizer = tokenizer as unknown as Tokenizer;
    this.options.logger?.info(
      { modelId: this.modelId, dimensions: this.dims, loadMs: Math.round(performance.now() - started) },
      'embedding model loaded',
    );
    return thread;
  }
}
