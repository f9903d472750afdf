import { describe, expect, it } from 'vitest';
import { changedFiles, editedPath, filesText, lastAnswer } from './session-work.js';
import { filesLines } from './start-context.js';

const TOKEN = `ghp_${'Ab1'.repeat(12)}`;
const edit = (file: string, kind = 'edited') => ({
  metadata: JSON.stringify({ tool: 'Edit', input: file, file, change: kind }),
  content: `File changed: ${file}: ${kind}, 1 line added\nx = 1`,
});

describe("a session's work from its records", () => {
  it("a file-edit record's path: its metadata's file, else the text before the kind", () => {
    expect(editedPath(edit('src/a.ts'))).toBe('src/a.ts');
    expect(editedPath({ metadata: null, content: 'File changed: docs/a: b.md: edited (2 changes), 3 lines added\nx' })).toBe(
      'docs/a: b.md',
    );
    expect(editedPath({ metadata: '{not json', content: 'File changed: nb.ipynb: notebook cell inserted' })).toBe('nb.ipynb');
    expect(editedPath({ metadata: null, content: 'File changed: new.ts: created' })).toBe('new.ts');
    expect(editedPath({ metadata: null, content: 'npm test passed' })).toBeNull();
  });

  it('distinct paths, newest first; past the limit counted; a secret in a path redacted', () => {
    const records = [edit('src/b.ts'), edit('src/a.ts'), edit('src/b.ts'), edit(`keys/${TOKEN}.txt`), edit('src/c.ts')];
    const all = changedFiles(records);
    expect(all.files).toHaveLength(4);
    expect(all.files.slice(0, 2)).toEqual(['src/b.ts', 'src/a.ts']);
    expect(all.files[3]).toBe('src/c.ts');
    expect(all.files[2]).toMatch(/^keys\//);
    expect(all.files.join(' ')).not.toContain(TOKEN);
    expect(all.moreFiles).toBe(0);
    expect(changedFiles(records, 2)).toEqual({ files: ['src/b.ts', 'src/a.ts'], moreFiles: 2 });
    expect(filesText(changedFiles(records, 2))).toBe('src/b.ts, src/a.ts (+2 more)');
    expect(filesText(changedFiles([]))).toBe('');
  });

  it("the last answer of a conversation, without tool markers; '' without one", () => {
    const text = [
      'User: Fix the exporter retry.',
      'Assistant: Looking at it.',
      '[used Edit: src/exporter.ts]',
      'User: And the docs?',
      'Assistant: Done: the exporter retries 5 times',
      'and README.md says so.',
      '[used Write: README.md]',
      'Assistant: [used Bash: npm test]',
      'User: Thanks.',
    ].join('\n');
    expect(lastAnswer(text)).toBe('Done: the exporter retries 5 times and README.md says so.');
    // A turn-end checkpoint's digest: a heading, the files line, then the turn's tail.
    expect(lastAnswer('## At the end of a turn\nFiles changed: a.ts\n\nUser: go\nAssistant: Renamed the flag.')).toBe('Renamed the flag.');
    expect(lastAnswer('## Checkpoint — periodic\n### Recent prompts\n- fix it')).toBe('');
    // An answer with headings of its own keeps them.
    expect(lastAnswer('User: fix it\nAssistant: Done.\n\n## Summary\n- retries 5')).toBe('Done. ## Summary - retries 5');
    expect(lastAnswer(null)).toBe('');
    expect(lastAnswer(`Assistant: stored the key ${TOKEN}`)).not.toContain(TOKEN);
    expect(lastAnswer(`Assistant: ${'word '.repeat(200)}`).length).toBeLessThanOrEqual(400);
  });

  it('the start context names 15 files at most and counts the rest', () => {
    const files = Array.from({ length: 20 }, (_, i) => `src/f${i}.ts`);
    const lines = filesLines({ files, moreFiles: 7 });
    expect(lines).toHaveLength(16);
    expect(lines[0]).toBe('src/f0.ts');
    expect(lines[15]).toBe('… and 12 more');
    expect(filesLines({ files: ['a.ts'], moreFiles: 0 })).toEqual(['a.ts']);
    expect(filesLines({ files: [], moreFiles: 0 })).toEqual([]);
  });
});
