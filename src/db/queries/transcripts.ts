import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * Lossless session transcripts: one Transcript per (namespace, sessionId), written
 * once — the first write wins, later ones change nothing (MERGE on the unique pair). Its id is
 * made before the transaction, so a re-run of it writes nothing twice.
 */

export interface TranscriptRecord {
  id: string;
  namespace: string;
  sessionId: string;
  content: string;
  bytes: number;
  createdAt: string;
}

const RETURN = `t { .id, .namespace, .sessionId, .content, bytes: coalesce(t.bytes, 0), .createdAt }`;

export const STORE = `
MERGE (t:Transcript {namespace: $namespace, sessionId: $sessionId})
  ON CREATE SET t.id = $id, t.content = $content, t.bytes = $bytes, t.actor = $actor,
    t.name = 'transcript of ' + left($sessionId, 40), t.createdAt = $now
RETURN t.id = $id AS created, ${RETURN} AS transcript`;

export const BY_SESSIONS = `
UNWIND $keys AS k
MATCH (t:Transcript {namespace: k.namespace, sessionId: k.sessionId})
RETURN ${RETURN} AS transcript
LIMIT $limit`;

export async function storeTranscript(
  executor: Executor,
  t: { id: string; namespace: string; sessionId: string; content: string; actor: string },
): Promise<{ created: boolean; transcript: TranscriptRecord }> {
  const [row] = await executor.write<{ created: boolean; transcript: TranscriptRecord }>('transcripts.store', STORE, {
    ...t,
    bytes: Buffer.byteLength(t.content, 'utf8'),
    now: new Date().toISOString(),
  });
  return row!;
}

/** Transcripts of these sessions (each key a namespace and a session id), at most `limit`. */
export async function transcriptsBySessions(
  executor: Executor,
  keys: ReadonlyArray<{ namespace: string; sessionId: string }>,
  limit: number,
): Promise<TranscriptRecord[]> {
  if (keys.length === 0) return [];
  const rows = await executor.read<{ transcript: TranscriptRecord }>('transcripts.by-sessions', BY_SESSIONS, {
    keys,
    limit: neo4j.int(limit),
  });
  return rows.map((r) => r.transcript);
}
