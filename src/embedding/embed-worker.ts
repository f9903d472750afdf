// The embedding thread: onnxruntime-node runs a model synchronously, so it runs here and the
// service's event loop stays free while a batch is computed.
import { parentPort, workerData } from 'node:worker_threads';

import { AutoModel, AutoTokenizer, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from '@huggingface/transformers';

import { isMnemographError } from '../errors.js';
import { configureModelSource } from './model-files.js';
import { clsPoolNormalized, meanPoolNormalized } from './pooling.js';
import { restoreEndToken } from './truncation.js';
import type { EmbedRequest, WorkerMessage, WorkerSettings } from './worker-protocol.js';

interface Model {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  width: number;
  /** The token the tokenizer closes every text with ([SEP], </s>), if any. */
  endId: bigint | undefined;
}

const settings = workerData as WorkerSettings;
const port = parentPort!;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function load(): Promise<Model> {
  configureModelSource(settings, settings.dtype);
  // onnxruntime's pool threads spin after each run waiting for more work: on two cores that burned
  // 34 ms of CPU per question embedded (46 against 12 ms, e5-small-v2, one text at a time) — CPU
  // that Neo4j needs in the same recall. Without spinning a single text takes about 1 ms longer and a
  // 64-text batch about a fifth longer (docs/speed.md).
  const threads = settings.threads > 0 ? { intraOpNumThreads: settings.threads, interOpNumThreads: 1 } : {};
  const sessionOptions = { ...threads, extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } } };
  const [tokenizer, model] = await Promise.all([
    AutoTokenizer.from_pretrained(settings.modelName),
    AutoModel.from_pretrained(settings.modelName, { dtype: settings.dtype, device: 'cpu', session_options: sessionOptions }),
  ]);
  const width = (model.config as { hidden_size?: number }).hidden_size ?? 0;
  // The closing token is what every text ends with: the last of an empty text, and of a word.
  const closing = tokenizer.encode('').at(-1);
  const endId = closing !== undefined && tokenizer.encode('word').at(-1) === closing ? BigInt(closing) : undefined;
  return { tokenizer, model, width, endId };
}

/** Token ids → last hidden state → pooled (mean or [CLS], as the model wants), normalized vectors, flat. */
async function runModel({ tokenizer, model, endId }: Model, texts: string[]): Promise<{ width: number; data: Float32Array }> {
  const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: settings.maxSequenceTokens });
  const { input_ids: ids, attention_mask: maskTensor } = inputs as { input_ids: Tensor; attention_mask: Tensor };
  const mask = maskTensor.data as BigInt64Array;
  if (endId !== undefined) restoreEndToken(ids.data as BigInt64Array, mask, ids.dims[0]!, ids.dims[1]!, endId);
  const { last_hidden_state: hidden } = (await model(inputs)) as { last_hidden_state: Tensor };
  const [batch, tokens, width] = hidden.dims as [number, number, number];
  const data =
    settings.pooling === 'cls'
      ? clsPoolNormalized(hidden.data as Float32Array, batch, tokens, width)
      : meanPoolNormalized(hidden.data as Float32Array, mask, batch, tokens, width);
  hidden.dispose();
  return { width, data };
}

/**
 * Texts are batched by length, because every text of a batch is padded to the longest one:
 * mixing lengths doubled the cost on chat turns. Returns one flat buffer in input order.
 */
async function embed(model: Model, { texts, batchSize }: EmbedRequest): Promise<{ width: number; data: Float32Array }> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  let data: Float32Array | undefined;
  let width = 0;
  for (let start = 0; start < order.length; start += batchSize) {
    const indices = order.slice(start, start + batchSize);
    const output = await runModel(
      model,
      indices.map((i) => texts[i]!),
    );
    width = output.width;
    data ??= new Float32Array(texts.length * width);
    indices.forEach((textIndex, j) => data!.set(output.data.subarray(j * width, (j + 1) * width), textIndex * width));
  }
  return { width, data: data ?? new Float32Array(0) };
}

async function main(): Promise<void> {
  let model: Model;
  try {
    model = await load();
  } catch (error) {
    post({
      type: 'load-failed',
      message: error instanceof Error ? error.message : String(error),
      code: isMnemographError(error) ? error.code : undefined,
    });
    return;
  }
  post({ type: 'ready', dimensions: model.width });

  // One request at a time, in arrival order: onnxruntime already uses every core per call.
  let queue = Promise.resolve();
  port.on('message', (request: EmbedRequest) => {
    queue = queue.then(async () => {
      try {
        const { width, data } = await embed(model, request);
        post({ type: 'vectors', id: request.id, width, data }, [data.buffer as ArrayBuffer]);
      } catch (error) {
        post({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
}

void main();
