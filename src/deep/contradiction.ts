/**
 * Syntactic contradiction detection (the fast path, no model): two statements that share at
 * least two content words and differ in negation polarity, or carry the two sides of an antonym
 * pair, are flagged. Cheap and deterministic; the semantic check by LLM covers the rest.
 */

export const MIN_OVERLAP_FOR_CONTRADICTION = 2;
/** Overlap from which the semantic (LLM) check is worth a call when the syntactic one says no. */
export const MIN_OVERLAP_FOR_SEMANTIC_CHECK = 3;

export interface ContradictionCheck {
  contradicts: boolean;
  /** Shared content words. */
  overlap: number;
  kind: 'negation' | 'antonym' | null;
  detail: string | null;
}

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without']);

const ANTONYM_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['enabled', 'disabled'],
  ['enable', 'disable'],
  ['allow', 'deny'],
  ['allowed', 'denied'],
  ['allows', 'denies'],
  ['accept', 'reject'],
  ['accepted', 'rejected'],
  ['include', 'exclude'],
  ['included', 'excluded'],
  ['true', 'false'],
  ['yes', 'no'],
  ['always', 'never'],
  ['like', 'dislike'],
  ['likes', 'dislikes'],
  ['love', 'hate'],
  ['loves', 'hates'],
  ['prefer', 'avoid'],
  ['prefers', 'avoids'],
  ['start', 'stop'],
  ['started', 'stopped'],
  ['add', 'remove'],
  ['added', 'removed'],
  ['open', 'closed'],
  ['active', 'inactive'],
  ['valid', 'invalid'],
  ['public', 'private'],
  ['required', 'optional'],
  ['increase', 'decrease'],
  ['increased', 'decreased'],
  ['success', 'failure'],
  ['succeeded', 'failed'],
  ['online', 'offline'],
  ['available', 'unavailable'],
  ['supported', 'unsupported'],
  ['safe', 'unsafe'],
  ['higher', 'lower'],
  ['win', 'lose'],
];

const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'to',
  'in',
  'for',
  'with',
  'at',
  'by',
  'from',
  'as',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'has',
  'have',
  'had',
  'do',
  'does',
  'did',
  'will',
  'would',
  'should',
  'can',
  'could',
  'may',
  'might',
  'must',
  'i',
  'we',
  'you',
  'he',
  'she',
  'they',
  'them',
  'his',
  'her',
  'their',
  'our',
  'my',
  'your',
  'so',
  'than',
  'then',
  'there',
  'anymore',
  'any',
  'also',
  'just',
  'now',
  'still',
  'all',
  'some',
  'into',
  'onto',
  'about',
]);

/** Lowercased word tokens; "don't" → "do" + "not", so contractions count as negations. */
export function tokenize(text: string): string[] {
  const words =
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.flatMap((w) => {
    if (w === "can't" || w === 'cant') return ['can', 'not'];
    if (w === "won't") return ['will', 'not'];
    if (w.endsWith("n't")) return [w.slice(0, -3), 'not'];
    return [w.replace(/'s$/, '').replace(/'/g, '')].filter(Boolean);
  });
}

const ANTONYM_WORDS = new Set(ANTONYM_PAIRS.flat());

/** Content words, lightly stemmed (plural/third-person "s"), so "uses" and "use" overlap. */
function contentWords(tokens: readonly string[]): Set<string> {
  const words = tokens.filter((t) => !STOP_WORDS.has(t) && !NEGATIONS.has(t) && !ANTONYM_WORDS.has(t));
  return new Set(words.map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w)));
}

export function lexicalOverlap(a: string, b: string): number {
  const left = contentWords(tokenize(a));
  let shared = 0;
  for (const word of contentWords(tokenize(b))) if (left.has(word)) shared += 1;
  return shared;
}

export function detectContradiction(a: string, b: string): ContradictionCheck {
  const ta = tokenize(a);
  const tb = tokenize(b);
  const overlap = lexicalOverlap(a, b);
  if (overlap < MIN_OVERLAP_FOR_CONTRADICTION) return { contradicts: false, overlap, kind: null, detail: null };

  const negA = ta.some((t) => NEGATIONS.has(t));
  const negB = tb.some((t) => NEGATIONS.has(t));
  if (negA !== negB) return { contradicts: true, overlap, kind: 'negation', detail: `only one statement is negated` };

  const sa = new Set(ta);
  const sb = new Set(tb);
  for (const [x, y] of ANTONYM_PAIRS) {
    const conflict = (sa.has(x) && sb.has(y) && !sa.has(y) && !sb.has(x)) || (sa.has(y) && sb.has(x) && !sa.has(x) && !sb.has(y));
    if (conflict) return { contradicts: true, overlap, kind: 'antonym', detail: `${x}/${y}` };
  }
  return { contradicts: false, overlap, kind: null, detail: null };
}
