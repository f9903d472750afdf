export { KnowledgeService, type EntityResult, type MergeOutcome } from './knowledge-service.js';
export { type AssertFactInput, type AssertFactResult } from './fact-assertion.js';
export { type EraseReport } from './erase-namespace.js';
export { FACT_KINDS } from './validate.js';
export { ENTITY_TYPES } from '../linker/index.js';
export { type EntityDescription } from './describe-entity.js';
export {
  DEFAULT_EXPORT_PAGE,
  IMPORT_BATCH_ROWS,
  MAX_EXPORT_PAGE,
  MAX_IMPORT_LINES,
  NamespaceTransfer,
  type ExportPage,
  type ImportReport,
} from './namespace-transfer.js';
