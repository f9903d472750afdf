export { Metrics, MAX_OPERATION_LABELS, type OperationOutcome, type QueueDepthSource } from './prometheus-metrics.js';
export { observeEmbedder, observeRecall } from './instrument.js';
export { REQUEST_ID_HEADER, requestIdMiddleware, requestIdOf } from './request-id.js';
