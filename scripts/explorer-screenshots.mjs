#!/usr/bin/env node
// Seeds a namespace through the API, opens each view of the memory explorer (GET /explorer) in
// headless Chromium with every request outside 127.0.0.1 blocked, saves a screenshot of each to
// docs/, and prints the page weight and the time to first render. The namespace is removed after.
//
//   TEST_NEO4J_URI=bolt://127.0.0.1:27687 TEST_NEO4J_PASSWORD=… npm run explorer:screenshots
//
// Needs a Neo4j (the test one: TEST_NEO4J_URI, TEST_NEO4J_PASSWORD), the provisioned model,
// `npm install` (which builds explorer/dist) and Debian's chromium (CHROMIUM_PATH to override).
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { launchBrowser } from '../test/support/browser.ts';
import { seedExplorer } from '../test/support/explorer-seed.ts';
import { startTestHttpServer } from '../test/support/http.ts';
import { cleanNamespace } from '../test/support/services.ts';

const OUT = resolve(process.argv[2] ?? 'docs');
const KEY = `explorer-shots-${randomUUID()}`;
const TIMEOUT_MS = 30_000;
const RENDER_RUNS = 5;

// Never hold a machine (or a lock around this script) for long: give up after three minutes.
setTimeout(() => {
  console.error('explorer screenshots: gave up after 180 s');
  process.exit(1);
}, 180_000).unref();

const namespace = `explorer-demo-${randomUUID().slice(0, 8)}`;
const http = await startTestHttpServer({
  API_KEYS: JSON.stringify([{ key: KEY, name: 'operator', namespaces: [namespace] }]),
  DEFAULT_NAMESPACE: namespace,
});
const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
try {
  const seed = await seedExplorer(http.post, http.services, namespace, { authorization: `Bearer ${KEY}` });
  await browser.context.addInitScript((key) => sessionStorage.setItem('mnemograph.explorer.key', key), KEY);
  await mkdir(OUT, { recursive: true });
  const page = await browser.newPage();
  const base = `${http.origin}/explorer`;

  // Time to first render: navigation start to the first timeline row in the DOM, cold cache each run.
  const renders = [];
  let weight = null;
  for (let run = 0; run < RENDER_RUNS; run++) {
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    const bytes = new Map();
    cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
    const types = new Map();
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, { url: e.response.url, type: e.type }));
    await cdp.send('Network.enable');
    await page.goto(`${base}#/timeline`, { waitUntil: 'load' });
    await page.locator('[data-testid="timeline"] li').first().waitFor({ timeout: TIMEOUT_MS });
    renders.push(await page.evaluate(() => performance.now()));
    if (run === 0) {
      const sum = (filter) => [...bytes].filter(([id]) => filter(types.get(id))).reduce((total, [, n]) => total + n, 0);
      weight = {
        js: sum((t) => t?.type === 'Script'),
        css: sum((t) => t?.type === 'Stylesheet'),
        html: sum((t) => t?.type === 'Document'),
      };
    }
    await cdp.detach();
  }
  await page.screenshot({ path: `${OUT}/explorer-timeline.png` });

  await page.goto(`${base}#/memory/${seed.memories.redacted}`);
  await page
    .locator('[data-testid="redactions"]')
    .getByText('DATABASE_URI', { exact: false })
    .or(page.locator('[data-testid="redactions"] .chip-redacted'))
    .first()
    .waitFor({ timeout: TIMEOUT_MS });
  await page.screenshot({ path: `${OUT}/explorer-memory.png`, fullPage: true });

  await page.goto(`${base}#/entity/${seed.entities.ada}`);
  await page.locator('[data-testid="graph-nodes"] li', { hasText: 'billing team' }).waitFor({ timeout: TIMEOUT_MS });
  await page.getByRole('button', { name: 'Expand billing team' }).click();
  await page.locator('[data-testid="graph-nodes"] li', { hasText: 'invoice service' }).waitFor({ timeout: TIMEOUT_MS });
  await page
    .getByRole('button', { name: /^Why was/ })
    .first()
    .click();
  await page.getByTestId('why-superseded').waitFor({ timeout: TIMEOUT_MS });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/explorer-entity.png`, fullPage: true });

  await page.goto(`${base}#/recall`);
  await page.locator('#recall-q').fill('Which database did we choose for the graph?');
  // A tight budget, so the view has something to show as left out.
  await page.getByLabel('Token budget').fill('80');
  await page.getByRole('button', { name: 'Recall' }).click();
  await page.locator('[data-testid="recall-items"] li').first().waitFor({ timeout: TIMEOUT_MS });
  await page.screenshot({ path: `${OUT}/explorer-recall.png`, fullPage: true });

  await page.goto(`${base}#/upkeep`);
  await page.locator('[data-testid="dead-jobs"] li').first().waitFor({ timeout: TIMEOUT_MS });
  await page.screenshot({ path: `${OUT}/explorer-upkeep.png`, fullPage: true });

  const sorted = [...renders].sort((a, b) => a - b);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`screenshots: ${OUT}/explorer-{timeline,memory,entity,recall,upkeep}.png`);
  console.log(
    `page weight on first load (transferred, gzip): JS ${kb(weight.js)}, CSS ${kb(weight.css)}, HTML ${kb(weight.html)} (the graph's Cytoscape chunk loads on the first entity page only)`,
  );
  console.log(
    `first render (navigation to the first timeline row, cold cache, ${RENDER_RUNS} runs): median ${sorted[Math.floor(RENDER_RUNS / 2)].toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`requests outside 127.0.0.1: ${browser.blocked.length === 0 ? 'none' : browser.blocked.join(', ')}`);
  if (browser.problems.length > 0) console.log(`browser problems:\n  ${browser.problems.join('\n  ')}`);
  if (browser.blocked.length > 0 || browser.problems.length > 0) process.exitCode = 1;
} catch (error) {
  console.error(`explorer screenshots failed: ${error.stack ?? error.message}`);
  if (browser.problems.length > 0) console.error(`browser problems:\n  ${browser.problems.join('\n  ')}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await cleanNamespace(http.services, namespace).catch(() => undefined);
  await http.close();
}
// The embedder's worker thread would keep the process alive.
process.exit(process.exitCode ?? 0);
