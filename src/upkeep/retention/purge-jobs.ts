import { countingStep, IN_SCOPE, type PurgeStep } from './types.js';

// Steps 5 and 6: finished jobs, by the time they finished (completedAt, or failedAt for dead ones).
const select = (status: 'completed' | 'dead', stamp: 'completedAt' | 'failedAt') => `
MATCH (j:Job)
WHERE j.status = '${status}' AND j.${stamp} < $cutoff AND ${IN_SCOPE('j')}
WITH j LIMIT $limit`;

function jobStep(
  name: string,
  window: 'completedJob' | 'deadJob',
  status: 'completed' | 'dead',
  stamp: 'completedAt' | 'failedAt',
): PurgeStep {
  const SELECT = select(status, stamp);
  return countingStep(name, window, `${SELECT} DETACH DELETE j RETURN count(*) AS deleted`, `${SELECT} RETURN count(*) AS deleted`);
}

export const purgeCompletedJobs = jobStep('completedJobs', 'completedJob', 'completed', 'completedAt');
export const purgeDeadJobs = jobStep('deadJobs', 'deadJob', 'dead', 'failedAt');
