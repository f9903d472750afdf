export {
  SessionService,
  sessionKey,
  CONTEXT_LIMITS,
  CHECKPOINT_DIGEST_CHARS,
  type SessionSettings,
  type StartInput,
  type StartResult,
  type ObserveInput,
  type ObserveResult,
  type EndResult,
  type RecoverResult,
} from './session-service.js';
export { SessionUpkeep, type SessionUpkeepStats } from './upkeep-loops.js';
export { runSessionEnd, SESSION_END_ACTOR, type SessionEndDeps, type SessionEndResult, type FeedbackSink } from './session-end-job.js';
export { runDecayPass, type DecayReport } from './decay-pass.js';
export { parseExpiry } from '../text/index.js';
export { fitSections, checkpointDigest, recoveryDigest } from './digest.js';
export { deterministicSummary, type SessionSummary } from './summary.js';
export { scoreContinuity } from './continuity.js';
export type { SessionRecord, SessionStats } from '../db/index.js';
export { type CheckpointRecord } from './session-checkpoints.js';
export { sessionTranscripts } from './transcript-reads.js';
export { checkTranscript, saveTranscript } from './session-transcripts.js';
export { latestCheckpoints, writeCheckpoint } from './session-checkpoints.js';
