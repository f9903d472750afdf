import { countingStep, IN_SCOPE, type PurgeStep } from './purge-step.js';

// Steps 5 and 6: finished jobs, by the time they finished (completedAt, or failedAt for dead ones).
const select = (status: 'completed' | 'dead', stamp: 'completedAt' | 'failedAt') => `
MATCH (j:Job)
WHERE j.status = '${status}' AND j.${stamp} < $cutoff AND ${IN_SCOPE('j')}
WITH j LIMIT $limit`;

const SELECT_COMPLETED = select('completed', 'completedAt');
const SELECT_DEAD = select('dead', 'failedAt');

export const PURGE_COMPLETED_JOBS = `${SELECT_COMPLETED} DETACH DELETE j RETURN count(*) AS deleted`;
export const PREVIEW_COMPLETED_JOBS = `${SELECT_COMPLETED} RETURN count(*) AS deleted`;
export const PURGE_DEAD_JOBS = `${SELECT_DEAD} DETACH DELETE j RETURN count(*) AS deleted`;
export const PREVIEW_DEAD_JOBS = `${SELECT_DEAD} RETURN count(*) AS deleted`;

export const purgeCompletedJobs: PurgeStep = countingStep('completedJobs', 'completedJob', PURGE_COMPLETED_JOBS, PREVIEW_COMPLETED_JOBS);
export const purgeDeadJobs: PurgeStep = countingStep('deadJobs', 'deadJob', PURGE_DEAD_JOBS, PREVIEW_DEAD_JOBS);
