import { countingStep, IN_SCOPE, type PurgeStep } from './purge-step.js';

// Step 4, history: audit events older than the history window.
const SELECT = `
MATCH (h:HistoryEvent)
WHERE h.at < $cutoff AND ${IN_SCOPE('h')}
WITH h LIMIT $limit`;

export const PURGE_EXPIRED_HISTORY = `${SELECT} DETACH DELETE h RETURN count(*) AS deleted`;
export const PREVIEW_EXPIRED_HISTORY = `${SELECT} RETURN count(*) AS deleted`;

export const purgeHistory: PurgeStep = countingStep('history', 'history', PURGE_EXPIRED_HISTORY, PREVIEW_EXPIRED_HISTORY);
