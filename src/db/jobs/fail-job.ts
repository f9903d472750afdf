import type { Executor } from '../executor.js';
import { redactStored } from '../../redaction/index.js';
import { databaseNow } from './clock.js';
import { ADD_JOB_USAGE, usageParam, type JobLlmUsage } from './llm-usage.js';

export const JOB_RETRY_CAP_MS = 10 * 60 * 1000;
export const MAX_ERROR_CHARS = 2000;
/** What of an error is read at all: redaction stays cheap whatever a server answered. */
const MAX_ERROR_INPUT_CHARS = 4 * MAX_ERROR_CHARS;

/**
 * An error as stored on the job (and shown in pipelineStatus): model and HTTP errors can echo
 * prompts, URLs with credentials or tokens, so it passes the stored-string redactor, then is cut.
 * Redacting before cutting means a secret across the cut is masked whole, never half kept.
 */
export function storedJobError(error: string): string {
  return redactStored(error.slice(0, MAX_ERROR_INPUT_CHARS)).slice(0, MAX_ERROR_CHARS);
}

// Attempts were counted at lease time: out of attempts, or a failure that no retry can mend →
// dead (kept for audit and requeue), otherwise pending again once the backoff has passed. A job
// whose memory was rewritten meanwhile (`rerunRequested`) is retried on the new content.
export const FAIL_JOB = `
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.leaseOwner = $owner
WITH j, ($permanent OR j.attempts >= j.maxAttempts) AND j.rerunRequested IS NULL AS exhausted
SET j.status = CASE WHEN exhausted THEN 'dead' ELSE 'pending' END,
    j.availableAt = CASE WHEN exhausted THEN j.availableAt ELSE $retryAt END,
    j.attempts = CASE WHEN j.rerunRequested IS NULL THEN j.attempts ELSE 0 END, j.rerunRequested = null,
    j.error = $error, j.failedAt = $now, j.updatedAt = $now, j.leaseOwner = null, j.leasedAt = null
${ADD_JOB_USAGE}
RETURN j.status AS status`;

/** Retry delay after the n-th failed attempt: base × 2^(n−1), capped. */
export function jobRetryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), JOB_RETRY_CAP_MS);
}

/** Records a failed attempt. Returns the new status ('pending' or 'dead'), or null when the lease was lost. */
export async function failJob(
  executor: Executor,
  id: string,
  owner: string,
  error: string,
  options: { attempts: number; retryBaseMs: number; now?: Date; llm?: JobLlmUsage; permanent?: boolean },
): Promise<'pending' | 'dead' | null> {
  const rows = await executor.writeTx('jobs.fail', async (tx) => {
    const now = await databaseNow(tx, options.now);
    const retryAt = new Date(now.getTime() + jobRetryDelayMs(options.attempts, options.retryBaseMs));
    return tx.run<{ status: 'pending' | 'dead' }>(FAIL_JOB, {
      id,
      owner,
      error: storedJobError(error),
      now: now.toISOString(),
      retryAt: retryAt.toISOString(),
      llm: usageParam(options.llm),
      permanent: options.permanent ?? false,
    });
  });
  return rows[0]?.status ?? null;
}
