export { configureStoredRedaction } from './redact-stored.js';
export { extraPatternsSchema } from './extra-patterns.js';
export { redactJsonValue, redactStored } from './redact-stored.js';
export { redactStoredOrNull } from './redact-stored.js';
export { type RedactionOptions } from './redact.js';
export { redactSecrets } from './redact.js';
export { RedactionTally, redactJsonString } from './redact-stored.js';
