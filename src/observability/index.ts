export { Metrics } from './prometheus-metrics.js';
export { observeEmbedder, observeRecall } from './instrument.js';
