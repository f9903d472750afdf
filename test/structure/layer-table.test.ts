import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's source-layout table and the LAYERS list of .dependency-cruiser.cjs (the
 * rule `npm run check:deps` enforces) say the same thing: one row per layer, top first, naming
 * the same folders and files. Change one and this fails until the other follows.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The LAYERS list of the config (which exports only its rules): the file run with LAYERS returned. */
function configLayers(): string[][] {
  const path = `${ROOT}.dependency-cruiser.cjs`;
  const text = readFileSync(path, 'utf8');
  const run = new Function('module', 'exports', 'require', `${text}\nreturn LAYERS;`) as (...args: unknown[]) => unknown;
  const module = { exports: {} };
  return run(module, module.exports, createRequire(path)) as string[][];
}

/** Each row of the source-layout table: the `src/...` names of its first cell, without `src/` and a folder's `/`. */
function tableLayers(): string[][] {
  const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
  const section = doc.slice(doc.indexOf('## Source layout'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| folder |')));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `src/'))
    .map((line) => [...line.split('|')[1]!.matchAll(/`src\/([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, '')));
}

describe('docs/architecture.md and .dependency-cruiser.cjs', () => {
  it('the layer table lists the LAYERS of the dependency rules, in order', () => {
    const sorted = (layers: string[][]) => layers.map((layer) => [...layer].sort());
    expect(sorted(tableLayers()), 'update the "Source layout" table of docs/architecture.md').toEqual(sorted(configLayers()));
  });

  it('both readers find what they read', () => {
    expect(configLayers().length).toBeGreaterThan(10);
    expect(tableLayers()[0]).toEqual(['main.ts', 'cli']);
  });
});
