#!/usr/bin/env node
// Logs in to the local Neo4j Browser in headless Chromium, applies cypher/browser/mnemograph.grass,
// runs the saved entity-neighbourhood query and saves a screenshot of the graph.
//
//   node scripts/neo4j-browser-screenshot.mjs <namespace> <entity> [png]
//   e.g.  node scripts/neo4j-browser-screenshot.mjs demo Redis docs/neo4j-browser.png
//   env:  NEO4J_HTTP_PORT (7474), NEO4J_BOLT_PORT (7687), NEO4J_PASSWORD (else .neo4j/default/password), CHROMIUM_PATH
//
// Requests outside 127.0.0.1 are blocked (Browser asks for web fonts; it falls back to local ones).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localPassword } from './neo4j-server.mjs';

const [namespace, entity, png = 'docs/neo4j-browser.png'] = process.argv.slice(2);
if (!namespace || !entity) {
  console.error('usage: node scripts/neo4j-browser-screenshot.mjs <namespace> <entity> [png]');
  process.exit(2);
}
const httpPort = process.env.NEO4J_HTTP_PORT ?? '7474';
const boltPort = process.env.NEO4J_BOLT_PORT ?? '7687';
const password = process.env.NEO4J_PASSWORD ?? localPassword();
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const output = resolve(png);
const TIMEOUT_MS = 30_000;
const browserDir = fileURLToPath(new URL('../cypher/browser/', import.meta.url));

if (!existsSync(executablePath)) {
  console.log(`SKIP: no Chromium at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  process.exit(0);
}
const { chromium } = await import('playwright-core');

/** A saved query as one line for the Browser editor: comments and params lines dropped. */
function oneLine(file) {
  return readFileSync(join(browserDir, file), 'utf8')
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const userDataDir = await mkdtemp(join(tmpdir(), 'mnemograph-neo4j-browser-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  await context.route('**/*', (route) => {
    const url = route.request().url();
    return /^(data:|blob:|(https?|wss?):\/\/(127\.0\.0\.1|localhost)[:/])/.test(url) ? route.continue() : route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${httpPort}/browser/?dbms=neo4j://neo4j@127.0.0.1:${boltPort}`, {
    waitUntil: 'networkidle',
    timeout: TIMEOUT_MS,
  });

  // Log in through the connect form.
  await page.locator('[data-testid="disconnectedBannerCode"]').click();
  await page.locator('[data-testid="password"]').first().fill(password);
  await page.locator('[data-testid="connect"]').first().click();
  await page.getByText('You are connected as user', { exact: false }).first().waitFor({ timeout: TIMEOUT_MS });

  const run = async (command) => {
    const editor = page.locator('[data-testid="activeEditor"] textarea, [data-testid="activeEditor"] [contenteditable="true"]').first();
    await editor.click();
    await page.keyboard.insertText(command);
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(800);
  };

  await run(':clear');
  await run(`:style ${readFileSync(join(browserDir, 'mnemograph.grass'), 'utf8').replace(/\s+/g, ' ')}`);
  await run(':clear');
  await run(`:param namespace => '${namespace.replace(/'/g, "\\'")}'`);
  await run(`:param entity => '${entity.replace(/'/g, "\\'")}'`);
  await run(':clear');
  await run(oneLine('entity-neighbourhood.cypher'));
  await page.locator('svg .node').first().waitFor({ timeout: TIMEOUT_MS });
  await page.locator('button[title="Fullscreen"]').first().click(); // the result frame alone
  await page.waitForTimeout(3000); // let the force layout settle
  await page.locator('[aria-label="zoom-to-fit"]').first().click();
  await page.waitForTimeout(1500);

  await mkdir(dirname(output), { recursive: true });
  await page.screenshot({ path: output });
  const nodes = await page.locator('svg .node').count();
  console.log(`Neo4j Browser showed ${nodes} nodes around "${entity}" in namespace "${namespace}"; screenshot: ${output}`);
} catch (error) {
  const debug = output.replace(/\.png$/, '.failed.png');
  await context
    .pages()[0]
    ?.screenshot({ path: debug })
    .catch(() => undefined);
  console.error(`Neo4j Browser screenshot failed: ${error.message} (page as it was: ${debug})`);
  process.exitCode = 1;
} finally {
  await context.close();
  await rm(userDataDir, { recursive: true, force: true });
}
