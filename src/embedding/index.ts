export {
  DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS,
  DEFAULT_EMBEDDING_MODEL_NAME,
  DEFAULT_EMBEDDING_THREADS,
  EMBEDDING_DIMENSIONS,
  Embedder,
  MAX_SEQUENCE_TOKENS,
  createEmbedder,
  type EmbedderOptions,
} from './embedder.js';
export {
  BGE_MODEL_NAME,
  E5_MODEL_NAME,
  E5_V2_MODEL_NAME,
  type EmbedPurpose,
  MINILM_MODEL_NAME,
  type ModelProfile,
  profileFor,
} from './model-profiles.js';
