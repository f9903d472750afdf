import type { CheckpointRecord } from '../../sessions/index.js';
import type { Caller } from '../caller.js';
import { pageSize } from '../limits.js';
import type { Addressed } from './types.js';

/** The most checkpoints one call lists. */
const MAX_CHECKPOINTS = 50;

type CheckpointInput = Addressed<Parameters<Caller['services']['sessions']['checkpoint']>[0]>;

/** A checkpoint the agent writes itself (before a compaction, at a milestone). */
export function checkpoint(caller: Caller, input: CheckpointInput): Promise<CheckpointRecord> {
  return caller.services.sessions.checkpoint({ ...input, namespace: caller.namespaceFor(input.namespace, 'write') });
}

/** A session's latest checkpoints, newest first. */
export function checkpoints(
  caller: Caller,
  request: { namespace?: string | null; sessionId: string; last?: number | null },
): Promise<CheckpointRecord[]> {
  return caller.services.sessions.checkpoints(
    caller.namespaceFor(request.namespace, 'read'),
    request.sessionId,
    pageSize(request.last, MAX_CHECKPOINTS, 5),
  );
}
