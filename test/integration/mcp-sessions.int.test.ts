import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { callTool, newClient } from '../support/mcp.js';
import { forkService, type ServiceChild } from '../support/processes.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';
import { TEST_NEO4J_ENV } from '../support/test-neo4j.js';

/**
 * A scripted session end to end over MCP with the SDK client, across a crash: start → 12
 * prompts (the 10th fires a checkpoint) → the service process is killed → a new process
 * answers the recovery digest within its budget → end → the new process's worker runs the
 * session-end job (no model reachable: the deterministic summary).
 */
describe('a session over MCP survives a crash (service processes, SDK client)', () => {
  let services: Services;
  const children: ServiceChild[] = [];
  const ns = uniqueNamespace('mcp-sess');
  const env = {
    ...TEST_NEO4J_ENV,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DEFAULT_NAMESPACE: ns,
    OLLAMA_HOST: 'http://127.0.0.1:9',
    WORKER_POLL_MS: '200',
    SERVICE_PROCESS_WORKER_NAMESPACES: ns,
  };

  const connect = async (child: ServiceChild) => {
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(child.url!.replace(/\/graphql$/, '/mcp'))));
    return client;
  };

  beforeAll(() => {
    services = testServices();
  });

  afterAll(async () => {
    for (const child of children) await child.stop('SIGKILL');
    await cleanNamespace(services, ns);
    await closeServices(services);
  });

  it('start → 12 prompts → checkpoint → kill → recover within budget → end → summary job done', async () => {
    const first = await forkService(env);
    children.push(first);
    let client = await connect(first);
    expect(
      (await callTool(client, 'remember', { content: 'The invoice exporter runs every Monday at 02:00 UTC and uploads to S3.' })).isError,
    ).toBe(false);

    const started = await callTool(client, 'session_start', { session_id: 'e2e-1', project: 'billing', max_chars: 2_000 });
    expect(started.isError).toBe(false);
    expect(started.json.session_id).toBe('e2e-1');
    expect(started.json.context).toContain('invoice exporter');

    const fired: number[] = [];
    for (let i = 1; i <= 12; i += 1) {
      const prompt = await callTool(client, 'session_prompt', {
        session_id: 'e2e-1',
        prompt: `Step ${i}: why does the invoice exporter fail on Mondays?`,
      });
      expect(prompt.isError).toBe(false);
      expect(prompt.json.session.prompts).toBe(i);
      if (prompt.json.checkpoint) fired.push(i);
      if (i === 10) expect(prompt.json.checkpoint).toMatchObject({ trigger: 'periodic', prompt_count: 10 });
    }
    expect(fired).toEqual([10]);
    expect(
      (
        await callTool(client, 'session_tool_result', {
          session_id: 'e2e-1',
          text: 'cron log: exporter exited with code 137 (out of memory)',
        })
      ).json.session.tool_results,
    ).toBe(1);
    // remember with the session's id counts as a tool result too.
    expect(
      (await callTool(client, 'remember', { content: 'The exporter needs 2 GiB of memory, not 512 MiB.', session_id: 'e2e-1' })).isError,
    ).toBe(false);
    await client.close().catch(() => undefined);

    // The crash: no drain, no goodbye.
    await first.stop('SIGKILL');
    const second = await forkService(env);
    children.push(second);
    client = await connect(second);

    const recovered = await callTool(client, 'session_recover', { session_id: 'e2e-1', budget_chars: 600 });
    expect(recovered.isError).toBe(false);
    expect(recovered.json.digest.length).toBeLessThanOrEqual(600);
    expect(recovered.json).toMatchObject({ status: 'open', prompts: 12, tool_results: 2, checkpoints: 1, budget_chars: 600 });
    expect(recovered.json.checkpoint_id).toBeTruthy();
    expect(recovered.json.digest).toMatch(/^# Recovering session e2e-1 \(open\)\n12 prompts, 2 tool results/);
    expect(recovered.json.digest).toContain('Step 12');

    const ended = await callTool(client, 'session_end', { session_id: 'e2e-1' });
    expect(ended.json).toMatchObject({ status: 'ended', ended_now: true });
    expect(ended.json.summary_job_id).toBeTruthy();

    let status = await callTool(client, 'session_status', { session_id: 'e2e-1' });
    for (let waited = 0; !status.json.summary && waited < 60_000; waited += 500) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await callTool(client, 'session_status', { session_id: 'e2e-1' });
    }
    expect(status.json.summary).toMatchObject({
      summarizer: 'deterministic',
      request: 'Step 1: why does the invoice exporter fail on Mondays?',
      injected: 1,
      used: 1,
    });
    expect(status.json.summary.learned).toContain('exited with code 137');
    expect(status.json.summary.learned).toContain('needs 2 GiB of memory');
    // The job stores the summary as a memory of the project after writing it on the session, then completes.
    const jobStatus = async () =>
      (
        await services.executor.read<{ status: string }>('test', `MATCH (j:Job {id: $id}) RETURN j.status AS status`, {
          id: ended.json.summary_job_id,
        })
      )[0];
    await expect.poll(jobStatus, { timeout: 30_000, interval: 250 }).toEqual({ status: 'completed' });
    await client.close().catch(() => undefined);
  }, 300_000);
});
