import type { Executor } from '../../db/index.js';
import { maintenanceCounts } from '../../db/index.js';

/** The health diagnostics (queue, indexes, storage) of one namespace (null: every namespace). */
export interface Diagnostics {
  queue: { total: number; dead: number; deadRate: number; staleLeases: number };
  indexes: { online: boolean; activeMemories: number; fullTextCoverage: number; activeChunks: number; vectorCoverage: number };
  storage: { memories: number; tombstones: number; tombstoneRatio: number };
  /** Composite health in [0, 1]: the mean of the queue, index and storage scores. */
  score: number;
}

export const DIAGNOSTIC_THRESHOLDS = {
  /** Dead jobs share above which the queue scores 0. */
  deadRateZero: 0.1,
  /** Tombstone share above which storage scores 0. */
  tombstoneRatioZero: 0.6,
};

export async function diagnose(executor: Executor, namespace: string | null, leaseTimeoutMs: number): Promise<Diagnostics> {
  const staleBefore = new Date(Date.now() - leaseTimeoutMs).toISOString();
  const n = (v: unknown) => Number(v ?? 0);
  const { queue: q, memories: m, chunks: c, indexes: i } = await maintenanceCounts(executor, namespace, staleBefore);
  const total = n(q?.total);
  const dead = n(q?.dead);
  const memories = n(m?.memories);
  const active = n(m?.active);
  const chunks = n(c?.chunks);
  const diagnostics = {
    queue: { total, dead, deadRate: total > 0 ? dead / total : 0, staleLeases: n(q?.staleLeases) },
    indexes: {
      online: n(i?.total) > 0 && n(i?.online) === n(i?.total),
      activeMemories: active,
      fullTextCoverage: active > 0 ? n(m?.indexed) / active : 1,
      activeChunks: chunks,
      vectorCoverage: chunks > 0 ? n(c?.embedded) / chunks : 1,
    },
    storage: { memories, tombstones: n(m?.tombstones), tombstoneRatio: memories > 0 ? n(m?.tombstones) / memories : 0 },
    score: 0,
  };
  diagnostics.score = healthScore(diagnostics);
  return diagnostics;
}

export function healthScore(d: Diagnostics): number {
  const queue = (1 - Math.min(1, d.queue.deadRate / DIAGNOSTIC_THRESHOLDS.deadRateZero)) * (d.queue.staleLeases > 0 ? 0.5 : 1);
  const index = d.indexes.online ? Math.min(d.indexes.fullTextCoverage, d.indexes.vectorCoverage) : 0;
  const storage = 1 - Math.min(1, d.storage.tombstoneRatio / DIAGNOSTIC_THRESHOLDS.tombstoneRatioZero);
  return Math.round(((queue + index + storage) / 3) * 10_000) / 10_000;
}
