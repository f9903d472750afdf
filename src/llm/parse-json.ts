import { LlmParseError } from './provider.js';

const FENCED = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/;
const EXCERPT_CHARS = 120;

/**
 * Model output → JSON value: strip `<think>…</think>` blocks, then
 * Markdown code fences, then parse. Prose around a single top-level object or array is tolerated.
 */
export function parseLlmJson(text: string): unknown {
  const cleaned = stripFences(withoutThinkBlocks(text)).trim();
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

/**
 * Drops `<think>…</think>` blocks, and an unclosed one (a reasoning model cut off mid-thought) to
 * the end. A scan, not `/<think>[\s\S]*?<\/think>/g`, which rescans to the end from every
 * unclosed `<think>`.
 */
function withoutThinkBlocks(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return withoutThinkBlocksIn(text, text);
  return withoutThinkBlocksIn(text, lower);
}

function withoutThinkBlocksIn(text: string, lower: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let open = lower.indexOf('<think>'); open >= 0; open = lower.indexOf('<think>', at)) {
    parts.push(text.slice(at, open));
    const close = lower.indexOf('</think>', open + 7);
    if (close < 0) return parts.join('');
    at = close + 8;
  }
  parts.push(text.slice(at));
  return parts.join('');
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
