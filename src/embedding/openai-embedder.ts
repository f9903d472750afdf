import fs from 'node:fs';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import OpenAI from 'openai';

import { MnemographError } from '../errors.js';
import type { Embedder } from './embedder-contract.js';
import { configureModelSource } from './model-files.js';
import { type EmbedPurpose, MINILM_MODEL_NAME, modelInput, profileFor, type ModelProfile } from './model-profiles.js';
import { QueryVectorCache } from './query-cache.js';

/** Stored as the vectors' model: `openai:<model>`, so a switch from or to a local model re-embeds the store. */
export const OPENAI_MODEL_ID_PREFIX = 'openai:';
/** The SDK's own retries (429 after Retry-After, 5xx, refused connections), all inside one call's deadline. */
const MAX_RETRIES = 3;
/** The text of the first call, whose answer tells the model's dimension. */
const DIMENSION_PROBE = 'dimension probe';
/** Characters per token when no local tokenizer is at hand (OpenAI's rule of thumb for English). */
const CHARS_PER_TOKEN = 4;

/** A provider's deadlines, as a hosted embeddings API needs them (not settings: nobody tunes them). */
const TIMEOUT_MS = 30_000;
const QUERY_TIMEOUT_MS = 2_000;

export interface OpenAiEmbedderOptions {
  /** EMBEDDING_MODEL: the provider's model name (text-embedding-3-small, nomic-embed-text, …). */
  model: string;
  /** EMBEDDING_BASE_URL, else OPENAI_BASE_URL; unset: OpenAI's API. */
  baseUrl?: string | undefined;
  /** EMBEDDING_API_KEY, else OPENAI_API_KEY; a server that checks none takes any value. A secret: never logged, stored or reported. */
  apiKey?: string | undefined;
  /** Texts per request. */
  batchSize: number;
  /** Deadline of one request of stored texts (write path, tracker), its retries included; default 30 s. */
  timeoutMs?: number;
  /** Deadline of recall's question: past it recall goes on with its keyword legs; default 2 s. */
  queryTimeoutMs?: number;
  /** Models root holding MiniLM's tokenizer, which counts tokens for recall's budget; without it, an estimate. */
  tokenizerDir?: string | undefined;
  logger?: { info(obj: object, msg?: string): void };
}

interface Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}

/**
 * Embeddings from an OpenAI-compatible `/v1/embeddings` server (OpenAI, vLLM, llama.cpp, LM
 * Studio, Ollama's OpenAI API…) through the official `openai` client. The model's dimension is
 * read from the first answer (load() asks once); every vector is L2-normalized, as the local
 * model's are. Each request has a deadline (a shorter one for recall's question); the SDK retries
 * 429 (after the server's Retry-After) and 5xx inside it, and never 400, 401 or 403. Failures are
 * coded errors that name the HTTP status, never the key nor what the server said.
 */
export class OpenAiEmbedder implements Embedder {
  readonly modelName: string;
  readonly modelId: string;
  readonly profile: ModelProfile;
  private readonly client: OpenAI;
  private readonly queryVectors = new QueryVectorCache();
  private dims = 0;
  private tokenizer: Tokenizer | null | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    if (!Number.isInteger(options.batchSize) || options.batchSize < 1) {
      throw new RangeError(`batchSize must be a positive integer, got ${options.batchSize}`);
    }
    this.modelName = options.model;
    this.modelId = `${OPENAI_MODEL_ID_PREFIX}${options.model}`;
    this.profile = profileFor(options.model);
    this.client = new OpenAI({
      apiKey: options.apiKey || 'not-needed',
      baseURL: options.baseUrl || undefined,
      maxRetries: MAX_RETRIES,
      logLevel: 'off',
    });
  }

  /** The model's dimension, from its first answer (0 before it). */
  get dimensions(): number {
    return this.dims;
  }

  isLoaded(): boolean {
    return this.dims > 0 && this.tokenizer !== undefined;
  }

  /** Asks the model once for its dimension and loads the token counter; a failure is retried by the next call. */
  async load(): Promise<void> {
    const loading = (this.loading ??= this.doLoad().catch((error: unknown) => {
      if (this.loading === loading) this.loading = undefined;
      throw error;
    }));
    await loading;
  }

  private async doLoad(): Promise<void> {
    const started = performance.now();
    this.tokenizer ??= await localTokenizer(this.options.tokenizerDir);
    if (this.dims === 0) await this.request([DIMENSION_PROBE], this.options.timeoutMs ?? TIMEOUT_MS);
    this.options.logger?.info(
      { modelId: this.modelId, dimensions: this.dims, loadMs: Math.round(performance.now() - started) },
      'embedding provider answered',
    );
  }

  async embed(texts: readonly string[], purpose: EmbedPurpose = 'passage'): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (purpose === 'query')
      return this.queryVectors.embed(texts, (missing) => this.run(missing, 'query', this.options.queryTimeoutMs ?? QUERY_TIMEOUT_MS));
    return this.run(texts, purpose, this.options.timeoutMs ?? TIMEOUT_MS);
  }

  async embedOne(text: string, purpose: EmbedPurpose = 'passage'): Promise<Float32Array> {
    const [vector] = await this.embed([text], purpose);
    return vector!;
  }

  /** MiniLM's word pieces when its tokenizer is provisioned, else characters / 4. */
  countTokens(text: string): number {
    if (this.tokenizer === undefined) throw new Error('OpenAiEmbedder.countTokens needs load() first');
    if (this.tokenizer === null) return Math.ceil(text.length / CHARS_PER_TOKEN);
    return this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  async dispose(): Promise<void> {
    this.loading = undefined;
  }

  private async run(texts: readonly string[], purpose: EmbedPurpose, timeoutMs: number): Promise<Float32Array[]> {
    const inputs = texts.map((text) => modelInput(this.profile, text, purpose));
    const vectors: Float32Array[] = [];
    for (let start = 0; start < inputs.length; start += this.options.batchSize) {
      vectors.push(...(await this.request(inputs.slice(start, start + this.options.batchSize), timeoutMs)));
    }
    return vectors;
  }

  /** One `/embeddings` request inside its deadline; the vectors in input order, unit length. */
  private async request(input: string[], timeoutMs: number): Promise<Float32Array[]> {
    const signal = AbortSignal.timeout(timeoutMs);
    let answer: OpenAI.CreateEmbeddingResponse;
    try {
      answer = await this.client.embeddings.create({ model: this.options.model, input }, { signal, timeout: timeoutMs });
    } catch (error) {
      throw this.failure(error, signal.aborted, timeoutMs);
    }
    const rows = Array.isArray(answer?.data) ? [...answer.data].sort((a, b) => a.index - b.index) : [];
    const vectors = rows.map((row) => Float32Array.from(row.embedding ?? []));
    const width = this.dims || vectors[0]?.length || 0;
    if (vectors.length !== input.length || width === 0 || vectors.some((v) => v.length !== width)) {
      throw this.coded(
        'UNAVAILABLE',
        `sent ${vectors.length} vectors of ${vectors.map((v) => v.length).join('/') || 0} dimensions for ${input.length} texts${this.dims ? ` (the model has ${this.dims})` : ''}`,
        false,
      );
    }
    this.dims = width;
    return vectors.map(unitLength);
  }

  /** The SDK's error as a coded one: the status and the server's error code, never its message (which may echo the key). */
  private failure(error: unknown, timedOut: boolean, timeoutMs: number): MnemographError {
    if (timedOut) return this.coded('TIMEOUT', `did not answer within ${timeoutMs} ms`, true);
    if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
      const { status } = error;
      const code = typeof error.code === 'string' && /^[\w.-]{1,64}$/.test(error.code) ? error.code : null;
      const retriable = status === 408 || status === 409 || status === 429 || status >= 500;
      return this.coded('UNAVAILABLE', `refused the request: HTTP ${status}${code ? ` (${code})` : ''}`, retriable, {
        status,
        ...(code ? { code } : {}),
      });
    }
    if (error instanceof OpenAI.APIConnectionError) return this.coded('UNAVAILABLE', 'is unreachable', true);
    return this.coded('UNAVAILABLE', 'sent an answer that is not embeddings', false);
  }

  private coded(code: 'UNAVAILABLE' | 'TIMEOUT', what: string, retriable: boolean, details: Record<string, unknown> = {}): MnemographError {
    return new MnemographError(code, `embedding provider ${what} (model ${this.options.model})`, {
      retriable,
      details: { provider: 'openai', model: this.options.model, ...details },
    });
  }
}

function unitLength(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/** MiniLM's tokenizer from the provisioned models, or null (then tokens are estimated); never a download. */
async function localTokenizer(modelDir: string | undefined): Promise<Tokenizer | null> {
  if (!modelDir || !fs.existsSync(path.join(modelDir, MINILM_MODEL_NAME, 'tokenizer.json'))) return null;
  try {
    configureModelSource({ modelName: MINILM_MODEL_NAME, modelDir }, 'fp32');
    return (await AutoTokenizer.from_pretrained(MINILM_MODEL_NAME)) as unknown as Tokenizer;
  } catch {
    return null;
  }
}
