import type { RepairAction } from '../../config/index.js';
import type { Diagnostics } from './diagnostics.js';

export type { RepairAction } from '../../config/index.js';

export interface Recommendation {
  action: RepairAction;
  reason: string;
}

/** What each diagnostic finding recommends, plus vector coverage (the embedding tracker repairs it). */
export function recommend(d: Diagnostics): Recommendation[] {
  const out: Recommendation[] = [];
  if (d.queue.deadRate > 0.01)
    out.push({ action: 'requeueDeadJobs', reason: `dead job rate ${(d.queue.deadRate * 100).toFixed(1)}% > 1%` });
  if (d.queue.staleLeases > 0) out.push({ action: 'releaseStaleLeases', reason: `${d.queue.staleLeases} stale leases` });
  if (d.indexes.vectorCoverage < 1)
    out.push({ action: 'reembedMissingVectors', reason: `vector coverage ${(d.indexes.vectorCoverage * 100).toFixed(1)}%` });
  if (d.indexes.fullTextCoverage < 1 || !d.indexes.online)
    out.push({
      action: 'checkFtsConsistency',
      reason: `full-text coverage ${(d.indexes.fullTextCoverage * 100).toFixed(1)}%, indexes ${d.indexes.online ? 'online' : 'not all online'}`,
    });
  if (d.storage.tombstoneRatio > 0.3)
    out.push({ action: 'triggerRetentionSweep', reason: `tombstones ${(d.storage.tombstoneRatio * 100).toFixed(1)}% of memories > 30%` });
  return out;
}
