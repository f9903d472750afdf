import { LlmParseError } from './provider.js';

const THINK_BLOCK = /<think>[\s\S]*?<\/think>/gi;
// A reasoning model cut off mid-thought leaves an unclosed block: drop it to the end.
const UNCLOSED_THINK = /<think>[\s\S]*$/i;
const FENCED = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/;
const EXCERPT_CHARS = 120;

/**
 * Model output → JSON value (seed 004 post-processing): strip `<think>…</think>` blocks, then
 * Markdown code fences, then parse. Prose around a single top-level object or array is tolerated.
 */
export function parseLlmJson(text: string): unknown {
  const cleaned = stripFences(text.replace(THINK_BLOCK, '').replace(UNCLOSED_THINK, '')).trim();
  if (cleaned === '') throw new LlmParseError('LLM output is empty after removing <think> blocks and code fences', '');
  try {
    return JSON.parse(cleaned);
  } catch {
    const embedded = outermostJson(cleaned);
    if (embedded !== null) {
      try {
        return JSON.parse(embedded);
      } catch {
        // fall through to the typed error
      }
    }
    throw new LlmParseError('LLM output is not valid JSON', cleaned.slice(0, EXCERPT_CHARS));
  }
}

function stripFences(text: string): string {
  const fenced = FENCED.exec(text);
  return fenced ? fenced[1]! : text;
}

/** The span from the first `{`/`[` to the matching last `}`/`]`, if any. */
function outermostJson(text: string): string | null {
  const start = text.search(/[[{]/);
  if (start < 0) return null;
  const close = text[start] === '{' ? '}' : ']';
  const end = text.lastIndexOf(close);
  return end > start ? text.slice(start, end + 1) : null;
}
