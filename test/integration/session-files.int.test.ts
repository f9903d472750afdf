import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { leaseJob } from '../../src/db/jobs/index.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { runSessionEnd } from '../../src/sessions/index.js';
import { graphqlClient, type GraphQLClient } from '../support/graphql.js';
import { callTool, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * Which files a session changed and what it reported done, from the records the agent hooks
 * store (one `file-edit` memory per Edit / Write / MultiEdit / NotebookEdit, the tool and file in
 * its metadata): the session-end job lists them in the summary, the next start context shows
 * them (GraphQL and MCP), a session that died shows them in its recovery digest.
 */
const START = `mutation($i: StartSessionInput!) { startSession(input: $i) { context chars maxChars sections { name items } } }`;
const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) { memory { id } } }`;
const END = `mutation($ns: String, $s: String!, $t: String) { endSession(namespace: $ns, sessionId: $s, transcript: $t) { status } }`;
const RECOVER = `query($ns: String, $s: String!) { recoverSession(namespace: $ns, sessionId: $s, budgetChars: 4000) { digest } }`;
const TOKEN = `ghp_${'Ab1'.repeat(12)}`;
const FILES_TITLE = '## Files changed last session';

describe('the files a session changed, in its summary and the next start context (real Neo4j)', () => {
  let services: Services;
  let server: RunningServer;
  let client: Client;
  let gql: GraphQLClient;
  const ns = uniqueNamespace('sess-files');
  const unavailable = new OllamaProvider({ host: 'http://127.0.0.1:9', model: 'none' });

  beforeAll(async () => {
    services = testServices({ SESSION_IDLE_TIMEOUT_MS: String(30 * 60_000) });
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
    client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url.replace(/\/graphql$/, '/mcp'))));
    gql = await graphqlClient(services);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gql?.stop();
    if (services) await cleanNamespace(services, ns);
    await server?.close();
    if (services) await closeServices(services);
  });

  const start = async (sessionId: string, maxChars = 9_000) =>
    (await gql.data<{ startSession: any }>(START, { i: { namespace: ns, sessionId, maxChars } })).startSession;
  let tool = 0;
  /** A file edit as the Claude Code hook sends it (integrations/claude-code/hooks: editRecord). */
  const edit = (sessionId: string, file: string, kind: string, added: string) =>
    gql.data(REMEMBER, {
      i: {
        namespace: ns,
        sessionId,
        externalId: `tool:toolu_${(tool += 1)}`,
        content: `File changed: ${file}: ${kind}, ${added.split('\n').length} lines added\n${added}`,
        source: 'claude-code',
        tags: ['tool-result', 'tool:edit', 'file-edit'],
        metadata: { tool: 'Edit', input: file, file, change: kind },
      },
    });
  const toolResult = (sessionId: string, content: string) =>
    gql.data(REMEMBER, {
      i: { namespace: ns, sessionId, externalId: `tool:toolu_${(tool += 1)}`, content, tags: ['tool-result', 'tool:bash'] },
    });
  const runJob = (jobId: string) =>
    runSessionEnd(
      {
        executor: services.executor,
        writer: services.remember,
        provider: unavailable,
        feedback: services.upkeep.feedback,
        logger: createLogger('silent'),
        settings: { llmTimeoutMs: 5_000 },
      },
      jobId,
    );
  const nextJob = (now?: Date) => leaseJob(services.executor, 'session-files-test', ['session_end'], { namespaces: [ns], now });
  /** Runs the session-end job of the namespace's pending session (no model: the deterministic summary). */
  const summarize = async () => {
    const job = await nextJob();
    expect(job).toMatchObject({ kind: 'session_end' });
    return runJob(job!.id);
  };

  it('ended: the summary lists each changed file once, newest first, redacted, with the last answer; the next start shows them', async () => {
    await start('edits-1');
    await edit('edits-1', 'src/exporter.ts', 'edited', 'RETRIES = 5 // the S3 upload needs more');
    await toolResult('edits-1', 'npm test: 42 tests of the invoice exporter passed in 3.1 s.');
    await edit('edits-1', 'README.md', 'written', 'The exporter retries five times before it gives up.');
    await edit('edits-1', `config/${TOKEN}.env`, 'created', 'EXPORT_BUCKET=invoices-prod');
    await edit('edits-1', 'src/exporter.ts', 'edited', 'const BACKOFF_MS = 2_000;');
    await edit('edits-1', 'docs/retries.md', 'written', 'Retries back off for two seconds between attempts.');
    const transcript = [
      'User: Make the exporter retry five times and document it.',
      'Assistant: Changing the retry count.',
      '[used Edit: src/exporter.ts]',
      'Assistant: Done: the exporter retries 5 times with a 2 s backoff, and README.md and docs/retries.md say so.',
      'User: Thanks.',
    ].join('\n');
    await gql.data(END, { ns, s: 'edits-1', t: transcript });
    const result = await summarize();
    expect(result).toMatchObject({ outcome: 'summarized', filesChanged: 4 });

    const s = (await services.sessions.get(ns, 'edits-1'))!;
    // Newest first, each once: src/exporter.ts was edited first and last.
    expect(s.summaryFiles).toHaveLength(4);
    expect(s.summaryFiles[0]).toBe('docs/retries.md');
    expect(s.summaryFiles[1]).toBe('src/exporter.ts');
    expect(s.summaryFiles[2]).toMatch(/^config\/.+\.env$/);
    expect(s.summaryFiles[3]).toBe('README.md');
    expect(s.summaryFilesMore).toBe(0);
    expect(JSON.stringify(s)).not.toContain(TOKEN);
    expect(s.summaryCompleted).toBe('Done: the exporter retries 5 times with a 2 s backoff, and README.md and docs/retries.md say so.');
    // GraphQL's session summary and MCP's session_status carry them.
    const viaGql = (
      await gql.data<{ session: any }>(
        `query($ns: String, $s: String!) { session(namespace: $ns, sessionId: $s) { summary { filesChanged moreFilesChanged completed } } }`,
        { ns, s: 'edits-1' },
      )
    ).session.summary;
    expect(viaGql).toEqual({ filesChanged: s.summaryFiles, moreFilesChanged: 0, completed: s.summaryCompleted });
    const status = await callTool(client, 'session_status', { session_id: 'edits-1', namespace: ns });
    expect(status.json.summary).toMatchObject({ files_changed: s.summaryFiles, more_files_changed: 0, completed: s.summaryCompleted });
    // The summary memory says it too (recall and search find it).
    const [summary] = await services.executor.read<{ content: string }>(
      'test',
      `MATCH (m:Memory {namespace: $ns, sessionId: 'edits-1'}) WHERE 'session-summary' IN m.tags RETURN m.content AS content`,
      { ns },
    );
    expect(summary!.content).toContain(`Files changed: docs/retries.md, src/exporter.ts, ${s.summaryFiles[2]}, README.md`);
    expect(summary!.content).toContain("Completed (the agent's last report): Done: the exporter retries 5 times");

    // A re-run of the job (a lost reply) after a late edit record: the same summary, stored once.
    const job = (
      await services.executor.read<{ id: string }>(
        'test',
        `MATCH (j:Job {namespace: $ns, kind: 'session_end', sessionId: 'edits-1'}) RETURN j.id AS id`,
        { ns },
      )
    )[0]!;
    await edit('edits-1', 'src/late.ts', 'edited', 'export const LATE = true;');
    await runJob(job.id);
    expect((await services.sessions.get(ns, 'edits-1'))!.summaryFiles).toEqual(s.summaryFiles);
    const summaries = await services.executor.read<{ n: number }>(
      'test',
      `MATCH (m:Memory {namespace: $ns, sessionId: 'edits-1'}) WHERE 'session-summary' IN m.tags AND m.deletedAt IS NULL RETURN count(m) AS n`,
      { ns },
    );
    expect(Number(summaries[0]!.n)).toBe(1);

    const next = await start('edits-2', 4_000);
    const at = next.context.indexOf(`${FILES_TITLE} (session edits-1)`);
    expect(at).toBeGreaterThan(next.context.indexOf('## What the last session learned (session edits-1'));
    expect(next.context.slice(at)).toMatch(
      /^## Files changed last session \(session edits-1\)\n- docs\/retries\.md\n- src\/exporter\.ts\n- config\//,
    );
    expect(next.context.indexOf('- src/exporter.ts')).toBe(next.context.lastIndexOf('- src/exporter.ts'));
    expect(next.context).toContain("completed (the agent's last report): Done: the exporter retries 5 times");
    expect(next.context).not.toContain(TOKEN);
    expect(next.sections).toContainEqual({ name: 'files', items: 4 });
    expect(next.chars).toBeLessThanOrEqual(4_000);

    // MCP's session_start answers the same section (the one src/api operation).
    const mcp = await callTool(client, 'session_start', { session_id: 'edits-3', namespace: ns, max_chars: 9_500 });
    expect(mcp.isError).toBe(false);
    expect(mcp.json.context).toContain(`${FILES_TITLE} (session edits-1)\n- docs/retries.md\n- src/exporter.ts`);
    expect(mcp.json.context.length).toBeLessThanOrEqual(9_500);
    expect(mcp.json.sections).toContainEqual({ name: 'files', items: 4 });
  }, 180_000);

  it('a session without edits shows no files section; a small budget keeps the context within it', async () => {
    // Opened above: a tool result, no edit, then ended.
    await toolResult('edits-2', 'The exporter cron runs every Monday at 02:00 UTC.');
    await gql.data(END, { ns, s: 'edits-2' });
    expect(await summarize()).toMatchObject({ sessionId: 'edits-2', filesChanged: 0 });
    const next = await start('plain-next');
    expect(next.context).toContain('## What the last session learned (session edits-');
    expect(next.context).not.toContain(FILES_TITLE);
    expect(next.sections).toContainEqual({ name: 'files', items: 0 });
    const small = await start('plain-small', 200);
    expect(small.chars).toBeLessThanOrEqual(200);
  }, 120_000);

  it('a session that died: its recovery digest lists its files; swept idle, its summary has them and the last turn-end answer', async () => {
    await start('died-1');
    await edit('died-1', 'src/importer.ts', 'edited', 'const BATCH = 500;');
    // The same line added to two files: two records, two files (not one deduplicated memory).
    await edit('died-1', 'src/ledger.ts', 'edited', 'const BATCH = 500;');
    // The Stop hook's checkpoint: the turn's tail as the hook writes it.
    await gql.data(`mutation($i: CheckpointInput!) { checkpoint(input: $i) { id } }`, {
      i: {
        namespace: ns,
        sessionId: 'died-1',
        trigger: 'agent',
        digest:
          '## At the end of a turn\nFiles changed: src/importer.ts, src/ledger.ts\n\nUser: batch the importer\nAssistant: The importer now writes 500 rows per batch into ledger_v2.',
      },
    });
    const recovered = (await gql.data<{ recoverSession: any }>(RECOVER, { ns, s: 'died-1' })).recoverSession.digest;
    expect(recovered).toContain('## Files changed\n- src/ledger.ts\n- src/importer.ts');

    const later = new Date(Date.now() + 31 * 60_000);
    expect(await services.sessions.sweepIdle([ns], later)).toBeGreaterThanOrEqual(1);
    // The sessions opened above and never ended were swept too: every job is run.
    let died: Awaited<ReturnType<typeof runJob>> | undefined;
    for (let job = await nextJob(later); job; job = await nextJob(later)) {
      const r = await runJob(job.id);
      if (r.sessionId === 'died-1') died = r;
    }
    expect(died).toMatchObject({ outcome: 'summarized', filesChanged: 2 });
    const s = (await services.sessions.get(ns, 'died-1'))!;
    expect(s).toMatchObject({ status: 'ended', endReason: 'idle', summaryFiles: ['src/ledger.ts', 'src/importer.ts'] });
    expect(s.summaryCompleted).toBe('The importer now writes 500 rows per batch into ledger_v2.');
  }, 120_000);
});
