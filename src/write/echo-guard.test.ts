import { describe, expect, it } from 'vitest';
import { formatMemoryPrompt } from '../recall/stages/prompt.js';
import { dedupKey } from './dedup-key.js';
import { echoCandidates, MIN_ECHO_LINE_CHARS, remainderOf } from './echo-guard.js';
import { normalizeContent } from './normalize.js';

const key = (ns: string, text: string) => dedupKey(ns, normalizeContent(text).contentHash);

describe('echo guard: candidate lines and what is left', () => {
  it("reads a memory's text out of recall's <memory> block and the start context's markup", () => {
    const memory = 'The invoice exporter runs every Monday at 02:00 UTC.';
    const block = formatMemoryPrompt([
      { type: 'semantic', content: memory, occurredAt: null },
      { type: 'episodic', content: 'We moved the  staging\ndatabase to port 6432', occurredAt: '2026-01-05T09:00:00Z' },
    ]);
    const text = `${block}\n- [decision, pinned] Always call the payments API through the gateway.\n- taught: ${memory}\nok`;
    const { lines, candidates } = echoCandidates('ns', text);
    const keys = candidates.map((c) => c.key);
    expect(keys).toContain(key('ns', memory));
    // One-lined, a multi-line memory still hashes as stored (whitespace collapsed, case and final dot ignored).
    expect(keys).toContain(key('ns', 'We moved the staging database to port 6432.'));
    expect(keys).toContain(key('ns', 'Always call the payments API through the gateway.'));
    // Tags and short lines are not candidates.
    expect(candidates.every((c) => lines[c.line]!.replace(/^\W+/, '').length >= MIN_ECHO_LINE_CHARS - 4)).toBe(true);
    expect(candidates.some((c) => lines[c.line] === 'ok' || lines[c.line] === '<memory>')).toBe(false);
  });

  it('what is left: the block tags go with the repeated lines; too little left is nothing', () => {
    const lines = ['<memory>', '[SEMANTIC] a remembered line here', '</memory>', '', 'The staging database moved to port 6432.'];
    expect(remainderOf(lines, new Set([1]))).toBe('The staging database moved to port 6432.');
    expect(remainderOf(lines.slice(0, 3), new Set([1]))).toBeNull();
    expect(remainderOf(['[SEMANTIC] a remembered line here', 'ok, done'], new Set([0]))).toBeNull();
  });
});
