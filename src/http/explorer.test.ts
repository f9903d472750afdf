import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpErrorHandler } from '../http-errors.js';
import { createLogger } from '../logger.js';
import { explorerRouter } from './explorer.js';

const SCRIPT = 'console.log("explorer");\n'.repeat(50);

async function serve(distDir: string): Promise<{ origin: string; server: Server }> {
  const app = express();
  app.use(explorerRouter(distDir));
  app.use(httpErrorHandler(createLogger('silent')));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  return { origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

describe('explorerRouter', () => {
  let dir: string;
  let built: { origin: string; server: Server };
  let missing: { origin: string; server: Server };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'explorer-dist-'));
    await mkdir(join(dir, 'dist', 'assets'), { recursive: true });
    await writeFile(join(dir, 'dist', 'index.html'), '<!doctype html><script type="module" src="/explorer/assets/index-Ab1.js"></script>');
    await writeFile(join(dir, 'dist', 'assets', 'index-Ab1.js'), SCRIPT);
    await writeFile(join(dir, 'dist', 'assets', 'index-Ab1.js.gz'), gzipSync(SCRIPT));
    await writeFile(join(dir, 'dist', 'assets', 'cytoscape.esm-Cd2.js'), SCRIPT);
    await writeFile(join(dir, 'dist', 'secret.txt'), 'not an asset');
    built = await serve(join(dir, 'dist'));
    missing = await serve(join(dir, 'nowhere'));
  });
  afterAll(async () => {
    built?.server.close();
    missing?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the page with a CSP that allows only this origin and no inline code', async () => {
    for (const path of ['/explorer', '/explorer/']) {
      const response = await fetch(`${built.origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe|\*|https?:/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('sends the gzipped copy of an asset when the browser accepts gzip, the plain one otherwise', async () => {
    const gz = await fetch(`${built.origin}/explorer/assets/index-Ab1.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(gz.headers.get('cache-control')).toMatch(/immutable/);
    expect(await gz.text()).toBe(SCRIPT); // fetch decodes it
    const plain = await fetch(`${built.origin}/explorer/assets/cytoscape.esm-Cd2.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('serves nothing but built scripts and styles from assets/', async () => {
    for (const path of [
      '/explorer/assets/..%2Fsecret.txt',
      '/explorer/assets/.hidden.js',
      '/explorer/assets/secret.txt',
      '/explorer/assets/none-Zz9.js',
      '/explorer/secret.txt',
    ]) {
      expect((await fetch(`${built.origin}${path}`)).status, path).toBe(404);
    }
  });

  it('says how to build the page when it is not built, without a path or stack', async () => {
    const response = await fetch(`${missing.origin}/explorer`);
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(text).toContain('npm run explorer:build');
    expect(text).not.toContain(dir);
  });
});
