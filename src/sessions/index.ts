export {
  SessionService,
  type SessionSettings,
  type StartInput,
  type StartResult,
  type ObserveResult,
  type EndResult,
  type RecoverResult,
} from './session-service.js';
export { SessionUpkeep } from './upkeep-loops.js';
export { runSessionEnd, type SessionEndDeps, type FeedbackSink } from './session-end-job.js';
export type { SessionRecord, SessionStats } from '../db/index.js';
export { type CheckpointRecord } from './session-checkpoints.js';
export { checkTranscript } from './session-transcripts.js';
