import { afterEach, describe, expect, it } from 'vitest';
import { failJob } from '../../src/db/jobs/index.js';
import { MAX_ERROR_CHARS } from '../../src/db/jobs/fail-job.js';
import { uniqueNamespace } from '../support/services.js';
import { graphqlClient } from '../support/graphql.js';
import { startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';

// Generated, never real: one secret per format a model server's error might echo.
const SECRETS = {
  aws: 'AKIAQWERTYUIOPASDF23',
  github: 'ghp_Zq8vR2mK9xL4tY7wB3nC6pD1fG5hJ0sA2eUo',
  url: 'https://ci-bot:S3cr3tPassw0rd!@llm.internal.example:11434/api/chat',
  prose: 'the password is Tr0ub4dor&3xyz',
};

describe('Job.error passes the stored-string redactor and is bounded', () => {
  let rig: DeepPathRig | undefined;

  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('an Ollama 500 echoing tokens, a URL with credentials and a prose password is stored masked, at most MAX_ERROR_CHARS, in Job.error and pipelineStatus', async () => {
    const namespace = uniqueNamespace('job-error');
    rig = await startDeepPath(namespace);
    const { services, fake, worker } = rig;
    // The provider keeps the first 200 characters of the body: the secrets are within them.
    const body = `rejected ${SECRETS.url} key ${SECRETS.aws} token ${SECRETS.github}; ${SECRETS.prose}. ${'noise '.repeat(10_000)}`;
    fake.respond(() => ({ status: 500, error: body }));
    const memory = await services.remember.remember({ content: 'The staging cluster is rebuilt every Sunday night.' });
    worker.start();

    const job = await waitForJob(services, memory.memory.id, ['dead'], { timeoutMs: 60_000 });
    expect(job.error).toMatch(/^attempt 3\/3: LlmHttpError: LLM server returned HTTP 500/);
    expect(job.error!.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    for (const [format, secret] of Object.entries(SECRETS)) {
      const core = format === 'url' ? 'S3cr3tPassw0rd' : format === 'prose' ? 'Tr0ub4dor' : secret;
      expect(job.error, format).not.toContain(core);
    }
    expect(job.error).toContain('@llm.internal.example:11434'); // the rest of the message is kept

    const gql = await graphqlClient(services);
    try {
      const { pipelineStatus } = await gql.data(`query ($ns: String) { pipelineStatus(namespace: $ns) { lastErrors { error } } }`, {
        ns: namespace,
      });
      expect(pipelineStatus.lastErrors[0].error).toBe(job.error);
    } finally {
      await gql.stop();
    }
  }, 120_000);

  it('a 100,000-character error is cut to MAX_ERROR_CHARS after redaction: a secret across the cut leaves no prefix behind', async () => {
    const namespace = uniqueNamespace('job-error-cut');
    rig = await startDeepPath(namespace);
    const { services } = rig;
    const jobId = `job-${namespace}`;
    await services.executor.write(
      'test.leased-job',
      `CREATE (:Job {id: $id, namespace: $ns, kind: 'extract', status: 'leased', leaseOwner: 'w1', attempts: 1, maxAttempts: 3,
                       createdAt: '2026-01-01T00:00:00.000Z', leasedAt: '2026-01-01T00:00:00.000Z'})`,
      { id: jobId, ns: namespace },
    );
    // The token starts 10 characters before the cut.
    const error = `${'x'.repeat(MAX_ERROR_CHARS - 10 - 1)} ${SECRETS.github} ${'y '.repeat(50_000)}`;
    expect(await failJob(services.executor, jobId, 'w1', error, { attempts: 1, retryBaseMs: 0 })).toBe('pending');
    const [row] = await services.executor.read<{ error: string }>('test.job-error', 'MATCH (j:Job {id: $id}) RETURN j.error AS error', {
      id: jobId,
    });
    expect(row!.error.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(row!.error).not.toContain('ghp_');
    expect(row!.error).not.toContain(SECRETS.github.slice(0, 8));
    expect(row!.error).toContain('[GITHUB'); // the placeholder, possibly cut
  }, 120_000);
});
