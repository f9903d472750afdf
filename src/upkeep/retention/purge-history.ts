import { countingStep, IN_SCOPE, type PurgeStep } from './types.js';

// Step 4, history: audit events older than the history window.
const SELECT = `
MATCH (h:HistoryEvent)
WHERE h.at < $cutoff AND ${IN_SCOPE('h')}
WITH h LIMIT $limit`;

export const purgeHistory: PurgeStep = countingStep(
  'history',
  'history',
  `${SELECT} DETACH DELETE h RETURN count(*) AS deleted`,
  `${SELECT} RETURN count(*) AS deleted`,
);
