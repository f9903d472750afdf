#!/usr/bin/env node
// Opens the service's GraphiQL in headless Chromium with every request outside 127.0.0.1
// blocked, runs `{ health { ok } }`, checks the answer and saves a screenshot.
//
//   node scripts/ide-screenshot.mjs [url] [png]
//   defaults: http://127.0.0.1:4000/graphql  docs/ide.png   (CHROMIUM_PATH: /usr/bin/chromium)
//
// Needs Debian's `chromium` (apt-get install -y chromium) and the dev dependency playwright-core;
// without Chromium it says so and exits 0, so it can sit in a checklist on machines without it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const url = process.argv[2] ?? process.env.MNEMOGRAPH_URL ?? 'http://127.0.0.1:4000/graphql';
const output = resolve(process.argv[3] ?? 'docs/ide.png');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const QUERY = '{ health { ok } }';
const TIMEOUT_MS = 30_000;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!existsSync(executablePath)) {
  console.log(`SKIP: no Chromium at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  process.exit(0);
}
const { chromium } = await import('playwright-core').catch(() => {
  console.error('playwright-core is missing: npm install (it is a dev dependency)');
  process.exit(1);
});

/** Only the service itself may be reached: loopback, plus the data: URLs of inlined fonts. */
function isLocal(requestUrl) {
  if (requestUrl.startsWith('data:') || requestUrl.startsWith('blob:')) return true;
  const { hostname } = new URL(requestUrl);
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

const userDataDir = await mkdtemp(join(tmpdir(), 'mnemograph-ide-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: CHROMIUM_ARGS,
  viewport: { width: 1400, height: 820 },
});
const blocked = [];
const problems = [];
try {
  await context.route('**/*', (route) => {
    const requestUrl = route.request().url();
    if (isLocal(requestUrl)) return route.continue();
    blocked.push(requestUrl);
    return route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });

  await page.goto(url, { waitUntil: 'networkidle', timeout: TIMEOUT_MS });
  const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
  await editor.waitFor({ timeout: TIMEOUT_MS });
  // The schema arrives by introspection; the docs button is enabled once it has.
  await page.waitForFunction(() => !document.querySelector('.graphiql-spinner'), null, { timeout: TIMEOUT_MS });

  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(QUERY, { delay: 15 });
  const typed = await page.evaluate(() => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.getValue());
  if (typed.replace(/\s+/g, ' ').trim() !== QUERY)
    throw new Error(`the editor holds ${JSON.stringify(typed)}, not ${JSON.stringify(QUERY)}`);

  await page.locator('.graphiql-execute-button').click();
  await page.waitForFunction(
    () => /"ok":\s*true/.test(document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror?.getValue() ?? ''),
    null,
    { timeout: TIMEOUT_MS },
  );
  const result = await page.evaluate(() => document.querySelector('.graphiql-response .CodeMirror').CodeMirror.getValue());
  // The docs explorer lists the root types only if introspection worked.
  await page.locator('.graphiql-sidebar button[aria-label="Show Documentation Explorer"]').click();
  await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor({ timeout: TIMEOUT_MS });
  await mkdir(dirname(output), { recursive: true });
  await page.screenshot({ path: output });

  console.log(`IDE at ${url} answered ${QUERY} with ${JSON.stringify(JSON.parse(result))}`);
  console.log(`screenshot: ${output}`);
  console.log(`requests outside 127.0.0.1: ${blocked.length === 0 ? 'none' : blocked.join(', ')}`);
  if (problems.length > 0) console.log(`browser problems:\n  ${problems.join('\n  ')}`);
  if (blocked.length > 0 || problems.length > 0) process.exitCode = 1;
} catch (error) {
  console.error(`IDE check failed: ${error.message}`);
  if (blocked.length > 0) console.error(`blocked requests: ${blocked.join(', ')}`);
  if (problems.length > 0) console.error(`browser problems:\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
} finally {
  await context.close();
  await rm(userDataDir, { recursive: true, force: true });
}
