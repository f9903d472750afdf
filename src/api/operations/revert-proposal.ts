import type { RevertResult } from '../../deep/index.js';
import type { Caller } from '../caller.js';
import { writableNamespaces } from '../guards.js';

/** Undoes an applied deep-path proposal, named by its history event; one outside the caller's namespaces is NOT_FOUND. */
export function revertProposal(caller: Caller, request: { eventId: string; reason?: string | null }): Promise<RevertResult> {
  return caller.services.pipeline.revert(request.eventId, {
    namespaces: writableNamespaces(caller),
    actor: caller.principal.name,
    reason: request.reason,
  });
}
