export { processMemory, type ExtractionSummary } from './process-memory.js';
export { generateHints, writeHints, validateHints, DEFAULT_MAX_HINTS, type HintsResult } from './hint-generation.js';
export { extractFacts, MAX_EXTRACTION_INPUT_CHARS } from './extract-facts.js';
export { decide } from './decide.js';
export { detectContradiction, lexicalOverlap } from './contradiction.js';
export { checkSemanticContradiction } from './semantic-contradiction.js';
export { pipelineMode, writesAllowed } from './mode.js';
export { revertProposal, REVERTED_EVENT, type RevertResult } from './proposal-reversal.js';
export { EXTRACTION_SCHEMA, DECISION_SCHEMA, CONTRADICTION_SCHEMA, hintsSchema, type JsonSchema } from './output-schemas.js';
export { PIPELINE_ACTOR, EXTRACTED_FACT_WHY, HISTORY_EVENT } from './pipeline-provenance.js';
export { EXTRACTION_PROMPT_HEADER, DECISION_PROMPT_HEADER, CONTRADICTION_PROMPT_HEADER, HINTS_PROMPT_HEADER } from './prompts.js';
export type { DeepPathDeps, DeepPathSettings } from './deps.js';
export type { SourceMemory, FactWriter } from './fact-writes.js';
export type { PipelineMode, ExtractedFact, EntityTriple, ExtractionResult, Decision, Candidate } from './extraction-types.js';
export {
  resolveNearDuplicate,
  DEDUP_OUTCOME,
  type MemoryUpdater,
  type NearDuplicateDeps,
  type NearDuplicateResult,
} from './near-duplicate.js';
export { NEAR_DUPLICATE_PROMPT_HEADER, NEAR_DUPLICATE_SCHEMA, NEAR_DUPLICATE_ACTIONS } from './near-duplicate-decide.js';
export { ContentHashEmbeddingCache, DEFAULT_EMBEDDING_CACHE_ENTRIES } from './embedding-cache.js';
export { classifyJobEntity, MAX_CLASSIFY_BATCHES, type ClassifyDeps, type ClassifyJobResult } from './classify-entity-job.js';
export { CLASSIFY_PROMPT_HEADER, ASPECT_SUGGESTIONS, classifySchema } from './structural-classify.js';
export {
  compressSessionJob,
  queueSessionCompression,
  COMPRESS_PROMPT_HEADER,
  COMPRESS_SCHEMA,
  MAX_SESSIONS_PER_CALL,
  type CompressDeps,
  type CompressRequest,
  type CompressResult,
} from './compression-job.js';
export { ATTRIBUTE_IMPORTANCE, canonicalName, CONSTRAINT_IMPORTANCE } from './classify-fact.js';
export { gate, OUTCOME } from './gates.js';
export { persistGraph } from './graph-write.js';
export { historyId } from './pipeline-provenance.js';
export { planSupersessions } from './supersession.js';
