import type { StartInput, StartResult } from '../../sessions/index.js';
import type { Caller } from '../caller.js';
import type { Addressed } from './types.js';

/**
 * Opens (or resumes) a session and answers the context to inject at its start; the global
 * namespace's memories follow the project's when the caller's key may read it.
 */
export function startSession(caller: Caller, request: Omit<Addressed<StartInput>, 'canReadGlobal'>): Promise<StartResult> {
  const namespace = caller.namespaceFor(request.namespace, 'write');
  const global = caller.services.sessions.settings.globalNamespace;
  return caller.services.sessions.start({ ...request, namespace, canReadGlobal: global !== null && caller.principal.canRead(global) });
}
