import type { Caller } from '../caller.js';
import { operatorScope } from '../guards.js';

type MaintenanceMode = Parameters<Caller['services']['upkeep']['runMaintenance']>[1];

/** One retention sweep now, of one namespace or (a "*" key's allNamespaces) all of them; a dry run only counts. */
export function runRetention(
  caller: Caller,
  request: { namespace?: string | null; allNamespaces?: boolean | null; dryRun?: boolean | null },
) {
  return caller.services.upkeep.runRetention(operatorScope(caller, request.namespace, request.allNamespaces), request.dryRun ?? false);
}

/** One maintenance cycle now (observe, or execute the repairs it finds). */
export function runMaintenance(
  caller: Caller,
  request: { namespace?: string | null; allNamespaces?: boolean | null; mode?: MaintenanceMode | null },
) {
  return caller.services.upkeep.runMaintenance(operatorScope(caller, request.namespace, request.allNamespaces), request.mode ?? 'observe');
}

/** Aspect feedback from the memories a session used. */
export async function aspectFeedback(
  caller: Caller,
  request: { namespace?: string | null; sessionId: string; memoryIds: readonly string[] },
) {
  const r = await caller.services.upkeep.feedback.apply({
    namespace: caller.namespaceFor(request.namespace, 'write'),
    sessionId: request.sessionId,
    memoryIds: request.memoryIds,
    actor: caller.principal.name,
  });
  return {
    applied: r.applied,
    aspectsUpdated: r.aspectsUpdated,
    confirmations: r.ftsConfirmations,
    decayedAspects: r.decayedAspects,
    propagatedAttributes: r.propagatedAttributes,
  };
}
