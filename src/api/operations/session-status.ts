import type { SessionRecord, SessionStats } from '../../sessions/index.js';
import type { Caller } from '../caller.js';
import { jobStatus } from './jobs.js';

/** A session as it stands (null when unknown): counts, checkpoints, and once its end job ran, its summary. */
export function session(caller: Caller, request: { namespace?: string | null; sessionId: string }): Promise<SessionRecord | null> {
  return caller.services.sessions.get(caller.namespaceFor(request.namespace, 'read'), request.sessionId);
}

/** A session's end job and its status; null while the session is open. */
export function sessionSummaryJob(caller: Caller, s: SessionRecord): Promise<{ id: string; status: string } | null> | null {
  return s.jobId ? jobStatus(caller, s.jobId) : null;
}

/** A namespace's sessions and session-end jobs; null when sessions are off. */
export function sessionStats(caller: Caller, namespace: string): Promise<SessionStats> | null {
  return caller.services.sessions.settings.enabled ? caller.services.sessions.stats(namespace) : null;
}
