/** Defaults of the deep-path settings added with the worker (docs/deviations.md lists where they differ from the design). */
export const DEFAULT_HINTS_MAX = 5;
/** First retry delay of a failed job; doubles per attempt (capped at 10 min). */
export const DEFAULT_WORKER_RETRY_BASE_MS = 15 * 1000;
/** Attributes the LLM classifies into aspects in one call (a batch of one entity's). */
export const DEFAULT_CLASSIFY_BATCH_SIZE = 20;
