import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * Decay: temporal memories get their end of validity from their own words (once each), and a
 * pass flags stale memories — expired temporal ones, and persistent ones nobody retrieved within
 * the window — and lifts the flag once it no longer holds. Each statement is one bounded batch
 * and only SETs values, so running it twice changes nothing more; a re-run with the same `$now`
 * matches the rows its first run wrote, so it reports the same counts.
 */

const scope = `($namespaces IS NULL OR m.namespace IN $namespaces)`;

export const EXPIRY_CANDIDATES = `
MATCH (m:Memory {temporal: 'temporal'})
WHERE m.validUntil IS NULL AND m.expiryCheckedAt IS NULL AND m.deletedAt IS NULL AND ${scope}
WITH m LIMIT $limit
RETURN m.id AS id, left(m.content, $maxChars) AS content, coalesce(m.occurredAt, m.createdAt) AS reference`;

export const SET_EXPIRY = `
UNWIND $rows AS r
MATCH (m:Memory {id: r.id})
WHERE m.validUntil IS NULL OR m.expiryCheckedAt = $now
SET m.validUntil = r.validUntil, m.expiryCheckedAt = $now
RETURN count(r.validUntil) AS parsed`;

export const FLAG_EXPIRED = `
MATCH (m:Memory)
WHERE m.validUntil < $now AND m.deletedAt IS NULL AND ${scope} AND (m.stale IS NULL OR (m.staleReason = 'expired' AND m.staleAt = $now))
WITH m LIMIT $limit
SET m.stale = true, m.staleReason = 'expired', m.staleAt = $now
RETURN count(m) AS flagged`;

// Pinned memories and constraints (invariant 4) are never flagged for want of retrieval.
export const FLAG_UNRETRIEVED = `
MATCH (m:Memory)
WHERE (m.stale IS NULL OR (m.staleReason = 'unretrieved' AND m.staleAt = $now))
  AND m.deletedAt IS NULL AND m.supersededAt IS NULL AND m.compressedAt IS NULL AND ${scope}
  AND coalesce(m.temporal, 'persistent') = 'persistent' AND coalesce(m.pinned, false) = false AND m.type <> 'decision'
  AND coalesce(m.lastAccessed, m.createdAt) < $unretrievedBefore
  AND NOT EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) }
WITH m LIMIT $limit
SET m.stale = true, m.staleReason = 'unretrieved', m.staleAt = $now
RETURN count(m) AS flagged`;

// Retrieved since, pinned since, or its end of validity moved past now: no longer stale.
export const UNFLAG = `
MATCH (m:Memory {stale: true})
WHERE ${scope} AND (
  (m.staleReason = 'unretrieved' AND (m.lastAccessed >= m.staleAt OR m.pinned = true))
  OR (m.staleReason = 'expired' AND (m.validUntil IS NULL OR m.validUntil >= $now)))
WITH m LIMIT $limit
SET m.stale = null, m.staleReason = null, m.staleAt = null
RETURN count(m) AS cleared`;

export interface DecayScope {
  namespaces: readonly string[] | null;
  limit: number;
  now: string;
}

const params = (s: DecayScope) => ({ namespaces: s.namespaces ? [...s.namespaces] : null, limit: neo4j.int(s.limit), now: s.now });

export async function expiryCandidates(
  executor: Executor,
  s: DecayScope,
  maxChars: number,
): Promise<Array<{ id: string; content: string; reference: string }>> {
  return executor.read('decay.expiry-candidates', EXPIRY_CANDIDATES, { ...params(s), maxChars: neo4j.int(maxChars) });
}

export async function setExpiry(
  executor: Executor,
  rows: ReadonlyArray<{ id: string; validUntil: string | null }>,
  now: string,
): Promise<number> {
  if (rows.length === 0) return 0;
  const [row] = await executor.write<{ parsed: number }>('decay.set-expiry', SET_EXPIRY, { rows: [...rows], now });
  return row?.parsed ?? 0;
}

export async function flagExpired(executor: Executor, s: DecayScope): Promise<number> {
  const [row] = await executor.write<{ flagged: number }>('decay.flag-expired', FLAG_EXPIRED, params(s));
  return row?.flagged ?? 0;
}

export async function flagUnretrieved(executor: Executor, s: DecayScope, unretrievedBefore: string): Promise<number> {
  const [row] = await executor.write<{ flagged: number }>('decay.flag-unretrieved', FLAG_UNRETRIEVED, { ...params(s), unretrievedBefore });
  return row?.flagged ?? 0;
}

export async function unflagStale(executor: Executor, s: DecayScope): Promise<number> {
  const [row] = await executor.write<{ cleared: number }>('decay.unflag', UNFLAG, params(s));
  return row?.cleared ?? 0;
}
