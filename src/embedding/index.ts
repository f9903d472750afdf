export {
  DEFAULT_EMBEDDING_BATCH_SIZE_TEXTS,
  DEFAULT_EMBEDDING_MODEL_NAME,
  EMBEDDING_DIMENSIONS,
  Embedder,
  MAX_SEQUENCE_TOKENS,
  createEmbedder,
  type EmbedderOptions,
} from './embedder.js';
