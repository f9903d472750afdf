export { createDriver } from './driver.js';
export { Executor, type TxRunner, type TxWork } from './executor.js';
export { migrate, schemaVersion, schemaReadiness } from './schema-migrations.js';
export { warmUpIndexes } from './queries/warm-up.js';
export { ensureVectorIndex } from './vector-index.js';
export { type JobRecord } from './records.js';
export { requireSourceUnchanged } from './queries/remember-checks.js';
export { type AttributeInsert } from './queries/remember-write.js';
export { derivedId } from './ids.js';
export { forgetInTx, forgetReason } from './queries/memory-mutations.js';
export {
  createDocument,
  documentById,
  documentParts,
  documentsPage,
  finishDocument,
  leaseDocument,
  linkDocumentParts,
  linkedIndexes,
  releaseDocument,
  setDocumentState,
  type DocumentPage,
  type DocumentRecord,
  type LeasedDocument,
} from './queries/document-store.js';
export { type EntityRecord, type MemoryRecord } from './records.js';
export { chunksByMemoryIds, memoriesByIds } from './queries/memory-lookups.js';
export { sourceMemory } from './queries/memory-lookups.js';
export { type AspectRecord, type AttributeRecord, type ChunkRecord, type HistoryRecord, type RelationRecord } from './records.js';
export { attributesByIds } from './queries/graph.js';
export { entityByCanonicalName, KNOWLEDGE_EVENT } from './queries/knowledge.js';
export {
  aspectsByEntityIds,
  attributesByAspectIds,
  entitiesByIds,
  entityByName,
  relationCountsByEntityIds,
  relationsByEntityIds,
} from './queries/graph.js';
export { ERASE_STEPS, eraseStep } from './queries/namespace-erase.js';
export { mergeEntity, mergeEntityInto, relateEntities, type MergeCounts, type RelationRow } from './queries/knowledge.js';
export { entitiesPage } from './queries/entity-page.js';
export { forgetMemory } from './queries/memory-mutations.js';
export { touchAccessed, type AccessRow } from './queries/memory-lookups.js';
export { timelineAround, type TimelineRows } from './queries/timeline-window.js';
export { checkpointWriteWork, latestStoredCheckpoints, type CheckpointRecord } from './queries/checkpoint-store.js';
export { pruneCheckpoints } from './queries/checkpoint-store.js';
export { expiryCandidates, flagExpired, flagUnretrieved, setExpiry, unflagStale } from './queries/decay.js';
export { type SessionRecord } from './queries/sessions.js';
export { type SessionStats } from './queries/sessions.js';
export { getSession, jobSession, memoryTexts, saveSummary, sessionMemories } from './queries/sessions.js';
export { transcriptsBySessions } from './queries/transcripts.js';
export {
  bestMemories,
  endSessionRecord,
  idleSessions,
  latestNamespaceCheckpoint,
  markCheckpoint,
  pinnedAndConstraints,
  preferenceMemories,
  previousSummarizedSession,
  queueEndJob,
  recordEvent,
  sessionLessons,
  sessionStats,
  sessionTagged,
  startSessionRecord,
} from './queries/sessions.js';
export { type TranscriptRecord } from './queries/transcripts.js';
export { storeTranscript } from './queries/transcripts.js';
export { namespacesOverCompressionThreshold } from './queries/compression-threshold.js';
export { countStaleChunks, findStaleChunks, writeChunkVectors, type TrackerScope } from './queries/embedding-tracker.js';
export { nearestMemories, type NearestHit } from './queries/chunks.js';
export { cosineFromIndexScore } from './vector-scale.js';
export { findLiveByDedupKeys } from './queries/memory-lookups.js';
export { echoStats, recordEchoes } from './queries/echoes.js';
export { linkDerived, touchDuplicates, type DuplicateTarget } from './queries/remember-checks.js';
export { writeMemories, type MemoryInsert, type MemoryRows } from './queries/remember-write.js';
export { replaceMemoryContent } from './queries/memory-update.js';
export { type ChunkInsert, type HistoryInsert, type JobInsert, type MentionInsert } from './queries/remember-write.js';
export { type RelationView } from './records.js';
export { jobsOfMemory, queueDepthByKind, storedNamespaces } from './queries/explorer-reads.js';
export { attributeHistory, MAX_RELATIONS_QUERY } from './queries/graph.js';
export { NEIGHBOR_DEPTHS, neighborhood, type NeighborDepth } from './queries/neighbors.js';
export { setPinned } from './queries/memory-mutations.js';
export { memoriesPage } from './queries/memory-page.js';
export { jobState } from './queries/sessions.js';
export {
  type Keyed,
  aspectsByIds,
  attributesByMemoryIds,
  entitiesByMemoryIds,
  historyByMemoryIds,
  memoriesByEntityIds,
} from './queries/graph.js';
export { candidateKeywordHits, candidateMemories } from './queries/decision-candidates.js';
export { replaceHints } from './queries/hints.js';
export { openDuplicatePair, resolveDuplicate, supersedeDuplicate, type DuplicatePair } from './queries/near-duplicates.js';
export {
  compressJobSession,
  compressibleSessionMemories,
  linkCompressionSources,
  unchangedCompressionSources,
} from './queries/session-compression.js';
export {
  mergeExtractedEntities,
  mergeExtractedRelations,
  type ExtractedEntity,
  type ExtractedRelation,
} from './queries/extracted-entities.js';
export {
  activeSiblingAttributes,
  createExtractedAttributes,
  retireTargetAttributes,
  supersedeAttributes,
  type ExtractedAttribute,
} from './queries/attributes.js';
export { retireTargetMemories } from './queries/memory-lookups.js';
export { maintenanceCounts, maintenanceReleaseStale, maintenanceRequeueDead } from './queries/maintenance.js';
// The one HistoryEvent writer and the one Job creator, and the statements of the writes that use them.
export { markReverted, recordEvents, type HistoryEventName } from './history.js';
export { applyAspectFeedback, decayAspects } from './queries/aspect-feedback.js';
export {
  claimMaintenanceRun,
  claimScheduledRun,
  countDecayedAspects,
  feedbackState,
  haltedMaintenance,
  recordMaintenanceOutcome,
  releaseMaintenanceRun,
  resetMaintenance,
} from './queries/upkeep-state.js';
export { applyClassification, classifyJobEntityId, unclassifiedAttributes } from './queries/classify-entity.js';
export { queueClassifyJobs } from './queries/classify-queue.js';
export { queueCompressJobs } from './queries/compress-queue.js';
export {
  factToForget,
  loadProposal,
  reopenDuplicate,
  restoreAttributes,
  restoreDuplicate,
  restoreMemory,
  retractAttribute,
  revertDetails,
  targetRetirements,
} from './queries/revert.js';
// Namespace export and import (exportNamespace / importNamespace).
export { EDGE_SOURCES, exportEdgePage, exportNodePage, PORTABLE_LABELS, type PortableLabel } from './queries/namespace-export.js';
export {
  existingKeys,
  IMPORT_EDGE_KINDS,
  writeImportBatch,
  type ImportCounts,
  type ImportEdgeKind,
  type ImportEdgeRow,
  type ImportNodeRow,
} from './queries/namespace-import.js';
