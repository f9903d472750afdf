import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

/**
 * The joins the house keeps closed, read from the source as text (the checks of issue #29):
 * Cypher lives only in src/db/, one module writes HistoryEvent nodes and one creates Job nodes.
 * The import rules (layers, folders through index.ts, no cycles) are dependency-cruiser's
 * (.dependency-cruiser.cjs, `npm run check:deps`).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

const FILES = sourceFiles(SRC).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
/** Line by line, as the grep reads them. */
const matching = (pattern: RegExp) =>
  FILES.filter((f) => f.text.split('\n').some((line) => pattern.test(line)))
    .map((f) => f.path)
    .sort();

/** A clause that reads or writes the graph: the measure the issue reproduces with grep. */
const CYPHER = /\b(MATCH|MERGE|CREATE|UNWIND)\b[^'`]*\(/;
const HISTORY_WRITE = /(CREATE|MERGE)[^;]*:HistoryEvent/;
const JOB_CREATE = /(CREATE|MERGE)[^;]*\(\w*:Job\b/;

/**
 * Files still holding what belongs in src/db/, while the one-home work moves it there. The list
 * only shrinks: a file that gains Cypher fails, and so does a listed file that no longer has any.
 */
const CYPHER_NOT_YET_IN_DB: readonly string[] = [];
const HISTORY_WRITERS: readonly string[] = ['src/db/history.ts'];
const JOB_CREATORS: readonly string[] = ['src/db/jobs/enqueue.ts'];

describe('one home for each thing', () => {
  it('Cypher lives only in src/db/', () => {
    const outside = matching(CYPHER).filter((path) => !path.startsWith('src/db/'));
    expect(outside, 'move these statements into a module under src/db/').toEqual([...CYPHER_NOT_YET_IN_DB].sort());
  });

  it('one module writes HistoryEvent nodes', () => {
    expect(matching(HISTORY_WRITE), 'record events through src/db/history.ts').toEqual([...HISTORY_WRITERS].sort());
  });

  it('one module creates Job nodes', () => {
    expect(matching(JOB_CREATE), 'create jobs through src/db/jobs/ (enqueue)').toEqual([...JOB_CREATORS].sort());
  });

  it('the detectors see what they look for', () => {
    expect(CYPHER.test('const Q = `MATCH (m:Memory {id: $id}) RETURN m`;')).toBe(true);
    expect(CYPHER.test("const label = 'Match (optional)';")).toBe(false);
    expect(HISTORY_WRITE.test('MERGE (h:HistoryEvent {id: $id})')).toBe(true);
    expect(JOB_CREATE.test('MERGE (job:Job {id: j.id})')).toBe(true);
    expect(JOB_CREATE.test('MATCH (j:Job {id: $id})')).toBe(false);
  });
});
