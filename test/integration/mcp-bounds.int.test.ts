import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { describeEntity } from '../../src/knowledge/describe-entity.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { callTool, eraOf, MCP_ERAS, type McpEra, newClient, type ToolOutcome } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const HUGE = 'Huge Entity';
const MERGES = 4;
/** Aliases an entity would gain from this many more merges, written directly (merging 200 entities for real costs minutes). */
const INFLATED_ALIASES = 200;
const TOPICS: Array<[string, string]> = [
  ['finance', 'Quarterly revenue reached 42 million euros after the Nordic expansion.'],
  ['staffing', 'Headcount doubled to 480 engineers spread over six countries.'],
  ['logistics', 'Pallets ship from the Rotterdam warehouse every Tuesday night.'],
  ['legal', 'Outside counsel is the Geneva firm Keller and Baptiste.'],
  ['marketing', 'The spring campaign targets cyclists with podcast sponsorships.'],
  ['research', 'A lab in Grenoble studies solid-state battery chemistry.'],
  ['security', 'Badge access logs are reviewed by the night guard supervisor.'],
  ['facilities', 'The cafeteria roof leaks whenever storms arrive from the west.'],
  ['procurement', 'Copper wire comes from a Chilean mine under a fixed-price contract.'],
  ['training', 'New hires shadow a mentor for their first three weeks.'],
  ['compliance', 'An auditor from Frankfurt checks export licences each autumn.'],
  ['sustainability', 'Solar panels on the depot cover forty percent of its electricity.'],
  ['partnerships', 'A joint venture with a Kyoto robotics maker started in January.'],
  ['product', 'The flagship scooter folds to fit inside a train luggage rack.'],
  ['sales', 'Dealers in Portugal sell more units than any other market.'],
  ['support', 'Customers reach the help desk through a chat window until midnight.'],
  ['engineering', 'Firmware is written in Rust and reviewed by two peers.'],
  ['design', 'Industrial designers sketch prototypes on paper before any modelling.'],
  ['quality', 'Every hundredth frame is x-rayed for weld porosity.'],
  ['travel', 'Staff fly economy class unless the trip exceeds nine hours.'],
  ['communications', 'Press releases go out through a Brussels public relations agency.'],
  ['governance', 'The board meets in Vienna on the first Monday of each quarter.'],
  ['insurance', 'Fleet vehicles are insured by a mutual based in Lyon.'],
  ['recruiting', 'Graduates are hired mostly from technical universities in Delft and Aachen.'],
];
const FACTS = TOPICS.length;
const ASPECTS = ['operations', 'people', 'money', 'rules', 'product', 'partners'];
/** Structured writes run one item after another: generous on a loaded machine. */
const SLOW_CALL = { timeoutMs: 240_000 };
const RELATED = 30;
// One ~2,000-character word: the embedding tokenizer counts it as a single [UNK] token.
const UNSPLITTABLE = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(43);
const longName = (i: number) =>
  `Huge related organisation number ${i} ${'with a very long registered legal name '.repeat(4)}`.slice(0, 200).trim();

describe('MCP answers stay within max_tokens, however large the entity (SDK client over HTTP, both protocol eras)', () => {
  let services: Services;
  let server: RunningServer;
  let client: Client;
  /** One client per protocol era; `client` (2025-era) builds the entity. */
  const clients = {} as Record<McpEra, Client>;
  let activeFacts = 0;
  let aspectCount = 0;
  let listedRelations = 0;
  let relationTotal = 0;
  const ns = uniqueNamespace('mcp-bounds');
  /** The bound as a model tokenizer sees it, and as an LLM would (about 4 characters a token). */
  const expectWithin = (outcome: ToolOutcome, budget: number) => {
    expect(outcome.isError, outcome.text.slice(0, 300)).toBe(false);
    expect(services.embedder.countTokens(outcome.text)).toBeLessThanOrEqual(budget);
    expect(outcome.text.length).toBeLessThanOrEqual(budget * 4);
  };

  beforeAll(async () => {
    services = testServices({ DEFAULT_NAMESPACE: ns });
    await services.embedder.load();
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
    for (const era of MCP_ERAS) {
      clients[era] = newClient(era);
      await clients[era].connect(new StreamableHTTPClientTransport(new URL(server.url.replace(/\/graphql$/, '/mcp'))));
      expect(eraOf(clients[era])).toBe(era);
    }
    client = clients['2025'];

    // The entity, through the real write paths: a long description, merges, facts, relations.
    const made = await callTool(client, 'create_entities', {
      entities: [
        { name: HUGE, type: 'organization', description: UNSPLITTABLE },
        ...Array.from({ length: MERGES }, (_, i) => ({ name: `Huge Alias ${i}`, type: 'organization' })),
      ],
    });
    expect(made.isError, made.text).toBe(false);
    for (let i = 0; i < MERGES; i++)
      await services.knowledge.mergeEntities({ namespace: ns, actor: 'test' }, { keep: HUGE, merge: `Huge Alias ${i}` });
    const related = await callTool(
      client,
      'create_entities',
      { entities: Array.from({ length: RELATED }, (_, i) => ({ name: longName(i), type: 'organization' })), max_tokens: 20_000 },
      SLOW_CALL,
    );
    expect(
      related.json.entities.every((e: { id?: string }) => e.id),
      related.text.slice(0, 300),
    ).toBe(true);
    const relations = await callTool(
      client,
      'create_relations',
      {
        relations: Array.from({ length: RELATED }, (_, i) => ({ source: HUGE, type: 'partners_with', target: longName(i) })),
        max_tokens: 20_000,
      },
      SLOW_CALL,
    );
    expect(relations.json.relations.filter((r: { id?: string }) => r.id)).toHaveLength(RELATED);
    // Distinct facts under distinct aspects: near-duplicates would be deduplicated by the write path.
    // Four facts in each of six aspects: describeEntity reads at most 6 aspects × 5 attributes.
    const observations = TOPICS.map(([topic, content], i) => ({
      entity: HUGE,
      aspect: ASPECTS[i % ASPECTS.length],
      content: `${topic}: ${content}`,
    }));
    const observed = await callTool(client, 'add_observations', { observations, max_tokens: 20_000 }, SLOW_CALL);
    expect(
      observed.json.observations.filter((o: { outcome?: string }) => o.outcome === 'created'),
      observed.text.slice(0, 300),
    ).toHaveLength(FACTS);
    // What the entity holds now (the write path may add facts of its own): the answers must account for all of it.
    const held = await describeEntity(services.executor, ns, HUGE);
    activeFacts = held.aspects.reduce((n, a) => n + a.attributes.length, 0);
    aspectCount = held.aspects.length;
    expect(activeFacts).toBeGreaterThanOrEqual(FACTS - 4);
    listedRelations = held.relations.length;
    relationTotal = held.relationCount;
    expect(listedRelations).toBeGreaterThanOrEqual(5);
    expect(relationTotal).toBeGreaterThanOrEqual(RELATED); // more than get_entity lists
    // Two hundred more merges' worth of aliases (at most 200 characters each, like entity names).
    await services.executor.write(
      'test.inflate-aliases',
      `MATCH (e:Entity {namespace: $namespace, canonicalName: 'huge entity'}) SET e.aliases = e.aliases + $aliases`,
      {
        namespace: ns,
        aliases: Array.from({ length: INFLATED_ALIASES }, (_, i) =>
          `Former name ${i} ${'of the huge entity before its many mergers '.repeat(5)}`.slice(0, 200),
        ),
      },
    );
  }, 300_000);

  afterAll(async () => {
    for (const era of MCP_ERAS) await clients[era]?.close();
    await cleanNamespace(services, ns);
    await server.close();
    await services.executor.close();
  });

  it.each(
    MCP_ERAS,
  )('get_entity over MCP %s: header, facts and relations all fit, long fields end in …, every cut list says how much it left out', async (era) => {
    const client = clients[era];
    // The smallest budget holds the entity's leading fields only (an id alone is ~30 tokens).
    const tiny = await callTool(client, 'get_entity', { name: 'huge entity', max_tokens: 100 });
    expectWithin(tiny, 100);
    expect(tiny.json).toMatchObject({ name: HUGE, type: 'organization', truncated: true });
    for (const budget of [300, 1_000, undefined]) {
      const entity = await callTool(client, 'get_entity', { name: 'huge entity', ...(budget ? { max_tokens: budget } : {}) });
      expectWithin(entity, budget ?? 2_000);
      const e = entity.json;
      expect(e, entity.text.slice(0, 300)).toMatchObject({ name: HUGE, type: 'organization' });
      expect(e.description).toMatch(/^Pneumono[A-Za-z]*…$/);
      expect(e.aliases.length + e.aliases_omitted).toBe(MERGES + INFLATED_ALIASES);
      expect(e.facts.length + (e.facts_omitted ?? 0)).toBe(activeFacts);
      expect(e.facts_omitted).toBeGreaterThan(0);
      expect(e.relations.length + (e.relations_omitted ?? 0)).toBe(relationTotal);
      expect(e.relations_total).toBe(relationTotal);
      expect(e.aspects.length + (e.aspects_omitted ?? 0)).toBe(aspectCount);
    }
    // A generous budget shows everything but the oversized fields in full.
    const wide = await callTool(client, 'get_entity', { name: HUGE, max_tokens: 20_000 }, SLOW_CALL);
    expectWithin(wide, 20_000);
    expect(wide.json.facts).toHaveLength(activeFacts);
    expect(wide.json.relations).toHaveLength(listedRelations);
    expect(wide.json.relations_omitted).toBe(relationTotal - listedRelations);
  });

  it.each(MCP_ERAS)('search_entities over MCP %s: long names are clipped and the list is cut to the budget', async (era) => {
    const client = clients[era];
    for (const budget of [100, 400]) {
      const found = await callTool(client, 'search_entities', { query: 'huge', limit: 100, max_tokens: budget });
      expectWithin(found, budget);
      expect(found.json.entities.length + (found.json.omitted ?? 0)).toBe(RELATED + 1);
      expect(found.json.omitted).toBeGreaterThan(0);
    }
    const all = await callTool(client, 'search_entities', { query: 'huge related', limit: 100, max_tokens: 20_000 }, SLOW_CALL);
    expect(all.json.entities).toHaveLength(RELATED);
  });

  it.each(MCP_ERAS)('the write tools over MCP %s take max_tokens too and answer within it', async (era) => {
    const client = clients[era];
    const budget = 120;
    const made = await callTool(
      client,
      'create_entities',
      {
        entities: Array.from({ length: 40 }, (_, i) => ({ name: `${longName(i)} branch`.slice(0, 200), type: 'place' })),
        max_tokens: budget,
      },
      SLOW_CALL,
    );
    expectWithin(made, budget);
    expect(made.json.entities.length + made.json.omitted).toBe(40);
    const related = await callTool(
      client,
      'create_relations',
      { relations: Array.from({ length: 40 }, (_, i) => ({ source: longName(i), type: 'located_in', target: HUGE })), max_tokens: budget },
      SLOW_CALL,
    );
    expectWithin(related, budget);
    expect(related.json.relations.length + related.json.omitted).toBe(40);
    const observed = await callTool(
      client,
      'add_observations',
      {
        observations: Array.from({ length: 5 }, (_, i) => ({ entity: longName(i), content: `runs depot ${i} in the north` })),
        max_tokens: budget,
      },
      SLOW_CALL,
    );
    expectWithin(observed, budget);
    const remembered = await callTool(client, 'remember', {
      // A memory of each era's own, so the second is not a duplicate of the first.
      content:
        era === '2025'
          ? 'The huge entity opened a new depot in Bergen.'
          : 'Payroll for the huge entity now runs through a bank in Tallinn.',
      tags: Array.from({ length: 32 }, (_, i) => `tag-${i}-${'x'.repeat(55)}`),
      max_tokens: budget,
    });
    expectWithin(remembered, budget);
    expect(remembered.json.id).toMatch(/^[0-9a-f-]{36}$/);
    const forgotten = await callTool(client, 'forget', { id: remembered.json.id, max_tokens: budget });
    expectWithin(forgotten, budget);
    expect(forgotten.json.forgotten_at).toBeTruthy();
    const tools = (await client.listTools()).tools;
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toContain('max_tokens');
  }, 600_000);
});
