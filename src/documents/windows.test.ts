import { describe, expect, it } from 'vitest';
import { HtmlText } from './html-text.js';
import { textWindows } from './windows.js';

describe('textWindows', () => {
  it('keeps a short text whole and cuts a long one into overlapping windows that cover it', () => {
    expect(textWindows('short text', 100, 10)).toEqual([{ index: 0, text: 'short text', startChar: 0 }]);
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const windows = textWindows(text, 200, 40);
    expect(windows.length).toBeGreaterThan(10);
    for (const w of windows) expect(w.text.length).toBeLessThanOrEqual(200);
    for (let i = 1; i < windows.length; i += 1)
      expect(windows[i]!.startChar).toBeLessThan(windows[i - 1]!.startChar + windows[i - 1]!.text.length);
    expect(windows.at(-1)!.text.endsWith('word399')).toBe(true);
    // Words are not cut: every window starts and ends on a whole word.
    for (const w of windows) expect(w.text).toMatch(/^(word\d+ ?)+$/);
  });

  it('is linear on text without whitespace', () => {
    const started = performance.now();
    expect(textWindows('a'.repeat(2_000_000), 2_000, 200).length).toBe(1111);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('HtmlText', () => {
  it('drops script, style and noscript, decodes entities and keeps the first title, fed in pieces', () => {
    const html =
      '<html><head><title>A &amp; B</title><title>second</title><style>p{}</style></head><body><script>if (a<b) x()</script><p>one &lt;two&gt;</p><noscript>no</noscript><div>three</div></body></html>';
    const parser = new HtmlText();
    for (let i = 0; i < html.length; i += 7) parser.write(html.slice(i, i + 7));
    expect(parser.end()).toEqual({ title: 'A & B', text: 'one <two>\n\nthree' });
  });
});
