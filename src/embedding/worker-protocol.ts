import type { ModelDtype, ModelLocation } from './model-files.js';
import type { Pooling } from './model-profiles.js';

/** What the embedding thread is started with. */
export interface WorkerSettings extends ModelLocation {
  dtype: ModelDtype;
  /** onnxruntime intra-op threads; 0 lets onnxruntime choose (one per physical core). */
  threads: number;
  maxSequenceTokens: number;
  pooling: Pooling;
}

export interface EmbedRequest {
  id: number;
  texts: string[];
  /** Texts per model call; 1 runs every text alone, without padding. */
  batchSize: number;
}

export type WorkerMessage =
  | { type: 'ready'; dimensions: number }
  | { type: 'load-failed'; message: string; code?: string | undefined }
  | { type: 'vectors'; id: number; width: number; data: Float32Array }
  | { type: 'failed'; id: number; message: string };
