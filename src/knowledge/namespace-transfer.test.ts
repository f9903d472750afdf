import { describe, expect, it } from 'vitest';
import { LINEAR_TIME_BUDGET_MS, timeMs } from '../../test/support/linear-time.js';
import { EXPORT_FORMAT, isIdProperty, MAX_IMPORT_LINE_CHARS, MAX_IMPORT_LINES, parseImportLines, swapIds } from './namespace-transfer.js';

const HEADER = JSON.stringify({
  kind: 'header',
  format: EXPORT_FORMAT,
  version: 1,
  namespace: 'src',
  exportedAt: '2026-11-26T00:00:00.000Z',
  embeddingModel: 'm',
  vectors: false,
});
const line = (value: unknown) => JSON.stringify(value);
const refusal = (lines: string[]) => {
  try {
    parseImportLines(lines);
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  return null;
};

describe('import lines: read and checked before anything is written', () => {
  it('groups nodes by label and edges by type and end, with their integer properties', () => {
    const parsed = parseImportLines([
      HEADER,
      line({ kind: 'memory', id: 'm1', props: { content: 'hi', accessCount: 2 }, ints: ['accessCount'] }),
      line({ kind: 'history', id: 'h1', props: { event: 'created' } }),
      line({ kind: 'edge', type: 'ABOUT', from: 'h1', to: 'm1', fromKind: 'history', toKind: 'memory', props: {} }),
      line({ kind: 'edge', type: 'ABOUT', from: 'h2', to: 'e1', fromKind: 'history', toKind: 'entity' }),
      '',
      line({ kind: 'end', counts: {} }),
    ]);
    expect(parsed.header.namespace).toBe('src');
    expect(parsed.nodes.get('Memory')).toEqual([
      { kind: 'memory', id: 'm1', props: { content: 'hi', accessCount: 2 }, ints: ['accessCount'] },
    ]);
    expect(parsed.nodes.get('HistoryEvent')).toHaveLength(1);
    expect([...parsed.edges.keys()].sort()).toEqual(['ABOUT:Entity', 'ABOUT:Memory']);
  });

  it('refuses, with a code and the line, what is not an export this service reads', () => {
    expect(refusal([line({ kind: 'memory', id: 'm1' })])).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(refusal([line({ kind: 'header', format: 'other', version: 1, namespace: 'x', embeddingModel: 'm' })])).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(refusal([line({ kind: 'header', format: EXPORT_FORMAT, version: 2, namespace: 'x', embeddingModel: 'm' })])).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(refusal([HEADER, '{oops'])).toEqual({ code: 'BAD_USER_INPUT', message: 'line 2 is not JSON' });
    expect(refusal([HEADER, line([1, 2])])).toMatchObject({ code: 'BAD_USER_INPUT', message: 'line 2 is not a record with a kind' });
    expect(refusal([HEADER, line({ kind: 'job', id: 'j' })])).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(refusal([HEADER, line({ kind: 'memory', props: {} })])).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(refusal([HEADER, line({ kind: 'memory', id: 'm', props: { nested: { a: 1 } } })])).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(refusal([HEADER, line({ kind: 'chunk', id: 'c', props: {}, embedding: ['x'] })])).toMatchObject({ code: 'BAD_USER_INPUT' });
    // Only the graph model's edges: no relationship type is ever taken from input.
    expect(refusal([HEADER, line({ kind: 'edge', type: 'OWNS', from: 'a', to: 'b', fromKind: 'memory', toKind: 'memory' })])).toMatchObject(
      { code: 'BAD_USER_INPUT' },
    );
    expect(
      refusal([HEADER, line({ kind: 'edge', type: 'HAS_CHUNK', from: 'a', to: 'b', fromKind: 'entity', toKind: 'chunk' })]),
    ).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('bounds a call: lines per call and characters per line', () => {
    expect(refusal(Array.from({ length: MAX_IMPORT_LINES + 1 }, () => HEADER))).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(refusal([HEADER, 'x'.repeat(MAX_IMPORT_LINE_CHARS + 1)])).toMatchObject({ code: 'LIMIT_EXCEEDED' });
  });
});

describe('the import maps ids in linear time on 50,000-character hostile strings', () => {
  const N = 50_000;
  const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
  const hostile = ['0', 'a-', '01234567-', '01234567-89ab-cdef-0123-', '01234567-89ab-cdef-0123-456789abcde', 'Id', 'IdsBy', 'sources'].map(
    fill,
  );

  it.each(hostile.map((h) => [h.slice(0, 24), h]))('%s… stays under the budget', (_, text) => {
    expect(timeMs(() => swapIds(text, (id) => id.toUpperCase()))).toBeLessThan(LINEAR_TIME_BUDGET_MS);
    expect(timeMs(() => isIdProperty(text))).toBeLessThan(LINEAR_TIME_BUDGET_MS);
  });

  it('swaps whole ids only, and knows the id-named keys', () => {
    const id = '01234567-89ab-cdef-0123-456789abcdef';
    expect(swapIds(`${id}|x${id}`, () => 'N')).toBe('N|xN');
    expect(swapIds('01234567-89ab-cdef-0123-456789abcde', () => 'N')).toBe('01234567-89ab-cdef-0123-456789abcde');
    expect(['sourceMemoryId', 'entityIds', 'supersededBy', 'pairs', 'sources', 'content'].map(isIdProperty)).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});
