/**
 * The one definition of well-formed text, applied to every string a write stores, whatever the
 * transport (GraphQL, MCP, in-process): pasted text carries stray characters all the time, and
 * refusing a whole request (or batch) for one of them loses what the client meant to keep.
 *
 * - Whitespace controls become what they stand for: tab → space; CR LF, lone CR, vertical tab,
 *   form feed, NEL (U+0085), LINE and PARAGRAPH SEPARATOR (U+2028/2029) → line feed.
 * - Other C0/C1 controls, DEL and NUL are removed (kind `control`).
 * - Bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069) are removed (kind `bidi`):
 *   stored text must not reorder what a person later reads in the explorer or a log. The marks
 *   LRM, RLM and ALM stay (right-to-left writing needs them; they reorder nothing around them).
 * - Zero-width space, word joiner and BOM (U+200B, U+2060, U+FEFF) are removed (kind `invisible`):
 *   they split a word (or a secret) invisibly, so search and the redactor would miss it.
 *   ZWJ and ZWNJ stay (emoji sequences, Persian and Indic scripts).
 * - A lone surrogate half (a string cut inside an emoji) becomes U+FFFD (kind `lone_surrogate`):
 *   replacing keeps the rest of the item, where refusing would lose it.
 *
 * The result is idempotent: cleaning clean text changes nothing.
 */

export type CleanupKind = 'control' | 'bidi' | 'invisible' | 'lone_surrogate';

/** How many characters of each kind were removed or replaced (only kinds that occurred). */
export type TextCleanup = Array<{ kind: CleanupKind; count: number }>;

// Constant-width alternatives, no nested quantifier: linear in the input. `\n` itself is clean
// and left out, so the common text with line breaks takes the fast path.
const SURROGATE_HALF = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const SPECIAL = '\\r\\n|[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u200b\\u2028\\u2029\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff]';
const NOT_CLEAN = new RegExp(`${SPECIAL}|${SURROGATE_HALF}`);
const NOT_CLEAN_ALL = new RegExp(`${SPECIAL}|${SURROGATE_HALF}`, 'g');

function classify(match: string): { kind: CleanupKind | null; replacement: string } {
  const c = match.charCodeAt(0);
  if (match === '\t') return { kind: null, replacement: ' ' };
  if (match === '\r\n' || c === 0x0d || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028 || c === 0x2029)
    return { kind: null, replacement: '\n' };
  if (c <= 0x9f) return { kind: 'control', replacement: '' };
  if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return { kind: 'bidi', replacement: '' };
  if (c >= 0xd800 && c <= 0xdfff) return { kind: 'lone_surrogate', replacement: '\ufffd' };
  return { kind: 'invisible', replacement: '' };
}

/** Counts cleanups across the several strings of one item (content, tags, metadata…). */
export class CleanupTally {
  private readonly counts = new Map<CleanupKind, number>();

  add(kind: CleanupKind, count = 1): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + count);
  }

  addAll(cleanup: TextCleanup): void {
    for (const { kind, count } of cleanup) this.add(kind, count);
  }

  list(): TextCleanup {
    return [...this.counts].map(([kind, count]) => ({ kind, count }));
  }
}

/** `text` as well-formed text (see the module comment), counting what changed into `tally`. */
export function cleanText(text: string, tally?: CleanupTally): string {
  if (!NOT_CLEAN.test(text)) return text;
  return text.replace(NOT_CLEAN_ALL, (match) => {
    const { kind, replacement } = classify(match);
    if (kind) tally?.add(kind);
    return replacement;
  });
}

export function cleanOptionalText(text: string | null | undefined, tally?: CleanupTally): string | null | undefined {
  return typeof text === 'string' ? cleanText(text, tally) : text;
}

/**
 * Every string of a JSON-like value cleaned, object keys included (metadata). Values that are not
 * strings, arrays or plain objects are returned as they are; the caller's own checks judge them.
 * Two keys that clean to the same key keep the later value, as JSON.parse would.
 */
export function cleanJsonStrings(value: unknown, tally?: CleanupTally): unknown {
  if (typeof value === 'string') return cleanText(value, tally);
  if (Array.isArray(value)) return value.map((item) => cleanJsonStrings(item, tally));
  if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[cleanText(key, tally)] = cleanJsonStrings(item, tally);
    return out;
  }
  return value;
}
