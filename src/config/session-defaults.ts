/**
 * Defaults of the self-running session, decay and upkeep settings (docs/sessions.md lists each
 * against the design's number, and why ours differs where it does).
 */

/** A periodic checkpoint fires after this many prompts since the last one. */
export const DEFAULT_SESSION_CHECKPOINT_PROMPTS = 10;
/** …or at the first prompt or tool result this long after the last one (15 min). */
export const DEFAULT_SESSION_CHECKPOINT_INTERVAL_MS = 15 * 60 * 1000;
/** Characters of a recovery digest (recoverSession), unless the caller asks for fewer or more. */
export const DEFAULT_SESSION_RECOVERY_BUDGET_CHARS = 2_000;
/** Characters of the start-of-session context block (about 2,000 tokens at 4 characters a token). */
export const DEFAULT_SESSION_START_BUDGET_CHARS = 8_000;
/** An open session without a prompt or tool result for this long is ended as idle (0 = never). */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 60 * 60 * 1000;
/** How often the worker looks for idle sessions. */
export const DEFAULT_SESSION_SWEEP_INTERVAL_MS = 60 * 1000;
/** The namespace whose memories follow the project's in a start-of-session context. */
export const DEFAULT_SESSION_GLOBAL_NAMESPACE = 'global';

/** Session checkpoints are hard-deleted this many days after they were made. */
export const DEFAULT_CHECKPOINT_RETENTION_DAYS = 7;

/** How often the decay pass flags stale memories (0 = off). */
export const DEFAULT_DECAY_INTERVAL_MS = 60 * 60 * 1000;
/** A persistent memory not retrieved for this many days is flagged stale. */
export const DEFAULT_DECAY_UNRETRIEVED_DAYS = 90;

/** How often the worker checks the compression threshold (0 = off). */
export const DEFAULT_COMPRESSION_AUTO_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** Compression starts once a namespace holds this many old uncompressed episodic sessions. */
export const DEFAULT_COMPRESSION_AUTO_MIN_SESSIONS = 10;
/** A session is old once its last memory happened this many days ago. */
export const DEFAULT_COMPRESSION_AUTO_AGE_DAYS = 30;
