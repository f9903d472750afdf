export { createCaller, limitsOf, type Caller, type CallerLimits } from './caller.js';
// What the composition root hands every transport, and who a request's caller is.
export type { Services } from '../app.js';
export type { Principal } from '../auth.js';
export { iso, type RecallFilterInput } from './recall-filters.js';
export { MAX_SEARCH_CHARS } from './limits.js';
export { type ItemOutcome } from './each-item.js';
// Operations: one file each, shared by GraphQL and MCP.
export { search } from './operations/search.js';
export { timeline } from './operations/timeline.js';
export { memories, memoriesPageOf, memory } from './operations/memories.js';
export { forget } from './operations/forget.js';
export { pin } from './operations/pin.js';
export { updateMemory } from './operations/update-memory.js';
export { aspect, describeEntity, entities, entity } from './operations/entities.js';
export { attributeHistory, entityRelations, neighbors, relations } from './operations/entity-graph.js';
export { createEntities, createEntity } from './operations/create-entity.js';
export { relate, relateAll } from './operations/relate.js';
export { assertFact, assertFacts } from './operations/assert-fact.js';
export { mergeEntities } from './operations/merge-entities.js';
export { deleteNamespace } from './operations/delete-namespace.js';
export { exportNamespace } from './operations/export-namespace.js';
export { importNamespace } from './operations/import-namespace.js';
export { jobs, memoryJobs, requeueJob } from './operations/jobs.js';
export { revertProposal } from './operations/revert-proposal.js';
export { viewer } from './operations/viewer.js';
export { queueByKind } from './operations/queue-by-kind.js';
export { health } from './operations/health.js';
export { startSession } from './operations/session-start.js';
export { endSession } from './operations/session-end.js';
export { recoverSession } from './operations/session-recover.js';
export { session, sessionStats, sessionSummaryJob } from './operations/session-status.js';
export { sessionPrompt, sessionToolResult } from './operations/session-events.js';
export { checkpoint, checkpoints } from './operations/checkpoints.js';
export { document, documentChunks, documentProgress, documents, ingestDocument } from './operations/documents.js';
export { aspectFeedback, runMaintenance, runRetention } from './operations/upkeep.js';
export { compressSessions } from './operations/compress-sessions.js';
export {
  echoTelemetry,
  embeddingTracker,
  feedbackTelemetry,
  lastMaintenance,
  lastRetention,
  pipelineStatus,
  type PipelineStatusView,
} from './operations/pipeline-status.js';
// The records operations answer with (GraphQL's type mappers name these).
export type {
  AspectRecord,
  AttributeRecord,
  ChunkRecord,
  EntityRecord,
  HistoryRecord,
  JobRecord,
  MemoryRecord,
  RelationView,
} from '../db/index.js';
export type { DocumentRecord } from '../documents/index.js';
export type { CheckpointRecord, SessionRecord } from '../sessions/index.js';
export { recall, type RecallAnswer } from './operations/recall.js';
export { remember, type RememberAnswer } from './operations/remember.js';
export { rememberBatch } from './operations/remember-batch.js';
export type { TranscriptRecord } from '../db/index.js';
// Types and vocabularies the transports map to and from.
export type { LegExplanation, RankedCandidate, RecallItemView } from '../recall/index.js';
export { ENTITY_TYPES, FACT_KINDS, type EntityDescription } from '../knowledge/index.js';
export type { RememberInput, RememberResult } from '../write/index.js';
export { MEMORY_TYPES } from '../write/index.js';
