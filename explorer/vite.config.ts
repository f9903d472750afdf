import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** Writes <file>.gz beside each script and stylesheet: the service sends them as they are. */
function gzipAssets(): Plugin {
  let outDir = '';
  return {
    name: 'mnemograph-gzip-assets',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of await readdir(assets)) {
        if (!/\.(js|css)$/.test(name)) continue;
        await writeFile(join(assets, `${name}.gz`), gzipSync(await readFile(join(assets, name)), { level: 9 }));
      }
    },
  };
}

// Served by the service at /explorer (src/http/explorer.ts); built by `npm install` (postinstall).
export default defineConfig({
  root: import.meta.dirname,
  base: '/explorer/',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline module-preload polyfill script: the CSP allows no inline script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  plugins: [gzipAssets()],
});
