import type { Executor } from '../db/index.js';
import { transcriptsBySessions, type TranscriptRecord } from '../db/index.js';

/** One transcript per distinct session of the result, at most this many. */
export const MAX_EXPANDED_TRANSCRIPTS = 20;

/**
 * recall(expand: true): the stored transcripts of the sessions the recalled memories belong to,
 * in the order their sessions first appear in the result. Only the memories' own namespaces are
 * searched, so a transcript never crosses a tenant.
 */
export async function sessionTranscripts(
  executor: Executor,
  memories: ReadonlyArray<{ namespace: string; sessionId?: string | null }>,
): Promise<TranscriptRecord[]> {
  const keys = new Map<string, { namespace: string; sessionId: string }>();
  for (const m of memories) {
    if (!m.sessionId) continue;
    keys.set(JSON.stringify([m.namespace, m.sessionId]), { namespace: m.namespace, sessionId: m.sessionId });
    if (keys.size >= MAX_EXPANDED_TRANSCRIPTS) break;
  }
  const found = await transcriptsBySessions(executor, [...keys.values()], MAX_EXPANDED_TRANSCRIPTS);
  const order = [...keys.keys()];
  return found.sort(
    (a, b) => order.indexOf(JSON.stringify([a.namespace, a.sessionId])) - order.indexOf(JSON.stringify([b.namespace, b.sessionId])),
  );
}
