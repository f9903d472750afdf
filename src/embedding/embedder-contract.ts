import type { EmbedPurpose, ModelProfile } from './model-profiles.js';

/**
 * What every part of the service holds as its embedder: the local model (LocalEmbedder, the
 * default) or a provider's (OpenAiEmbedder, EMBEDDING_PROVIDER=openai).
 */
export interface Embedder {
  readonly modelName: string;
  /** Stored with every vector; changes whenever vectors would not be comparable (the tracker re-embeds then). */
  readonly modelId: string;
  /** Prefixes and dedup thresholds (a provider's model reads as MiniLM's: no prefixes). */
  readonly profile: ModelProfile;
  /** Vector length, known once loaded; the vector index is built for it at start-up. */
  readonly dimensions: number;
  isLoaded(): boolean;
  load(): Promise<void>;
  /** One unit vector per text, in input order; `purpose` picks the model's prefix. */
  embed(texts: readonly string[], purpose?: EmbedPurpose): Promise<Float32Array[]>;
  embedOne(text: string, purpose?: EmbedPurpose): Promise<Float32Array>;
  /** Word pieces in `text`; synchronous, so the embedder must be loaded first. */
  countTokens(text: string): number;
  dispose(): Promise<void>;
}
