import type { RecoverResult } from '../../sessions/index.js';
import type { Caller } from '../caller.js';

/** Where a session stood, its latest checkpoint's digest and recent activity, within a character budget. */
export function recoverSession(
  caller: Caller,
  request: { namespace?: string | null; sessionId: string; budgetChars?: number | null },
): Promise<RecoverResult> {
  return caller.services.sessions.recover(caller.namespaceFor(request.namespace, 'read'), request.sessionId, request.budgetChars);
}
