import type { Executor } from '../db/index.js';
import { expiryCandidates, flagExpired, flagUnretrieved, setExpiry, unflagStale } from '../db/index.js';
import { parseExpiry } from '../text/index.js';

/** Rows each step of one pass handles at most. */
export const DECAY_BATCH = 500;
/** Characters of a memory the expiry parser reads (its windows are short anyway). */
const EXPIRY_TEXT_CHARS = 20_000;

export interface DecaySettings {
  unretrievedDays: number;
  namespaces: readonly string[] | null;
}

export interface DecayReport {
  expiryParsed: number;
  expiryChecked: number;
  flaggedExpired: number;
  flaggedUnretrieved: number;
  cleared: number;
  at: string;
}

/**
 * One decay pass: end of validity parsed for temporal memories that have none (against when
 * they happened), then stale flags set (expired; persistent and not retrieved within
 * `unretrievedDays`) and lifted where they no longer hold. `full` says a step filled its batch.
 */
export async function runDecayPass(
  executor: Executor,
  settings: DecaySettings,
  now = new Date(),
): Promise<DecayReport & { full: boolean }> {
  const scope = { namespaces: settings.namespaces, limit: DECAY_BATCH, now: now.toISOString() };
  const candidates = await expiryCandidates(executor, scope, EXPIRY_TEXT_CHARS);
  const parsed = candidates.map((c) => ({ id: c.id, validUntil: parseExpiry(c.content, new Date(c.reference)) }));
  const expiryParsed = await setExpiry(executor, parsed, scope.now);
  const cleared = await unflagStale(executor, scope);
  const flaggedExpired = await flagExpired(executor, scope);
  const unretrievedBefore = new Date(now.getTime() - settings.unretrievedDays * 86_400_000).toISOString();
  const flaggedUnretrieved = await flagUnretrieved(executor, scope, unretrievedBefore);
  const full = [candidates.length, cleared, flaggedExpired, flaggedUnretrieved].some((n) => n >= DECAY_BATCH);
  return { expiryParsed, expiryChecked: candidates.length, flaggedExpired, flaggedUnretrieved, cleared, at: scope.now, full };
}
