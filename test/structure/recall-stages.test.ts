import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const STAGES = join(ROOT, 'src', 'recall', 'stages');

/** The stage files: every source file of src/recall/stages/ but its tests and what the stages share (stage.ts). */
function stageFiles(): string[] {
  return readdirSync(STAGES)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'stage.ts')
    .sort();
}

/** The files named in the stage table of docs/architecture.md (its second column). */
function documentedStageFiles(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const table = doc.slice(doc.indexOf('| stage | file |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return rows.flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`([\w-]+\.ts)`/g)].map((m) => m[1]!)).sort();
}

describe('recall as a list of stages', () => {
  it('docs/architecture.md lists every file of src/recall/stages/ once, and no other', () => {
    const documented = documentedStageFiles();
    expect(documented.length).toBeGreaterThan(10);
    expect(new Set(documented).size).toBe(documented.length);
    expect(documented).toEqual(stageFiles());
  });

  it('every stage file says its failure rule or that it is pure', () => {
    for (const file of stageFiles()) {
      const text = readFileSync(join(STAGES, file), 'utf8');
      expect(/Failure rule|failure rule|\(pure\)|pure|Pure/.test(text), `${file} says nothing of what happens when it fails`).toBe(true);
    }
  });
});
