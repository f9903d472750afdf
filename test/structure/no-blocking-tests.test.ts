import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A vitest worker must answer its runner within a fixed 60 s (an RPC timeout no option reaches):
// a test or test helper that waits on a child process synchronously (a pip install, a build, a
// download on a clean clone) blocks its worker that long, and the run fails with every test green.
// Tests and their support wait on children asynchronously; benchmarks (scripts, not tests) may not.
const TEST = join(import.meta.dirname, '..');
const BLOCKING = /\b(?:spawnSync|execSync|execFileSync)\s*\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'bench' || entry.name === 'fixtures' ? [] : testFiles(path);
    return /\.(?:ts|mts|mjs)$/.test(entry.name) && path !== import.meta.filename ? [path] : [];
  });
}

function blockingCalls(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (BLOCKING.test(line) && !line.trimStart().startsWith('//') ? [`${relative(TEST, file)}:${i + 1}`] : [])),
  );
}

describe('tests never block their worker on a child process', () => {
  it('finds no spawnSync, execSync or execFileSync in tests or their support', () => {
    expect(blockingCalls(testFiles(TEST))).toEqual([]);
  });

  it('would catch one', () => {
    expect(BLOCKING.test("const r = spawnSync('pip', ['install', 'mcp']);")).toBe(true);
    expect(BLOCKING.test("import { spawn } from 'node:child_process';")).toBe(false);
  });
});
