export { createEmbedder } from './create-embedder.js';
export type { Embedder } from './embedder-contract.js';
