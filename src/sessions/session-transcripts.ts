import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { storeTranscript, type TranscriptRecord } from '../db/index.js';
import { LimitExceededError, ValidationError } from '../errors.js';
import { redactStored } from '../redaction/index.js';
import { cleanText } from '../text/index.js';

/**
 * `remember(input: { transcript })`: checked before the memory is written (so a bad transcript
 * writes nothing), stored after it in its own transaction, once per session (the first one wins).
 */
export function checkTranscript(input: { transcript?: string | null; sessionId?: string | null }, maxChars: number): string | null {
  const { transcript } = input;
  if (transcript == null) return null;
  // Well-formed like the memory it comes with (src/text): controls removed, never refused for them.
  const text = typeof transcript === 'string' ? cleanText(transcript) : '';
  if (text.trim() === '') throw new ValidationError('transcript must not be empty', { field: 'transcript' });
  if (!(input.sessionId && cleanText(input.sessionId).trim()))
    throw new ValidationError('a transcript needs the sessionId it belongs to', { field: 'sessionId' });
  if (text.length > maxChars)
    throw new LimitExceededError(`transcript is longer than ${maxChars} characters (MAX_CONTENT_CHARS)`, { field: 'transcript' });
  return text;
}

/** The session id as the memory stores it (trimmed, redacted), so recall's expand finds it. */
export async function saveTranscript(
  executor: Executor,
  t: { namespace: string; sessionId: string; transcript: string; actor: string },
): Promise<{ created: boolean; transcript: TranscriptRecord }> {
  return storeTranscript(executor, {
    id: randomUUID(),
    namespace: t.namespace,
    sessionId: redactStored(cleanText(t.sessionId).trim()),
    content: redactStored(cleanText(t.transcript)),
    actor: t.actor,
  });
}
