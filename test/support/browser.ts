import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (apt-get install -y chromium); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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

export interface TestBrowser {
  context: BrowserContext;
  /** Every request the page tried outside 127.0.0.1 (each was aborted). */
  blocked: string[];
  /** Console errors, uncaught page errors and CSP violations, as text. */
  problems: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Only this machine may be reached: loopback, plus data: and blob: URLs made by the page itself. */
export function isLocal(requestUrl: string): boolean {
  if (requestUrl.startsWith('data:') || requestUrl.startsWith('blob:')) return true;
  const { hostname } = new URL(requestUrl);
  return hostname === '127.0.0.1';
}

/**
 * Headless Chromium with every request outside 127.0.0.1 aborted and recorded. Without Chromium
 * it throws (a test that needs it fails, never skips).
 */
export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const userDataDir = await mkdtemp(join(tmpdir(), 'mnemograph-browser-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1400, height: 900 },
  });
  const blocked: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  return {
    context,
    blocked,
    problems,
    async newPage() {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      return page;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
