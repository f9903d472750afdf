import type { JobRecord } from '../../db/index.js';
import type { Caller } from '../caller.js';

/** Queues the compress jobs of a namespace's old episodic sessions. */
export async function compressSessions(
  caller: Caller,
  request: { namespace?: string | null; olderThan: string; minSessions?: number | null; maxSessions?: number | null },
): Promise<{ sessions: number; jobs: JobRecord[] }> {
  const jobs = await caller.services.sessionUpkeep.compress({
    namespace: caller.namespaceFor(request.namespace, 'write'),
    olderThan: request.olderThan,
    minSessions: request.minSessions ?? 2,
    maxSessions: request.maxSessions ?? 20,
  });
  return { sessions: jobs.length, jobs };
}
