import { createHash } from 'node:crypto';

/** Only this kind is serialized per namespace: its decisions read what earlier extractions wrote. */
export const SERIALIZED_KIND = 'extract';

/**
 * The id of a namespace's extract lane: a Lock node claimers take a write lock on before leasing
 * an extract job, so two replicas never both lease one namespace's extract jobs. Hashed, so the
 * node (which outlives an erased namespace) carries no tenant name.
 */
export function extractLaneId(namespace: string): string {
  return `extract-lane:${createHash('sha256').update(namespace, 'utf8').digest('hex').slice(0, 32)}`;
}
