export { createCaller, limitsOf, type Caller, type CallerLimits } from './caller.js';
export { MAX_REASON_CHARS, MAX_SEARCH_CHARS, pageSize } from './limits.js';
export { memoryForWrite, operatorScope, readableEntity, refreshMemory, writableNamespaces } from './guards.js';
export { type Loaders } from './loaders.js';
export { itemError, type ItemError } from './item-error.js';
