/**
 * Every tool's answer is bounded by a token budget (the `max_tokens` argument): lists are cut
 * at the last item that fits and say how many were left out, long texts are clipped. Tokens are
 * counted with the embedding model's tokenizer, close to what LLM tokenizers count for English.
 */

export const DEFAULT_MAX_TOKENS = 2_000;
export const MIN_MAX_TOKENS = 100;
export const MAX_MAX_TOKENS = 20_000;

export type CountTokens = (text: string) => number;

/** A JSON answer whose list `key` holds as many leading items as fit; `omitted` counts the rest. */
export function fitList(base: Record<string, unknown>, key: string, items: readonly unknown[], maxTokens: number, count: CountTokens): string {
  const render = (n: number) => JSON.stringify({ ...base, [key]: items.slice(0, n), ...(n < items.length ? { omitted: items.length - n } : {}) });
  if (count(render(items.length)) <= maxTokens) return render(items.length);
  // The largest prefix that fits, by bisection: token counts grow with the prefix.
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(render(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return render(lo);
}

/** `text` cut to at most `maxTokens`, with an ellipsis when cut. */
export function clipText(text: string, maxTokens: number, count: CountTokens): string {
  if (count(text) <= maxTokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(`${text.slice(0, mid)}…`) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}
