export { KnowledgeService, type Actor, type EntityResult, type KnowledgeSettings, type MergeOutcome } from './knowledge-service.js';
export { assertFact, ASSERTED_FACT_WHY, type AssertFactInput, type AssertFactResult, type AssertSettings } from './assert-fact.js';
export { eraseNamespace, ERASE_BATCH_ROWS, type EraseReport } from './erase-namespace.js';
export { ENTITY_TYPES, FACT_KINDS, type EntityType, type FactKind } from './validate.js';
export { describeEntity, type EntityDescription } from './describe-entity.js';
