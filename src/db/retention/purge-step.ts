import type { TxRunner } from '../executor.js';

/**
 * Retention's purge steps: each deletes one kind of expired record in its own short transaction,
 * at most `limit` rows, and previews the same count read-only (a dry run). The sweep's order and
 * windows are upkeep's (src/upkeep/retention/run-retention.ts).
 */

/** What one purge step may touch: one namespace (null = every namespace), older than cutoff, at most limit rows. */
export interface PurgeScope {
  namespace: string | null;
  /** ISO timestamp: records stamped before it are expired (timestamps are stored as ISO strings). */
  cutoff: string;
  /** Sent as a Neo4j integer (LIMIT refuses a float). */
  limit: number;
}

export interface StepCounts {
  deleted: number;
  orphanedEntities: number;
  orphanedRelations: number;
}

export type RetentionWindow = 'tombstone' | 'history' | 'completedJob' | 'deadJob';

/** One step of the purge order: its own short transaction, at most `limit` rows. */
export interface PurgeStep {
  name: string;
  window: RetentionWindow;
  purge(tx: TxRunner, scope: PurgeScope): Promise<StepCounts>;
  /** What `purge` would delete now (dry run), read-only. */
  preview(tx: TxRunner, scope: PurgeScope): Promise<StepCounts>;
}

export const counts = (deleted: number, orphanedEntities = 0, orphanedRelations = 0): StepCounts => ({
  deleted,
  orphanedEntities,
  orphanedRelations,
});

/** Scope filter shared by every step: `$namespace` null means every namespace (operators only). */
export const IN_SCOPE = (v: string) => `($namespace IS NULL OR ${v}.namespace = $namespace)`;

/** A step whose whole work is one delete query and one count query, each returning `deleted`. */
export function countingStep(name: string, window: RetentionWindow, deleteCypher: string, previewCypher: string): PurgeStep {
  const run = async (tx: TxRunner, cypher: string, scope: PurgeScope) => {
    const [row] = await tx.run<{ deleted: number }>(cypher, { ...scope });
    return counts(Number(row?.deleted ?? 0));
  };
  return { name, window, purge: (tx, scope) => run(tx, deleteCypher, scope), preview: (tx, scope) => run(tx, previewCypher, scope) };
}
