import type { Embedder } from './embedder-contract.js';
import { type EmbedderOptions, LocalEmbedder } from './embedder.js';
import { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.js';

/** EMBEDDING_PROVIDER=openai: an OpenAI-compatible server's model. */
export type ProviderEmbedderOptions = OpenAiEmbedderOptions & { provider: 'openai' };

/** The local model (the default), or a provider's when the options name one. */
export function createEmbedder(options?: EmbedderOptions & { provider?: 'local' }): LocalEmbedder;
export function createEmbedder(options: ProviderEmbedderOptions): OpenAiEmbedder;
export function createEmbedder(options: (EmbedderOptions & { provider?: 'local' }) | ProviderEmbedderOptions): Embedder;
export function createEmbedder(options: (EmbedderOptions & { provider?: 'local' }) | ProviderEmbedderOptions = {}): Embedder {
  return options.provider === 'openai' ? new OpenAiEmbedder(options) : new LocalEmbedder(options);
}
