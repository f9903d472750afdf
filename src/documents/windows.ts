export interface TextWindow {
  index: number;
  text: string;
  startChar: number;
}

/**
 * Overlapping windows of at most `size` characters; each starts `overlap` characters before
 * the previous one ended. A window ends at the last whitespace in its final fifth when there
 * is one, so words are not cut. Text no longer than one window is one window.
 */
export function textWindows(text: string, size: number, overlap: number): TextWindow[] {
  const windows: TextWindow[] = [];
  const back = Math.max(0, Math.min(overlap, size - 1));
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    if (end < text.length) {
      const soft = lastWhitespace(text, end, start + Math.floor(size * 0.8));
      if (soft > start) end = soft;
    }
    const slice = text.slice(start, end).trim();
    if (slice) windows.push({ index: windows.length, text: slice, startChar: start });
    if (end >= text.length) break;
    // Back by the overlap, then forward to the next word so the window does not start mid-word.
    let next = Math.max(start + 1, end - back);
    const word = nextWhitespace(text, next, end);
    if (word > 0) next = word;
    start = next;
  }
  return windows;
}

/** Position after the last whitespace in [from, to), or -1: a bounded backwards scan. */
function lastWhitespace(text: string, to: number, from: number): number {
  for (let i = to - 1; i >= from; i -= 1) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) return i + 1;
  }
  return -1;
}

/** Position after the first whitespace in [from, to), or -1. */
function nextWhitespace(text: string, from: number, to: number): number {
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) return i + 1;
  }
  return -1;
}
