export { Metrics } from './metrics.js';
export { observeEmbedder, observeRecall } from './instrument.js';
