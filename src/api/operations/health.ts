import type { Caller } from '../caller.js';

/** Liveness and dependencies of the service, with the worker's state. */
export async function health(caller: Caller) {
  const report = await caller.checkHealth();
  return { ...report, worker: caller.services.workerState() };
}
