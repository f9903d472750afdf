import type { TxRunner } from '../executor.js';

export const DATABASE_NOW = `RETURN datetime.realtime().epochMillis AS ms`;

/**
 * The database's clock, read inside the transaction that uses it: every replica's leases,
 * heartbeats and expiries are measured on one clock, whatever the skew between their hosts.
 * Returned as a Date so timestamps keep the ISO format the queue compares as strings.
 */
export async function databaseNow(tx: TxRunner, override?: Date): Promise<Date> {
  if (override) return override;
  const [row] = await tx.run<{ ms: number }>(DATABASE_NOW);
  return new Date(row!.ms);
}
