/**
 * Linear-time trims. `text.replace(/[.,]+$/, '')` looks like one pass but retries the run from
 * every character of each punctuation run that does not reach the end: quadratic on a long run.
 */

/** `text` without its trailing characters that are in `chars`. */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without its leading characters that are in `chars`. */
export function trimStartChars(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start++;
  return start === 0 ? text : text.slice(start);
}
