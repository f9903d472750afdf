import type { EndResult } from '../../sessions/index.js';
import type { Caller } from '../caller.js';

/** Closes a session (a final checkpoint, then its end job); `transcript` is stored first, once per session. */
export function endSession(
  caller: Caller,
  request: { namespace?: string | null; sessionId: string; transcript?: string | null },
): Promise<EndResult> {
  return caller.services.sessions.end({
    namespace: caller.namespaceFor(request.namespace, 'write'),
    sessionId: request.sessionId,
    transcript: request.transcript,
    reason: 'ended',
    actor: caller.principal.name,
  });
}
