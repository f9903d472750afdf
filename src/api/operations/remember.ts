import { checkTranscript, type CheckpointRecord } from '../../sessions/index.js';
import type { RememberInput, RememberResult } from '../../write/index.js';
import type { Caller } from '../caller.js';

export interface RememberArgs extends RememberInput {
  /** The raw conversation of `sessionId`, stored once per session (the first one wins). */
  transcript?: string | null;
}

export interface RememberAnswer extends RememberResult {
  /** With the sessionId of an open session: the periodic checkpoint this tool result fired, if any. */
  checkpoint?: CheckpointRecord | null;
}

/**
 * Stores one memory through the write path. A transcript is checked before the memory is written
 * (so a bad one writes nothing) and stored after it; with a sessionId the memory counts as a tool
 * result of its session, which may fire the periodic checkpoint. A session never started is left alone.
 */
export async function remember(caller: Caller, args: RememberArgs): Promise<RememberAnswer> {
  const transcript = checkTranscript(args, caller.limits.maxTranscriptChars);
  const namespace = caller.namespaceFor(args.namespace, 'write');
  const actor = caller.principal.name;
  const result = await caller.services.remember.remember({ ...args, namespace }, { actor });
  if (transcript) await caller.services.sessions.saveTranscript({ namespace, sessionId: args.sessionId!, transcript, actor });
  const observed = args.sessionId
    ? await caller.services.sessions.observeQuietly({
        namespace,
        sessionId: args.sessionId,
        kind: 'tool',
        remembered: result.memory.content,
        // The caller's id of the memory names the event: a tool result sent again is counted once.
        eventId: args.externalId ?? null,
      })
    : null;
  return { ...result, checkpoint: observed?.checkpoint ?? null };
}
