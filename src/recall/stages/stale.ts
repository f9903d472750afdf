/**
 * The stale factor (pure; a penalty, rank.ts): the decay pass (src/sessions/decay-pass.ts) flags memories
 * stale; recall ranks them lower and keeps them. A memory nobody retrieved within the window gets
 * this factor; an expired temporal one is not lowered, since questions about the past still need
 * it (the flag then only explains why). Explains `stale` and `staleReason`.
 */
export const UNRETRIEVED_STALE_FACTOR = 0.8;

export function staleFactor(reason: string | null): number {
  return reason === 'unretrieved' ? UNRETRIEVED_STALE_FACTOR : 1;
}
