import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

// The context stage against the real Neo4j: the turns around the ranked head's anchors, read in
// one statement that also loads the ones no leg found (db/search/load-memories.ts RECALL_CONTEXT).
// Only the keyword leg runs here, so every neighbour that comes back came through that statement.
const SESSION = [
  'Morning, can we talk about the release plan?',
  'Sure, what changed since Monday?',
  'Zorblax moved the deployment window to Thursday night.',
  'Then the database migration has to wait until Friday.',
  'I will tell the support team about the new date.',
  'Lunch is at noon today, in the small kitchen.',
];

describe('recall: the context stage brings in the turns around its anchors', () => {
  let services: Services;
  const namespace = uniqueNamespace('context');
  const ids: string[] = [];
  let otherSession = '';
  const keywordOnly = { legs: { vector: false, entity: false, hints: false }, context: { similarityGate: false } };

  const ask = (overrides: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    services.recall.recall({ query: 'Zorblax', namespace, trackAccess: false, overrides, ...extra });

  beforeAll(async () => {
    services = testServices();
    await services.embedder.load();
    const start = Date.parse('2026-03-02T09:00:00Z');
    for (const [i, content] of SESSION.entries()) {
      const at = new Date(start + i * 60_000).toISOString();
      ids.push((await services.remember.remember({ content, namespace, sessionId: 'release', occurredAt: at })).memory.id);
    }
    const other = await services.remember.remember({
      content: 'The release notes live in the team wiki.',
      namespace,
      sessionId: 'elsewhere',
      occurredAt: new Date(start + 2 * 60_000 + 1_000).toISOString(),
    });
    otherSession = other.memory.id;
    await services.update.forget({ id: ids[1]!, namespace, actor: 'test' }, 'wrong turn');
  });

  afterAll(async () => {
    await cleanNamespace(services, namespace);
    await closeServices(services);
  });

  it('the premise: with the stage off, the keyword leg finds the one turn that names Zorblax', async () => {
    const outcome = await ask({ ...keywordOnly, context: { enabled: false } });
    expect(outcome.items.map((i) => i.memory.id)).toEqual([ids[2]]);
  });

  it('joins the live turns within the window of the anchor, loaded and explained, and nothing else', async () => {
    const outcome = await ask(keywordOnly);
    const byId = new Map(outcome.items.map((i) => [i.memory.id, i]));
    expect(outcome.items[0]!.memory.id).toBe(ids[2]);
    // Two live turns on each side: the forgotten turn is skipped, so the window reaches turn 0.
    expect(new Set(byId.keys())).toEqual(new Set([ids[0], ids[2], ids[3], ids[4]]));
    for (const i of [0, 3, 4]) {
      const item = byId.get(ids[i]!)!;
      expect(item.memory.content).toBe(SESSION[i]);
      expect(item.explanation).toMatchObject({ keyword: null, vector: null });
      expect(item.explanation.context).toBeGreaterThan(0);
      // Half its anchor's score when the stage ran (later stages move the anchor's final score a little).
      expect(item.explanation.context).toBeCloseTo(0.5 * byId.get(ids[2]!)!.score, 2);
    }
    expect(byId.has(ids[1]!)).toBe(false);
    expect(byId.has(ids[5]!)).toBe(false);
    expect(byId.has(otherSession)).toBe(false);
  });

  it('a narrower window joins fewer turns', async () => {
    const outcome = await ask({ ...keywordOnly, context: { similarityGate: false, window: 1 } });
    expect(new Set(outcome.items.map((i) => i.memory.id))).toEqual(new Set([ids[0], ids[2], ids[3]]));
  });

  it('includeDeleted does not bring a forgotten turn back through the window', async () => {
    const outcome = await ask(keywordOnly, { filters: { includeDeleted: true } });
    expect(outcome.items.map((i) => i.memory.id)).not.toContain(ids[1]);
  });
});
