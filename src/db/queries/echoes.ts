import type { Executor } from '../executor.js';
import { recordEvents } from '../history.js';

/**
 * The echo guard's trail (src/write/echo-guard.ts): one `echo` event per remember whose text
 * repeated memories of its namespace, about the first memory it repeated, and their counts.
 */
export interface EchoEventWrite {
  /** Made before the transaction. */
  id: string;
  memoryId: string;
  actor: string;
  /** `skipped` (nothing new, nothing stored) or `trimmed` (the new lines stored). */
  outcome: 'skipped' | 'trimmed';
  details: { lines: number; memoryIds: string[] };
}

export async function recordEchoes(executor: Executor, events: readonly EchoEventWrite[], now: string): Promise<void> {
  await executor.writeTx('remember.echo', (tx) =>
    recordEvents(
      tx,
      events.map((e) => ({
        id: e.id,
        event: 'echo' as const,
        name: 'echo recognized',
        about: { memoryId: e.memoryId },
        actor: e.actor,
        outcome: e.outcome,
        details: e.details,
      })),
      now,
    ),
  );
}

// The namespace's echo events since a time (range seek on namespace and time).
export const ECHO_STATS = `
MATCH (h:HistoryEvent {namespace: $namespace})
WHERE h.at >= $since AND h.event = 'echo'
RETURN count(h) AS remembers, count(CASE WHEN h.outcome = 'skipped' THEN 1 END) AS skipped, max(h.at) AS lastAt`;

export interface EchoStats {
  /** Remembers whose text repeated memories of the namespace. */
  remembers: number;
  /** Of them, those that left nothing new (nothing stored). */
  skipped: number;
  lastAt: string | null;
  since: string;
}

export async function echoStats(executor: Executor, namespace: string, since: string): Promise<EchoStats> {
  const [row] = await executor.read<Omit<EchoStats, 'since'>>('remember.echo-stats', ECHO_STATS, { namespace, since });
  return { remembers: row?.remembers ?? 0, skipped: row?.skipped ?? 0, lastAt: row?.lastAt ?? null, since };
}
