/**
 * Every tool's answer is bounded by a token budget (the `max_tokens` argument): lists are cut
 * at the last item that fits and say how many were left out, long texts are clipped with "…".
 * Tokens are counted with the embedding model's tokenizer, but never fewer than one per
 * CHARS_PER_TOKEN characters: that tokenizer counts a long word it cannot split (a URL, a
 * base64 blob) as one token where an LLM's tokenizer counts hundreds.
 */

export const DEFAULT_MAX_TOKENS = 2_000;
export const MIN_MAX_TOKENS = 100;
export const MAX_MAX_TOKENS = 20_000;
export const CHARS_PER_TOKEN = 4;
/** What marks a clipped text, and how many items of a cut list were left out (`<key>_omitted`). */
export const CLIP_MARK = '…';

export type CountTokens = (text: string) => number;

/** The budget's token count: the model tokenizer's, floored by the text's length. */
export function budgetCounter(modelCount: CountTokens): CountTokens {
  return (text) => Math.max(modelCount(text), Math.ceil(text.length / CHARS_PER_TOKEN));
}

/** The largest n in [0, max] with fits(n), assuming fits is monotone (true up to some n). */
function largest(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A JSON answer whose list `key` holds as many leading items as fit; `omitted` counts the rest. */
export function fitList(
  base: Record<string, unknown>,
  key: string,
  items: readonly unknown[],
  maxTokens: number,
  count: CountTokens,
): string {
  const render = (n: number) =>
    JSON.stringify({ ...base, [key]: items.slice(0, n), ...(n < items.length ? { omitted: items.length - n } : {}) });
  if (count(render(items.length)) <= maxTokens) return render(items.length);
  return render(largest(items.length - 1, (n) => count(render(n)) <= maxTokens));
}

/** The leading items of a list whose JSON fits `maxTokens`, and how many were left out. */
export function fitItems<T>(items: readonly T[], maxTokens: number, count: CountTokens): { kept: T[]; omitted: number } {
  const fits = (n: number) => count(JSON.stringify(items.slice(0, n))) <= maxTokens;
  const n = fits(items.length) ? items.length : largest(items.length - 1, fits);
  return { kept: items.slice(0, n), omitted: items.length - n };
}

/** `text` cut to at most `maxTokens`, with an ellipsis when cut. */
export function clipText(text: string, maxTokens: number, count: CountTokens): string {
  if (count(text) <= maxTokens) return text;
  // No text of more than maxTokens × CHARS_PER_TOKEN characters fits: start the search there.
  const upper = Math.min(text.length, Math.max(0, maxTokens * CHARS_PER_TOKEN));
  const n = largest(upper, (mid) => count(`${text.slice(0, mid)}${CLIP_MARK}`) <= maxTokens);
  return `${text.slice(0, n)}${CLIP_MARK}`;
}

/** Strings this short (ids, dates, codes) are never clipped by fitJson: a cut id is useless. */
const KEEP_WHOLE_CHARS = 40;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Any JSON answer made to fit `maxTokens`, the last guard of every tool: when it does not fit as
 * it is, every string is clipped to the same length (ending in "…") and every list to the same
 * number of items (with `<key>_omitted` beside it), at the largest such size that fits (ids and
 * other strings of at most KEEP_WHOLE_CHARS stay whole), and the
 * answer says `truncated: true`. Tools shape their answers to fit first; this only catches what
 * they could not foresee.
 */
export function fitJson(value: Record<string, unknown>, maxTokens: number, count: CountTokens): string {
  const whole = JSON.stringify(value);
  if (count(whole) <= maxTokens) return whole;
  const root = JSON.parse(whole) as Record<string, Json>;
  // No string longer than the budget in characters can fit, nor a list longer than it in items.
  const limit = Math.min(longest(root), maxTokens * CHARS_PER_TOKEN);
  const render = (size: number) => JSON.stringify({ ...(shrink(root, size) as Record<string, Json>), truncated: true });
  const size = largest(limit, (n) => count(render(n)) <= maxTokens);
  const text = render(size);
  return count(text) <= maxTokens ? text : leadingKeys(shrink(root, 0) as Record<string, Json>, maxTokens, count);
}

/** Even at its smallest the answer is too big: its leading keys (each with its `_omitted` count) that fit. */
function leadingKeys(small: Record<string, Json>, maxTokens: number, count: CountTokens): string {
  const keys = Object.keys(small).filter((key) => !(key.endsWith('_omitted') && key.slice(0, -'_omitted'.length) in small));
  const render = (n: number) => {
    const out: Record<string, Json> = {};
    for (const key of keys.slice(0, n)) {
      out[key] = small[key]!;
      if (`${key}_omitted` in small) out[`${key}_omitted`] = small[`${key}_omitted`]!;
    }
    return JSON.stringify({ ...out, truncated: true });
  };
  return render(largest(keys.length, (n) => count(render(n)) <= maxTokens));
}

function longest(value: Json): number {
  let max = 0;
  const visit = (v: Json) => {
    if (typeof v === 'string') max = Math.max(max, v.length);
    else if (Array.isArray(v)) {
      max = Math.max(max, v.length);
      for (const item of v) visit(item);
    } else if (v && typeof v === 'object') for (const item of Object.values(v)) visit(item);
  };
  visit(value);
  return max;
}

function shrink(value: Json, size: number): Json {
  if (typeof value === 'string') return value.length > Math.max(size, KEEP_WHOLE_CHARS) ? `${value.slice(0, size)}${CLIP_MARK}` : value;
  if (Array.isArray(value)) return value.slice(0, size).map((item) => shrink(item, size));
  if (value && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) out[key] = shrink(item, size);
    // A list cut here adds to what an earlier cut already counted.
    for (const [key, item] of Object.entries(value)) {
      if (!Array.isArray(item) || item.length <= size) continue;
      const before = value[`${key}_omitted`];
      out[`${key}_omitted`] = item.length - size + (typeof before === 'number' ? before : 0);
    }
    return out;
  }
  return value;
}
