import { describe, it, expect } from 'vitest';
import { ValidationError } from '../errors.js';
import { chunkText, CHUNK_MAX_CHARS, CHUNK_OVERLAP_MAX_CHARS, type Chunk } from './chunk.js';

const WORDS = ['cache', 'session', 'Redis', 'latency', 'query', 'index', 'worker', 'graph', 'vector', 'memory', 'token', 'batch'];

/** Deterministic prose: `count` sentences of 8–15 words. */
function prose(count: number, seed = 1): string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  const out: string[] = [];
  for (let s = 0; s < count; s++) {
    const n = 8 + (next() % 8);
    const words = Array.from({ length: n }, () => WORDS[next() % WORDS.length]!);
    out.push(`${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
  }
  return out.join(' ');
}

function expectInvariants(input: string, chunks: Chunk[], max = CHUNK_MAX_CHARS): void {
  expect(chunks.length).toBeGreaterThan(0);
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.text).toBe(input.slice(c.startChar, c.endChar));
    expect(c.text.trim()).not.toBe('');
    expect(c.text.length).toBeLessThanOrEqual(max);
    if (i > 0) {
      const prev = chunks[i - 1]!;
      expect(c.startChar).toBeGreaterThan(prev.startChar);
      expect(c.endChar).toBeGreaterThan(prev.endChar);
      // Contiguous or overlapping: nothing but whitespace is skipped between chunks.
      if (c.startChar > prev.endChar) expect(input.slice(prev.endChar, c.startChar).trim()).toBe('');
    }
  });
  expect(input.slice(0, chunks[0]!.startChar).trim()).toBe('');
  expect(input.slice(chunks[chunks.length - 1]!.endChar).trim()).toBe('');
}

describe('chunkText', () => {
  it('returns nothing for empty or blank text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\n\t ')).toEqual([]);
  });

  it('returns a text up to the maximum as one chunk equal to the whole text', () => {
    const short = 'We implemented Redis caching for the user session store.';
    expect(chunkText(short)).toEqual([{ index: 0, text: short, startChar: 0, endChar: short.length }]);
    const exact = 'a'.repeat(CHUNK_MAX_CHARS);
    expect(chunkText(exact)).toEqual([{ index: 0, text: exact, startChar: 0, endChar: CHUNK_MAX_CHARS }]);
  });

  it('keeps the slice invariant, size limits and full coverage on long prose', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const input = [prose(12, seed), prose(20, seed + 10), prose(5, seed + 20), prose(40, seed + 30)].join('\n\n');
      expectInvariants(input, chunkText(input));
    }
  });

  it('overlaps by starting the next chunk at the previous chunk’s last sentence', () => {
    const input = prose(60, 7);
    const chunks = chunkText(input);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const next = chunks[i]!;
      expect(next.startChar).toBeLessThan(prev.endChar);
      const shared = input.slice(next.startChar, prev.endChar);
      expect(shared.length).toBeLessThanOrEqual(CHUNK_OVERLAP_MAX_CHARS);
      expect(shared).toMatch(/^[A-Z][^.]*\.$/);
      expect(prev.text.endsWith(shared)).toBe(true);
    }
  });

  it('prefers paragraph boundaries over sentence boundaries', () => {
    const p1 = prose(9, 11);
    const p2 = prose(9, 12);
    const input = `${p1}\n\n${p2}\n\n${prose(8, 13)}`;
    expect(p1.length).toBeGreaterThan(400);
    expect(p1.length).toBeLessThan(800);
    expect(p1.length + p2.length).toBeGreaterThan(900);
    const chunks = chunkText(input);
    expectInvariants(input, chunks);
    expect(chunks[0]!.text).toBe(p1);
  });

  it('treats markdown headers and list items as paragraph starts', () => {
    const items = Array.from({ length: 30 }, (_, i) => `- item ${i}: ${prose(2, i + 100)}`).join('\n');
    const input = `# Notes\n${prose(6, 50)}\n## List\n${items}`;
    const chunks = chunkText(input);
    expectInvariants(input, chunks);
    for (const c of chunks.slice(1)) expect(c.text).toMatch(/^(?:- item|## List|[A-Z])/);
  });

  it('splits an over-long sentence at word boundaries', () => {
    const input = Array.from({ length: 600 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
    const chunks = chunkText(input);
    expectInvariants(input, chunks);
    for (const c of chunks) {
      expect(/\s/.test(input[c.startChar - 1] ?? ' ')).toBe(true);
      expect(/\s/.test(input[c.endChar] ?? ' ')).toBe(true);
    }
  });

  it('hard-splits a single huge word and never returns empty chunks', () => {
    const input = 'x'.repeat(5000);
    const chunks = chunkText(input);
    expectInvariants(input, chunks);
    expect(chunks.map((c) => c.text).join('')).toBe(input);
  });

  it('does not cut a surrogate pair when hard-splitting', () => {
    const input = '😀'.repeat(1000);
    const chunks = chunkText(input);
    expectInvariants(input, chunks);
    for (const c of chunks) expect(c.text).toBe([...c.text].join(''));
    for (const c of chunks) expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c.text)).toBe(false);
  });

  it('merges a small trailing piece into the previous chunk', () => {
    const input = `${prose(30, 21)}\n\nThe end.`;
    const chunks = chunkText(input);
    expectInvariants(input, chunks);
    expect(chunks[chunks.length - 1]!.text.length).toBeGreaterThan(200);
    expect(chunks[chunks.length - 1]!.text.endsWith('The end.')).toBe(true);
  });

  it('honours custom sizes', () => {
    const input = prose(30, 31);
    const chunks = chunkText(input, { targetChars: 200, minChars: 50, maxChars: 300, overlapMaxChars: 0 });
    expectInvariants(input, chunks, 300);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startChar).toBeGreaterThan(chunks[i - 1]!.endChar);
  });

  it('rejects inconsistent sizes', () => {
    expect(() => chunkText('x', { minChars: 900 })).toThrow(ValidationError);
    expect(() => chunkText('x', { maxChars: 0, targetChars: 0, minChars: 0 })).toThrow(ValidationError);
    expect(() => chunkText('x', { targetChars: 1.5 })).toThrow(ValidationError);
  });
});
