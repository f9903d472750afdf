export { KnowledgeService, type Actor, type EntityResult, type KnowledgeSettings, type MergeOutcome } from './knowledge-service.js';
export { assertFact, ASSERTED_FACT_WHY, type AssertFactInput, type AssertFactResult, type AssertSettings } from './fact-assertion.js';
export { eraseNamespace, ERASE_BATCH_ROWS, type EraseReport } from './erase-namespace.js';
export { FACT_KINDS, type FactKind } from './validate.js';
export { ENTITY_TYPES, type EntityType } from '../linker/index.js';
export { describeEntity, type EntityDescription } from './describe-entity.js';
export {
  DEFAULT_EXPORT_PAGE,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORT_BATCH_ROWS,
  MAX_EXPORT_PAGE,
  MAX_IMPORT_LINE_CHARS,
  MAX_IMPORT_LINES,
  NamespaceTransfer,
  type ExportHeader,
  type ExportLine,
  type ExportPage,
  type ImportReport,
} from './namespace-transfer.js';
