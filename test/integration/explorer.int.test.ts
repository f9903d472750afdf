import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser.js';
import { PLANTED_SECRET, seedExplorer, type ExplorerSeed } from '../support/explorer-seed.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const OPERATOR = 'explorer-operator-0123456789abcdef';
const READ_ONLY = 'explorer-readonly-0123456789abcdef';
const FOREIGN = 'explorer-foreign-0123456789abcdef';
const EVERYWHERE = 'explorer-everywhere-0123456789abcdef';
// Genuinely different notes: near-identical ones of one batch are stored as near-duplicates (or not at all).
const FILLER_NOTES = [
  'the office plants by the window were watered',
  'the coffee machine on the third floor was descaled',
  'a new whiteboard was mounted in the small meeting room',
  'the printer ran out of toner and a cartridge was ordered',
  'the fire drill is scheduled for the second Tuesday of the month',
  'someone left a bicycle blocking the emergency exit again',
  'the fridge was cleared out before the long weekend',
  'the Wi-Fi password for guests was printed on the reception desk',
  'two ergonomic chairs arrived for the design team',
  'the lights in the stairwell flicker and the landlord was told',
  'the kitchen dishwasher now runs every evening at six',
  'a birthday cake for Marta is hidden in the freezer',
  'the parking permits for next year must be renewed by Friday',
  'the recycling bins were moved next to the lifts',
  'the heating in the east wing stays on until the end of April',
];
const FILLERS = FILLER_NOTES.length;
const WAIT_MS = 20_000;

interface BrowserStorage {
  sessionStorage: { setItem(name: string, value: string): void };
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it stands. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays in force.
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    // The browser's globals, typed here (the test project's lib has no DOM).
    const page = globalThis as unknown as {
      document: unknown;
      axe: {
        run(
          context: unknown,
          options: object,
        ): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
      };
    };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.where.join(', ')}`);
}

describe('the memory explorer (GET /explorer) in headless Chromium against the real service', () => {
  let http: TestHttpServer;
  let browser: TestBrowser;
  let seed: ExplorerSeed;
  const namespace = uniqueNamespace('explorer');
  const foreign = uniqueNamespace('explorer-foreign');

  async function open(key: string, hash: string): Promise<Page> {
    const page = await browser.newPage();
    await page.addInitScript((k) => (globalThis as unknown as BrowserStorage).sessionStorage.setItem('mnemograph.explorer.key', k), key);
    await page.goto(`${http.origin}/explorer${hash}`);
    await page.getByTestId('key-role').waitFor({ timeout: WAIT_MS });
    return page;
  }

  beforeAll(async () => {
    // Chromium first: without it every test here fails, loudly, instead of skipping.
    browser = await launchBrowser();
    http = await startTestHttpServer({
      DEFAULT_NAMESPACE: namespace,
      API_KEYS: JSON.stringify([
        { key: OPERATOR, name: 'ops', namespaces: [namespace] },
        { key: READ_ONLY, name: 'viewer', namespaces: [namespace], readOnly: true },
        { key: FOREIGN, name: 'other-tenant', namespaces: [foreign] },
        { key: EVERYWHERE, name: 'auditor', namespaces: ['*'], readOnly: true },
      ]),
    });
    const auth = { authorization: `Bearer ${OPERATOR}` };
    seed = await seedExplorer(http.post, http.services, namespace, auth);
    // More memories than one page holds, so the timeline has to page.
    const batch = await http.post(
      {
        query: 'mutation B($i: [RememberInput!]!) { rememberBatch(inputs: $i) { error { code } } }',
        variables: {
          i: Array.from({ length: FILLERS }, (_, n) => ({
            content: `Filler note ${n + 1}: ${FILLER_NOTES[n]}.`,
            namespace,
            occurredAt: `2026-01-${String(n + 1).padStart(2, '0')}T08:00:00Z`,
          })),
        },
      },
      auth,
    );
    expect(batch.body.errors).toBeUndefined();
  });

  afterAll(async () => {
    await browser?.close();
    if (http) {
      await cleanNamespace(http.services, namespace);
      await cleanNamespace(http.services, foreign);
      await http.close();
    }
  });

  it('serves the page and its modules from this origin under a strict CSP, gzipped', async () => {
    const response = await fetch(`${http.origin}/explorer`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/style-src 'self'(;|$)/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await response.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/explorer\/assets\/[\w.-]+\.(js|css)$/);
      const got = await fetch(`${http.origin}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(got.status, asset).toBe(200);
      expect(got.headers.get('content-encoding'), asset).toBe('gzip');
      expect(await got.text(), asset).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost|www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\//i);
    }
    expect((await fetch(`${http.origin}/explorer/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('timeline: memories newest first with type, importance, tags, source and session; filters; cursor paging; search', async () => {
    const page = await open(OPERATOR, '#/timeline');
    const timeline = page.getByTestId('timeline');
    // Newest recorded first: the fillers, written last, fill the first page; the seed is on the second.
    await timeline.getByText('Filler note 15:').waitFor({ timeout: WAIT_MS });
    const live = 8 - 1 + 3 + FILLERS; // remembered, less the forgotten one, plus the three asserted facts
    await expect
      .poll(() => page.getByTestId('timeline-count').textContent())
      .toBe(`20 of ${live} memories, newest first (by when they were recorded)`);
    expect(await timeline.textContent()).not.toContain('We chose Neo4j');

    await page.getByRole('button', { name: /Load 20 more/ }).click();
    await expect
      .poll(() => page.getByTestId('timeline-count').textContent())
      .toBe(`${live} of ${live} memories, newest first (by when they were recorded)`);
    const decision = timeline.locator('li', { hasText: 'We chose Neo4j' });
    for (const fact of ['decision', 'importance 0.', 'pinned', 'source: meeting', 'session: arch-review', 'architecture'])
      await expect.poll(() => decision.textContent()).toContain(fact);
    expect(await timeline.textContent()).toContain('[DATABASE_URI]');
    expect(await timeline.textContent()).not.toContain('staging cluster');
    expect(await page.getByRole('button', { name: /Load 20 more/ }).count()).toBe(0);

    await page.getByLabel('Forgotten too').check();
    await page.getByLabel('Session').fill('ops');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByTestId('timeline-count').textContent())
      .toBe('3 of 3 memories, newest first (by when they were recorded)');
    expect(await timeline.locator('li', { hasText: 'staging cluster' }).textContent()).toContain('forgotten');

    await page.getByLabel('Search memories').fill('short standups');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('search-hits').getByText('Grace Hopper prefers short standups').waitFor({ timeout: WAIT_MS });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.content()).not.toContain(PLANTED_SECRET);
    await page.close();
  });

  it('memory: content as stored with redaction placeholders and kinds, chunks, entities, history chain and deep-path jobs', async () => {
    const page = await open(OPERATOR, `#/memory/${seed.memories.redacted}`);
    await page.getByTestId('memory-content').waitFor({ timeout: WAIT_MS });
    expect(await page.getByTestId('memory-content').textContent()).toBe(
      'Connect the billing worker with [DATABASE_URI] for the nightly export.',
    );
    expect(await page.getByTestId('redactions').textContent()).toContain('DATABASE_URI × 1');
    const jobs = await page.getByTestId('memory-jobs').textContent();
    expect(jobs).toContain('dead');
    expect(jobs).toContain('extract');
    expect(jobs).toContain('[DATABASE_URI]');
    expect(await page.getByRole('region', { name: 'Chunks' }).textContent()).toContain('chars 0–');
    expect(await page.content()).not.toContain(PLANTED_SECRET);
    expect(await seriousViolations(page)).toEqual([]);

    // The update is in the history with what the memory said before.
    await page.goto(`${http.origin}/explorer#/memory/${seed.memories.updated}`);
    const history = page.getByTestId('history');
    await history.getByText('updated', { exact: true }).waitFor({ timeout: WAIT_MS });
    expect(await history.textContent()).toContain('Deploy freeze starts Friday');
    expect(await history.textContent()).toContain('created');

    await page.goto(`${http.origin}/explorer#/memory/${seed.memories.forgotten}`);
    await page.getByTestId('history').getByText('forgotten', { exact: true }).waitFor({ timeout: WAIT_MS });
    expect(await page.getByTestId('history').textContent()).toContain('the cluster is back');

    // Entities it produced link to the entity view.
    await page.goto(`${http.origin}/explorer#/memory/${seed.memories.ada}`);
    await page.getByTestId('memory-entities').getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: /Ada Lovelace/ }).waitFor({ timeout: WAIT_MS });
    await page.close();
  });

  it('entity: aspects with current and superseded attributes, a Cytoscape graph grown one hop at a time, the memories that mention it', async () => {
    const page = await open(OPERATOR, `#/entity/${seed.entities.ada}`);
    const role = page.getByTestId('aspect').filter({ hasText: 'role' });
    await role.waitFor({ timeout: WAIT_MS });
    expect(await role.textContent()).toContain('Ada Lovelace leads the billing team.');
    const preferences = await page.getByTestId('aspect').filter({ hasText: 'preferences' }).locator('li').allTextContents();
    expect(preferences).toHaveLength(2);
    expect(preferences[0]).toMatch(/^active Ada Lovelace avoids tabs/);
    expect(preferences[1]).toMatch(
      /^superseded Ada Lovelace prefers tabs.*superseded \d{4}-\d\d-\d\d \d\d:\d\d by “Ada Lovelace avoids tabs in the billing code\.”/,
    );
    await page.getByRole('button', { name: /Why was “Ada Lovelace prefers tabs/ }).click();
    expect(await page.getByTestId('why-superseded').textContent()).toMatch(/why: .*prefers\/avoids|why: .*avoids\/prefers/);
    const nodes = page.getByTestId('graph-nodes');
    await nodes.getByText('billing team').waitFor({ timeout: WAIT_MS });
    expect(await nodes.textContent()).toContain('platform team');
    expect(await nodes.textContent()).not.toContain('invoice service');
    await expect.poll(() => page.getByTestId('graph-canvas').locator('canvas').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Expand billing team' }).click();
    await nodes.getByText('invoice service').waitFor({ timeout: WAIT_MS });
    expect(await page.getByTestId('entity-memories').textContent()).toContain(
      'Ada Lovelace leads the billing team and owns the invoice service.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('recall, explained: ranked results with each leg, what the budget kept and left out, and the <memory> block', async () => {
    const page = await open(OPERATOR, '#/recall');
    await page.getByLabel('Question').fill('Which database did we choose for the graph?');
    await page.getByLabel('Token budget').fill('40');
    await page.getByRole('button', { name: 'Recall' }).click();
    const items = page.getByTestId('recall-items').locator('> li');
    await items.first().waitFor({ timeout: WAIT_MS });
    expect(await items.first().textContent()).toContain('We chose Neo4j for the knowledge graph');
    const bars = await items.first().getByTestId('explain-bars').textContent();
    for (const leg of ['vector', 'keyword', 'graph boost', 'context', 'dampening', 'rerank', 'final']) expect(bars).toContain(leg);
    expect(await page.getByTestId('recall-summary').textContent()).toMatch(/kept · \d+ tokens · \d+% of the budget/);
    expect(await page.getByTestId('left-out').locator('li').count()).toBeGreaterThan(0);
    const prompt = await page.getByTestId('prompt').textContent();
    expect(prompt).toContain('<memory>');
    expect(prompt).toContain('We chose Neo4j');
    // The block's type markers ([DECISION]) are not taken for redaction placeholders.
    expect(await page.getByTestId('prompt').locator('mark.redacted').allTextContents()).not.toContain('[DECISION]');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('a read-only key sees every view and no mutating control', async () => {
    const page = await open(READ_ONLY, '#/upkeep');
    expect(await page.getByTestId('key-role').textContent()).toContain('read-only');
    await page.getByTestId('dead-jobs').locator('li').first().waitFor({ timeout: WAIT_MS });
    for (const hash of ['#/upkeep', '#/timeline', `#/memory/${seed.memories.redacted}`, `#/entity/${seed.entities.ada}`, '#/recall']) {
      await page.goto(`${http.origin}/explorer${hash}`);
      await page.locator('main h1').first().waitFor({ timeout: WAIT_MS });
      expect(await page.locator('[data-mutating]').count(), hash).toBe(0);
      expect(await page.getByRole('button', { name: /requeue|forget|pin|delete|merge/i }).count(), hash).toBe(0);
    }
    await page.close();
  });

  it('upkeep: queue by kind and state, dead jobs with redacted errors, and a requeue that works for an operator key', async () => {
    const page = await open(OPERATOR, '#/upkeep');
    const table = page.getByTestId('queue-table');
    await table.waitFor({ timeout: WAIT_MS });
    const extract = await table
      .locator('tr', { has: page.locator('th', { hasText: /^extract$/ }) })
      .locator('td')
      .allTextContents();
    expect(extract[3]).toBe('1'); // pending, leased, completed, dead
    const dead = page.getByTestId('dead-jobs').locator('li');
    expect(await dead.count()).toBe(1);
    expect(await dead.first().textContent()).toContain('[DATABASE_URI]');
    expect(await page.content()).not.toContain(PLANTED_SECRET);
    expect(await seriousViolations(page)).toEqual([]);

    await dead.first().getByRole('button', { name: 'Requeue' }).click();
    await expect.poll(() => page.getByTestId('dead-jobs').locator('li').count()).toBe(0);
    const [job] = await http.services.executor.read<{ status: string }>('test.job', 'MATCH (j:Job {id: $id}) RETURN j.status AS status', {
      id: seed.deadJobId,
    });
    expect(job!.status).toBe('pending');
    await page.close();
  });

  it('a key of another namespace sees none of this one', async () => {
    const page = await open(FOREIGN, '#/timeline');
    await expect
      .poll(() => page.getByTestId('timeline-count').textContent())
      .toBe('0 of 0 memories, newest first (by when they were recorded)');
    expect(await page.locator('#namespace option').allTextContents()).toEqual([foreign]);
    for (const hash of [`#/memory/${seed.memories.decision}`, `#/entity/${seed.entities.ada}`, '#/upkeep']) {
      await page.goto(`${http.origin}/explorer${hash}`);
      await page.waitForLoadState('networkidle');
      const text = (await page.locator('main').textContent()) ?? '';
      for (const leak of ['Neo4j', 'Ada Lovelace', 'DATABASE_URI', 'billing']) expect(text, `${hash}: ${leak}`).not.toContain(leak);
      // Refusals are shown as the service's code and message, never a stack or a driver's words.
      expect(text).not.toMatch(/\bat \S+ \(|Neo4jError|Cypher|stack/i);
    }
    await page.close();
  });

  it('viewer: a named key lists its own namespaces, a "*" key the namespaces holding memories', async () => {
    const query = '{ viewer { name readOnly allNamespaces namespaces defaultNamespace } }';
    const own = await http.post({ query }, { authorization: `Bearer ${FOREIGN}` });
    expect(own.body.data.viewer).toEqual({
      name: 'other-tenant',
      readOnly: false,
      allNamespaces: false,
      namespaces: [foreign],
      defaultNamespace: namespace,
    });
    const all = await http.post({ query }, { authorization: `Bearer ${EVERYWHERE}` });
    expect(all.body.data.viewer).toMatchObject({ name: 'auditor', readOnly: true, allNamespaces: true });
    // The foreign namespace holds no memory, so it is not listed; this one is (at most 100 are).
    const listed: string[] = all.body.data.viewer.namespaces;
    expect(listed.includes(namespace) || listed.length === 100).toBe(true);
    expect(listed).not.toContain(foreign);
    expect([...listed].sort()).toEqual(listed);
  });

  it('a read-only "*" key types the namespace to open and sees its memories, with no mutating control', async () => {
    const page = await open(EVERYWHERE, '#/timeline');
    expect(await page.getByTestId('key-role').textContent()).toContain('auditor · read-only');
    await page.getByLabel('Namespace').fill(namespace);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('timeline').getByText('Filler note 15:').waitFor({ timeout: WAIT_MS });
    await page.goto(`${http.origin}/explorer#/upkeep`);
    await page.getByTestId('queue-table').waitFor({ timeout: WAIT_MS });
    expect(await page.locator('[data-mutating]').count()).toBe(0);
    await page.close();
  });

  it('made no request outside 127.0.0.1 and logged no console error', () => {
    expect(browser.blocked).toEqual([]);
    expect(browser.problems).toEqual([]);
  });
});
