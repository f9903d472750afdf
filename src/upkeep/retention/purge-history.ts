import { counts, IN_SCOPE, type PurgeStep } from './types.js';

// Step 4, history: audit events older than the history window.
const SELECT = `
MATCH (h:HistoryEvent)
WHERE h.at < $cutoff AND ${IN_SCOPE('h')}
WITH h LIMIT $limit`;

export const purgeHistory: PurgeStep = {
  name: 'history',
  window: 'history',
  async purge(tx, scope) {
    const [row] = await tx.run<{ deleted: number }>(`${SELECT} DETACH DELETE h RETURN count(*) AS deleted`, { ...scope });
    return counts(Number(row?.deleted ?? 0));
  },
  async preview(tx, scope) {
    const [row] = await tx.run<{ deleted: number }>(`${SELECT} RETURN count(*) AS deleted`, { ...scope });
    return counts(Number(row?.deleted ?? 0));
  },
};
