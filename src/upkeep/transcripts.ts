import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { storeTranscript, type TranscriptRecord } from '../db/queries/transcripts.js';
import { LimitExceededError, ValidationError } from '../errors.js';
import { redactStored } from '../pipeline/redact-stored.js';

/**
 * `remember(input: { transcript })`: checked before the memory is written (so a bad transcript
 * writes nothing), stored after it in its own transaction, once per session (seed 004).
 */
export function checkTranscript(input: { transcript?: string | null; sessionId?: string | null }, maxChars: number): string | null {
  const { transcript } = input;
  if (transcript == null) return null;
  if (typeof transcript !== 'string' || transcript.trim() === '') throw new ValidationError('transcript must not be empty', { field: 'transcript' });
  if (!input.sessionId?.trim()) throw new ValidationError('a transcript needs the sessionId it belongs to', { field: 'sessionId' });
  if (transcript.length > maxChars) throw new LimitExceededError(`transcript is longer than ${maxChars} characters (MAX_CONTENT_CHARS)`, { field: 'transcript' });
  return transcript;
}

/** The session id as the memory stores it (trimmed, redacted), so recall's expand finds it. */
export async function saveTranscript(
  executor: Executor,
  t: { namespace: string; sessionId: string; transcript: string; actor: string },
): Promise<{ created: boolean; transcript: TranscriptRecord }> {
  return storeTranscript(executor, {
    id: randomUUID(),
    namespace: t.namespace,
    sessionId: redactStored(t.sessionId.trim()),
    content: redactStored(t.transcript),
    actor: t.actor,
  });
}
