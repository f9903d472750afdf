import type { Executor } from '../db/index.js';
import { ERASE_STEPS, eraseStep } from '../db/index.js';
import { ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { checkNamespace } from './validate.js';

/** Rows per auto-commit transaction while erasing a namespace. */
export const ERASE_BATCH_ROWS = 1_000;

export interface EraseReport {
  namespace: string;
  /** Nodes deleted per label, in the order erased; 0 everywhere on a repeated call. */
  deleted: Array<{ label: string; count: number }>;
  total: number;
}

/**
 * deleteNamespace: the caller repeats the namespace as `confirm`, so a typo or a default
 * cannot erase a tenant. Progress is logged per step; a repeated call finishes an interrupted one.
 */
export async function eraseNamespace(executor: Executor, logger: Logger, namespace: string, confirm: string): Promise<EraseReport> {
  checkNamespace(namespace);
  if (confirm !== namespace) throw new ValidationError('confirm must repeat the namespace to delete', { field: 'confirm' });
  const counts = new Map<string, number>();
  for (const step of ERASE_STEPS) {
    const deleted = await eraseStep(executor, step, namespace, ERASE_BATCH_ROWS);
    counts.set(step.label, (counts.get(step.label) ?? 0) + deleted);
    if (deleted > 0) logger.info({ namespace, label: step.label, deleted }, 'erasing namespace');
  }
  const deleted = [...counts].map(([label, count]) => ({ label, count }));
  const total = deleted.reduce((sum, d) => sum + d.count, 0);
  logger.info({ namespace, total }, 'namespace erased');
  return { namespace, deleted, total };
}
