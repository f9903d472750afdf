export { Metrics, MAX_OPERATION_LABELS, type OperationOutcome, type QueueDepthSource } from './metrics.js';
export { observeEmbedder, observeRecall } from './instrument.js';
