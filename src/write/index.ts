export { RememberService, type RememberSettings } from './remember-service.js';
export { UpdateService } from './update-service.js';
export { type TextEmbedder } from './remember-service.js';
export { type BatchOutcome, type RememberBatchOptions } from './remember-service.js';
export { type RememberInput } from './validate-input.js';
export { normalizeContent } from './normalize.js';
export { type RememberResult } from './remember-service.js';
export { checkBatchSize } from './remember-service.js';
export { MEMORY_TYPES } from './importance.js';
