/**
 * Text that is not well-formed (controls, surrogate halves, bidi and zero-width characters), the
 * way pasted text carries it, through every transport: GraphQL, MCP and the in-process services
 * clean it with the one module (src/text/well-formed.ts), store the same text, and answer one
 * outcome per batch item. See docs/text-input.md.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeContent } from '../../src/write/normalize.js';
import { isCleanText } from '../support/well-formed-text.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { callTool, newClient } from '../support/mcp.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const KEY = 'text-input-rw-0123456789abcdef';
const MAX_CONTENT_CHARS = 2_000;
const BATCH = `mutation B($i: [RememberInput!]!) {
  rememberBatch(inputs: $i) { index error { code message } result { memory { id content } dedup { action } textCleanup { kind count } } }
}`;

/** Words of real turns, and every kind of character the module acts on (and a few it keeps). */
const WORDS = [
  'Ada',
  'moved',
  'billing',
  'to',
  'Berlin',
  'the',
  'spec',
  'says',
  'width',
  '3',
  'cm',
  'naïve',
  'café',
  '中文',
  '😀',
  '👩\u200d💻',
  'שלום',
  'e\u0301',
];
const SPECIALS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u0090',
  '\u000b',
  '\u000c',
  '\r',
  '\r\n',
  '\t',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200b',
  '\u2060',
  '\ufeff',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u200d',
  '\u200e',
];
const piece = fc.oneof(
  { arbitrary: fc.constantFrom(...WORDS), weight: 3 },
  { arbitrary: fc.constantFrom(...SPECIALS), weight: 2 },
  { arbitrary: fc.constant(' '), weight: 2 },
);
const text = fc.array(piece, { minLength: 1, maxLength: 30 }).map((p) => p.join(''));

/** A memory's outcome as each transport answers it, in one shape. */
interface Outcome {
  code: string | null;
  id: string | null;
  action: string | null;
  cleanup: Array<{ kind: string; count: number }>;
}

describe('well-formed text on every transport', () => {
  let http: TestHttpServer;
  let mcp: Client;
  const ns = {
    graphql: uniqueNamespace('text-gql'),
    mcp: uniqueNamespace('text-mcp'),
    inProcess: uniqueNamespace('text-proc'),
    batch: uniqueNamespace('text-batch'),
    mcpBatch: uniqueNamespace('text-mcpb'),
    tools: uniqueNamespace('text-tools'),
  };
  const forbidden = uniqueNamespace('text-forbidden');

  const contentOf = async (id: string): Promise<string> =>
    (
      await http.services.executor.read<{ content: string }>('test.content', 'MATCH (m:Memory {id: $id}) RETURN m.content AS content', {
        id,
      })
    )[0]!.content;
  const memoryCount = async (namespace: string): Promise<number> =>
    Number(
      (
        await http.services.executor.read<{ n: number }>('test.count', 'MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS n', {
          namespace,
        })
      )[0]!.n,
    );

  beforeAll(async () => {
    http = await startTestHttpServer({
      DEFAULT_NAMESPACE: ns.graphql,
      MAX_CONTENT_CHARS: String(MAX_CONTENT_CHARS),
      API_KEYS: JSON.stringify([{ key: KEY, name: 'text-agent', namespaces: Object.values(ns) }]),
    });
    mcp = newClient();
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${http.origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }),
    );
  });
  afterAll(async () => {
    await mcp?.close();
    for (const namespace of [...Object.values(ns), forbidden]) await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  const viaGraphql = async (texts: string[]): Promise<Outcome[]> => {
    const { status, body } = await http.post(
      { query: BATCH, variables: { i: texts.map((content) => ({ content, namespace: ns.graphql })) } },
      { authorization: `Bearer ${KEY}` },
    );
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.errors).toBeUndefined();
    return body.data.rememberBatch.map((item: any, index: number) => {
      expect(item.index).toBe(index);
      return {
        code: item.error?.code ?? null,
        id: item.result?.memory.id ?? null,
        action: item.result?.dedup.action ?? null,
        cleanup: item.result?.textCleanup ?? [],
      };
    });
  };
  const viaMcp = async (texts: string[]): Promise<Outcome[]> => {
    const answer = await callTool(mcp, 'remember_batch', {
      namespace: ns.mcp,
      memories: texts.map((content) => ({ content })),
      max_tokens: 20_000,
    });
    expect(answer.isError, answer.text.slice(0, 300)).toBe(false);
    return answer.json.memories.map((item: any, index: number) => {
      expect(item.index).toBe(index);
      return { code: item.error?.code ?? null, id: item.id ?? null, action: item.dedup ?? null, cleanup: item.text_cleanup ?? [] };
    });
  };
  const inProcess = async (texts: string[]): Promise<Outcome[]> => {
    const outcomes = await http.services.remember.rememberBatch(texts.map((content) => ({ content, namespace: ns.inProcess })));
    return outcomes.map((o, index) => {
      expect(o.index).toBe(index);
      return {
        code: o.error?.code ?? null,
        id: o.result?.memory.id ?? null,
        action: o.result?.dedup.action ?? null,
        cleanup: o.result?.textCleanup ?? [],
      };
    });
  };

  it('property: random text with planted controls, surrogate halves and bidi marks stores the same clean text over GraphQL, MCP and in-process, one outcome per item', async () => {
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), async (texts) => {
        const answers = [await viaGraphql(texts), await viaMcp(texts), await inProcess(texts)];
        for (const [i, sent] of texts.entries()) {
          const [g, m, p] = answers.map((a) => a[i]!);
          const expected = normalizeContent(sent).storageContent;
          // The same outcome on all three transports, and never a lost item with printable content.
          expect([m!.code, p!.code], JSON.stringify(sent)).toEqual([g!.code, g!.code]);
          expect([m!.action, p!.action], JSON.stringify(sent)).toEqual([g!.action, g!.action]);
          expect([m!.cleanup, p!.cleanup], JSON.stringify(sent)).toEqual([g!.cleanup, g!.cleanup]);
          if (expected.trim() === '') {
            expect(g!.code).toBe('BAD_USER_INPUT');
            continue;
          }
          expect(g!.code, JSON.stringify(sent)).toBeNull();
          const contents = await Promise.all([g!.id!, m!.id!, p!.id!].map(contentOf));
          expect(contents[1]).toBe(contents[0]);
          expect(contents[2]).toBe(contents[0]);
          expect(isCleanText(contents[0]!)).toBe(true);
          // A new memory holds exactly the normalized text (a duplicate points at the earlier one).
          if (g!.action === 'STORED_NEW') {
            expect(contents[0]).toBe(expected);
            stored += 1;
          }
        }
      }),
      { numRuns: 25 },
    );
    expect(stored).toBeGreaterThan(5);
  }, 300_000);

  /**
   * 50 turns of a conversation, each about something else (near-identical turns of one batch would be
   * stored as near-duplicates); the spec pasted from a word processor holds vertical tabs and a form feed.
   */
  const TURNS = [
    'The user opened by asking whether the billing rollout could start before the quarter closes.',
    'They said the invoicing team in Lisbon wants two weeks of notice before any cutover.',
    'Stripe webhooks currently land on a single Node process that nobody wants to restart.',
    "The legacy ledger runs on an Oracle 11g box under someone's desk in the Dublin office.",
    'Refunds above five hundred euros still need a manual approval from finance.',
    'Their on-call rota has only three engineers, so weekend deploys are off the table.',
    'The user prefers feature flags over long-lived branches for the new tax engine.',
    'Currency rounding bugs hit Japanese yen customers twice last spring.',
    'A load test in March showed the PDF renderer falling over at forty requests per second.',
    'Customer support asked for a banner warning users about the maintenance window.',
    'The Kafka topic for payment events keeps messages for only seven days.',
    'Marketing wants the new pricing page live on the same day as the migration.',
    'Dunning emails are sent by a cron job that sometimes fires twice after daylight saving changes.',
    'The audit firm needs read access to the reconciliation reports by the end of May.',
    'An intern wrote the original VAT calculator in a spreadsheet macro in 2016.',
    'The team agreed to archive invoices older than ten years to cold storage on Glacier.',
    'Chargebacks from the Brazilian acquirer arrive as CSV files over SFTP every morning.',
    "The user's manager, Henrik, signs off on anything that touches revenue recognition.",
    'Grafana dashboards for checkout latency were broken since the Prometheus upgrade.',
    'Enterprise customers are billed annually in advance, everyone else monthly in arrears.',
    'A coupon bug once gave away free lifetime subscriptions to three hundred accounts.',
    'The sandbox environment shares a database with staging, which confuses the testers.',
    'They plan to replace the homegrown retry queue with SQS and a dead-letter queue.',
    'Credit notes must reference the original invoice number for the German tax office.',
    'Mobile app purchases go through Apple and Google and never touch the billing service.',
    'The user joked that the billing code is older than half of the engineering team.',
    'Usage metering for API calls is aggregated hourly in ClickHouse.',
    'Sales tax in the United States is delegated to Avalara through a nightly batch.',
    'A penetration test found card numbers in debug logs, which were purged the same week.',
    'The finance controller asked for idempotency keys on every payment request.',
    'Proration when customers switch plans mid-cycle has never matched the spreadsheet model.',
    'The new service will be written in Go, replacing a Ruby monolith.',
    'Past due accounts are suspended after twenty-one days, not thirty as the docs claim.',
    "The user wants a dry run that replays last month's invoices against the new engine.",
    'Exchange rates are fetched once a day from the European Central Bank feed.',
    'Partners in India receive payouts through a local bank with a two-day settlement delay.',
    'Nobody remembers why the free tier is capped at exactly 1,337 requests.',
    "The product owner insists receipts include the customer's purchase order number.",
    'Database backups of the ledger are tested by restoring them every Sunday night.',
    'The user asked for a rollback plan that can be executed in under fifteen minutes.',
    'A Slack channel called billing-war-room will be opened for the launch week.',
    'Gift cards are a separate product line handled by an external vendor in Toronto.',
    'The compliance officer wants SOC 2 evidence collected automatically during the rollout.',
    'Subscription pauses were added after customers complained during the pandemic.',
    'Invoices in Mexico must be stamped by a government-approved certification provider.',
    'The user mentioned that the old payment gateway contract expires in November.',
    "Accessibility review flagged the checkout form's error messages as unreadable by screen readers.",
    'Load balancer health checks currently hit an endpoint that queries the database.',
    'A shadow mode will compare old and new totals for every invoice during the first month.',
    'The conversation ended with the user promising to send the migration runbook on Friday.',
  ];
  const turns = (): string[] => TURNS.map((turn, i) => `Turn ${i}: ${turn}`);

  it('a GraphQL batch of 50 with items 3, 17 and 42 bad in three ways stores the other 47 and answers three coded errors at their indexes', async () => {
    const inputs: Array<Record<string, unknown>> = turns().map((content) => ({ content, namespace: ns.batch }));
    inputs[5]!.content = 'Product spec pasted:\u000bWidth: 3 cm\u000bHeight: 4 cm\u000cPage two';
    inputs[8]!.content = 'Log line\u0000 with NUL\u0000 bytes from a binary-ish log';
    inputs[11]!.content = 'Old Mac file\rsecond line\rthird line';
    inputs[20]!.content = 'Chat app text: user \u202enimda\u202c said pass\u200bword rotation is due';
    inputs[25]!.content = `Cut in the middle of an emoji ${'😀'.slice(0, 1)} here`;
    // Three different ways to be bad: nothing printable, too long, a namespace the key may not write.
    inputs[3]!.content = '\u0000\u202e\u200b\u0007\ufeff';
    inputs[17]!.content = 'long turn '.repeat(MAX_CONTENT_CHARS / 10 + 1);
    inputs[42]!.namespace = forbidden;

    const { status, body } = await http.post({ query: BATCH, variables: { i: inputs } }, { authorization: `Bearer ${KEY}` });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const items: any[] = body.data.rememberBatch;
    expect(items.map((item) => item.index)).toEqual([...Array(50).keys()]);
    const errors = items.filter((item) => item.error).map((item) => [item.index, item.error.code]);
    expect(errors).toEqual([
      [3, 'BAD_USER_INPUT'],
      [17, 'LIMIT_EXCEEDED'],
      [42, 'FORBIDDEN'],
    ]);
    expect(items[3].error.message).toMatch(/control, bidi and invisible characters/);
    const stored = items.filter((item) => item.result);
    expect(stored).toHaveLength(47);
    expect(new Set(stored.map((item) => item.result.memory.id)).size).toBe(47);
    expect(await memoryCount(ns.batch)).toBe(47);
    expect(await memoryCount(forbidden)).toBe(0);

    expect(items[5].result.memory.content).toBe('Product spec pasted:\nWidth: 3 cm\nHeight: 4 cm\nPage two');
    expect(items[5].result.textCleanup).toEqual([]);
    expect(items[8].result.memory.content).toBe('Log line with NUL bytes from a binary-ish log');
    expect(items[8].result.textCleanup).toEqual([{ kind: 'control', count: 2 }]);
    expect(items[11].result.memory.content).toBe('Old Mac file\nsecond line\nthird line');
    expect(items[20].result.memory.content).toBe('Chat app text: user nimda said password rotation is due');
    expect(items[20].result.textCleanup).toEqual([
      { kind: 'bidi', count: 2 },
      { kind: 'invisible', count: 1 },
    ]);
    expect(items[25].result.memory.content).toBe('Cut in the middle of an emoji \ufffd here');
    expect(items[25].result.textCleanup).toEqual([{ kind: 'lone_surrogate', count: 1 }]);
  }, 120_000);

  it('MCP remember_batch: the same batch, one outcome per item with its index; a bad date or type refuses its item only', async () => {
    const memories: Array<Record<string, unknown>> = turns().map((content) => ({ content: `MCP ${content}` }));
    memories[5]!.content = 'MCP product spec:\u000bWidth: 3 cm';
    memories[3]!.content = '\u0000\u202e\u200b';
    memories[17]!.content = 'long turn '.repeat(MAX_CONTENT_CHARS / 10 + 1);
    memories[42]!.occurred_at = 'yesterday';
    memories[43]!.type = 'villain';
    // The default answer budget holds all 50 outcomes.
    const answer = await callTool(mcp, 'remember_batch', { namespace: ns.mcpBatch, memories });
    expect(answer.isError, answer.text.slice(0, 300)).toBe(false);
    expect(answer.json.omitted).toBeUndefined();
    const items: any[] = answer.json.memories;
    expect(items.map((item) => item.index)).toEqual([...Array(50).keys()]);
    expect(items.filter((item) => item.error).map((item) => [item.index, item.error.code])).toEqual([
      [3, 'BAD_USER_INPUT'],
      [17, 'LIMIT_EXCEEDED'],
      [42, 'BAD_USER_INPUT'],
      [43, 'BAD_USER_INPUT'],
    ]);
    expect(await memoryCount(ns.mcpBatch)).toBe(46);
    expect(await contentOf(items[5].id)).toBe('MCP product spec:\nWidth: 3 cm');
    expect(items[5]).toEqual({ index: 5, id: expect.any(String), dedup: 'STORED_NEW' });
    expect(items[3].error.message).toMatch(/control, bidi and invisible characters/);
  }, 120_000);

  it('a batch over MAX_BATCH_SIZE is the one refused whole, with LIMIT_EXCEEDED', async () => {
    const { body } = await http.post(
      { query: BATCH, variables: { i: Array.from({ length: 501 }, (_, i) => ({ content: `x ${i}`, namespace: ns.batch })) } },
      { authorization: `Bearer ${KEY}` },
    );
    expect(body.errors?.map((e: any) => e.extensions?.code)).toEqual(['LIMIT_EXCEEDED']);
  });

  it('MCP create_entities, create_relations and add_observations clean their text and answer per item with its index', async () => {
    const made = await callTool(mcp, 'create_entities', {
      namespace: ns.tools,
      entities: [
        { name: 'Ada\u0000 Lovelace\u202e', type: 'person' },
        { name: 'Eve', type: 'villain' },
        { name: 'Acme\u200b Corp', type: 'organization', description: 'Makes\u000banvils' },
      ],
    });
    expect(made.isError, made.text).toBe(false);
    expect(made.json.entities.map((e: any) => [e.index, e.name ?? null, e.error?.code ?? null])).toEqual([
      [0, 'Ada Lovelace', null],
      [1, null, 'BAD_USER_INPUT'],
      [2, 'Acme Corp', null],
    ]);

    const related = await callTool(mcp, 'create_relations', {
      namespace: ns.tools,
      relations: [
        { source: 'Ada Lovelace', type: 'works\u0007 at', target: 'Acme\u2060 Corp' },
        { source: 'Ada Lovelace', type: 'knows', target: 'Nobody' },
        { source: 'Ada Lovelace', type: 'uses', target: 'Acme Corp', confidence: 7 },
      ],
    });
    expect(related.isError, related.text).toBe(false);
    expect(related.json.relations.map((r: any) => [r.index, r.type ?? null, r.error?.code ?? null])).toEqual([
      [0, 'works at', null],
      [1, null, 'NOT_FOUND'],
      [2, null, 'BAD_USER_INPUT'],
    ]);

    const observed = await callTool(mcp, 'add_observations', {
      namespace: ns.tools,
      observations: [
        { entity: 'Ada\u200b Lovelace', content: 'Ada\u000bwrote the first\u0000 program' },
        { entity: 'Ada Lovelace', content: 'x', kind: 'rumour' },
      ],
    });
    expect(observed.isError, observed.text).toBe(false);
    expect(observed.json.observations.map((o: any) => [o.index, o.error?.code ?? null])).toEqual([
      [0, null],
      [1, 'BAD_USER_INPUT'],
    ]);
    const facts = await http.services.executor.read<{ content: string }>(
      'test.facts',
      'MATCH (a:Attribute {namespace: $namespace}) RETURN a.content AS content',
      { namespace: ns.tools },
    );
    expect(facts.map((f) => f.content)).toEqual(['Ada\nwrote the first program']);
  });
});
