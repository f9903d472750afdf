export { Embedder, createEmbedder } from './embedder.js';
