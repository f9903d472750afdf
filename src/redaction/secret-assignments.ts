/**
 * Key=value secrets and the reject rule (a flagged keyword with no span to mask), which must be decided together: a secret
 * keyword (password, API key, token, …) followed by a marker either has a value we can mask,
 * or the value is announced elsewhere and we cannot promise to have masked it, so the write is refused.
 *
 * Markers: strict assignment `=`, `:=`, `=>`; a colon `:`; a copula `is`/`was` (strong keys only).
 * What follows the marker on the same line is read in its context (secret-values.ts):
 *   - a quoted value → the whole inside of the quotes is masked, spaces and all, unless a placeholder;
 *   - literal context — a whole `KEY=value` or `key: value` line, a URL/connection-string parameter
 *     (`?token=…`, `;Password=…`), a JSON pair (`"auth": "…"`) — any value but a placeholder, a type
 *     or a prose word is the secret;
 *   - code (`password = request.form['password']`, `{'token': token}`, `password: string;`) → left alone:
 *     calls, member access, subscripts, identifiers, types and placeholders are not secrets;
 *   - prose (`my password is hunter2`, `the wifi password: Xk29sLq0Tz!`) → a value with digits or
 *     symbols, or a lone word that ends the clause ("The password is swordfish.").
 * Refusal (PiiRejectedError), only for a strong key and only when a value is announced but absent:
 *   - a deferral after the marker ("the API key is below", "password: see attached", "in the next message");
 *   - a copula that ends its line ("my password is" ⏎ …);
 *   - a line that is only the key and a colon ("Password:") as the last line of the text.
 *   A key alone on a line followed by a one-token line ("Password:" ⏎ "hunter2") masks that token.
 * Without a marker ("the staging password Sq7!trellis"), a strong key takes the next token only
 * when it mixes letters with digits. Passphrase keys take the rest of the clause.
 * Secrets named further off in a sentence ("the root password for the box is …") are in secret-sentences.ts.
 */
import { PiiRejectedError } from '../errors.js';
import { classifyKey, classifyStructuredKey, type KeyInfo } from './secret-keys.js';
import { sentenceSecrets, type SecretSpan } from './secret-sentences.js';
import {
  endsClause,
  isCamelCaseOfWords,
  isCodeExpression,
  isPlaceholder,
  isSecretValue,
  looksGenerated,
  MESSAGE_WORDS,
  PROSE_WORDS,
  trimValue,
  type ValueContext,
} from './secret-values.js';

export { PROSE_WORDS } from './secret-values.js';

export { classifyKey } from './secret-keys.js';

export interface AssignmentResult {
  text: string;
  counts: Map<string, number>;
}

/** How far past a marker (characters, same line) a value is looked for; how far back a line start. */
const MAX_VALUE_WINDOW = 512;
const MAX_LINE_PREFIX = 64;
const QUICK_CHECK = /pass|secret|token|key|pin|pwd|mnemonic|phrase|credential|auth|cookie|sig/i;

const MULTI_WORD_KEY = String.raw`(?:personal access|api|access|auth|bearer|refresh|session|secret|private|client|github|gitlab|slack|npm|openai|stripe) (?:key|token|secret)|(?:seed|recovery|secret) phrase|pin code`;
const IDENTIFIER_KEY = String.raw`[A-Za-z_][A-Za-z0-9_.-]*`;
const STRICT = String.raw`:=|=>|=(?!=)`;
const KEY_AND_MARKER = new RegExp(
  String.raw`(?<![A-Za-z0-9_.-])(${MULTI_WORD_KEY}|${IDENTIFIER_KEY})["'\x60]?(?:[ \t]*(${STRICT}|:(?!:))|[ \t]+(is|was)\b(?:[ \t]+(?:set[ \t]+to|now|still))?[ \t]*:?|([ \t]+))[ \t]*`,
  'gi',
);
/** What may precede a key on its line for the line to be a `KEY=value` or YAML `key: value` line. */
const LINE_PREFIX = /^[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+)?["']?$/;

const DEFERRAL =
  /^(?:(?:see|check|find|is|in|at)\s+)?(?:the\s+)?(?:below|above|attached|following|as follows|next (?:message|line)|(?:in|on) (?:the|my|a) (?:next|following|separate)|to follow|tbd|to be provided)\b/i;
/** First words of prose after "passphrase is", never of a passphrase. */
const PHRASE_STOP = new Set([
  'none',
  'null',
  'nil',
  'blank',
  'true',
  'false',
  'given',
  'provided',
  'supplied',
  'required',
  'optional',
  'mandatory',
  'missing',
  'empty',
  'not',
  'too',
  'very',
  'in',
  'on',
  'at',
  'the',
  'a',
  'an',
  'case',
  'set',
  'used',
  'needed',
  'only',
  'also',
  'still',
  'never',
  'always',
  'what',
  'how',
  'why',
  'where',
  'when',
  'for',
  'to',
  'of',
  'with',
  'and',
  'or',
  'but',
  'that',
  'this',
  'it',
  'is',
  'was',
  'be',
  'must',
  'should',
  'will',
  'can',
  'may',
  'different',
  'same',
  'long',
  'short',
  'weak',
  'strong',
  'wrong',
  'invalid',
  'valid',
]);
const LABEL: Record<string, string> = {
  PASSWORD: 'a password',
  PIN: 'a PIN',
  API_KEY: 'an API key',
  ACCESS_KEY: 'an access key',
  PRIVATE_KEY: 'a private key',
  AWS_SECRET_KEY: 'an AWS secret key',
  SECRET: 'a secret',
  TOKEN: 'a token',
};

type Found = { start: number; end: number } | null | 'reject';

/**
 * Masks the values of secret assignments; throws PiiRejectedError per the rule above unless
 * `rejectUnmaskable` is false (short fields and model output: mask what is there, refuse nothing).
 */
export function redactAssignments(text: string, rejectUnmaskable = true): AssignmentResult {
  const counts = new Map<string, number>();
  if (!QUICK_CHECK.test(text)) return { text, counts };
  const spans: SecretSpan[] = [];
  const re = new RegExp(KEY_AND_MARKER.source, KEY_AND_MARKER.flags);
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const keyText = m[1]!;
    const before = text[m.index - 1] ?? '';
    const param = before === '?' || before === '&' || before === ';' ? before : false;
    const valueStart = m.index + m[0].length;
    const window = text.slice(valueStart, valueStart + MAX_VALUE_WINDOW);
    const newline = window.indexOf('\n');
    const rest = newline < 0 ? window : window.slice(0, newline);
    const marker = m[2];
    const json = marker === ':' && (before === '"' || before === "'") && /^["']/.test(rest);
    const key = param || json ? classifyStructuredKey(keyText, param !== false) : classifyKey(keyText);
    const copula = m[3] !== undefined;
    const bare = m[4] !== undefined;
    if (!key || ((copula || bare) && !key.strong)) {
      re.lastIndex = m.index + keyText.length;
      continue;
    }
    let found: Found | 'empty';
    if (bare) found = bareValueSpan(rest);
    else {
      const lineStart = startOfLine(text, m.index);
      const atLineStart = lineStart >= 0 && LINE_PREFIX.test(text.slice(lineStart, m.index));
      const wholeLine = atLineStart && isWholeLine(m[0], marker, rest);
      const context: ValueContext = param || json || wholeLine ? 'literal' : marker && marker !== ':' ? 'code' : 'prose';
      // A quoted value on a `key: "…"` line may be a JavaScript object's (`token: "comment"`), not YAML's.
      const lineQuoted = wholeLine && !param && !json && /^["'`]/.test(rest);
      found =
        key.phrase && context !== 'code'
          ? (phraseSpan(rest) ?? valueSpan(rest, context, param, key, copula, lineQuoted))
          : valueSpan(rest, context, param, key, copula, lineQuoted);
      if (found === 'empty') {
        // "my password is" ⏎ hunter2: the next line's lone token; wrapped prose ("… the passphrase is" ⏎
        // "longer than …") is no announcement; nothing at all after it is.
        const next = copula || (marker === ':' && atLineStart) ? nextLineValue(text, valueStart + rest.length) : null;
        found = next && next !== 'reject' ? { start: next.start - valueStart, end: next.end - valueStart } : next;
      }
    }
    if (found === 'reject') {
      if (!key.strong || !rejectUnmaskable) continue;
      throw new PiiRejectedError(
        `content mentions ${LABEL[key.kind] ?? 'a secret'} but no redactable value follows it; include the value inline so it can be redacted, or leave the mention out`,
        {
          kind: key.kind,
          offset: m.index,
        },
      );
    }
    if (found) {
      spans.push({ start: valueStart + found.start, end: valueStart + found.end, kind: key.kind });
      re.lastIndex = valueStart + found.end;
    }
  }
  const all = mergeSpans(spans, sentenceSecrets(text));
  for (const s of all) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  let out = text;
  for (const s of all.reverse()) out = `${out.slice(0, s.start)}[${s.kind}]${out.slice(s.end)}`;
  return { text: out, counts };
}

/** Where the line holding `index` starts, or -1 when that is further back than MAX_LINE_PREFIX. */
function startOfLine(text: string, index: number): number {
  for (let i = index - 1; i >= Math.max(0, index - MAX_LINE_PREFIX); i--) if (text[i] === '\n') return i + 1;
  return index <= MAX_LINE_PREFIX ? 0 : -1;
}

/** `KEY=value` (no space before `=`) or `key: value`, the value one token ending the line (a `#` comment may follow). */
function isWholeLine(matched: string, marker: string | undefined, rest: string): boolean {
  if (marker !== ':' && !(marker === '=' && /[^ \t]=[ \t]*$/.test(matched))) return false;
  const quoted = /^(["'`])(?:(?!\1).){0,510}\1/.exec(rest);
  if (quoted) return /^[ \t]*(?:#.*)?$/.test(rest.slice(quoted[0].length));
  // A value ending in `,` `;` `{` `(` is a line of code (`authToken: authToken,`), not of YAML.
  return /^\S*[^\s,;{(](?:[ \t]+#.*)?[ \t]*$/.test(rest);
}

/** Spans in text order, the later of two overlapping ones dropped. */
function mergeSpans(a: readonly SecretSpan[], b: readonly SecretSpan[]): SecretSpan[] {
  const sorted = [...a, ...b].sort((x, y) => x.start - y.start);
  const out: SecretSpan[] = [];
  for (const s of sorted) if (out.length === 0 || s.start >= out[out.length - 1]!.end) out.push(s);
  return out;
}

/** "Password:" alone on its line: the next line's single token is the value; none at all is a refusal. */
function nextLineValue(text: string, lineEnd: number): { start: number; end: number } | null | 'reject' {
  const window = text.slice(lineEnd, lineEnd + MAX_VALUE_WINDOW);
  const m = /^\s*\n([ \t]*)(\S+)[ \t]*(?:\n|$)/.exec(window);
  if (!m) return window.trim() === '' ? 'reject' : null;
  const value = trimValue(m[2]!);
  if (isCodeExpression(m[2]!) || !isSecretValue(value, 'literal', PROSE_WORDS)) return null;
  const start = lineEnd + m[0].indexOf(m[2]!, m[0].indexOf('\n') + 1);
  return { start, end: start + value.length };
}

/**
 * No marker at all ("the staging password Sq7!trellis"): only a token that cannot be a prose word
 * or a version (letters mixed with digits, at least 6 characters) is taken; never a rejection.
 */
function bareValueSpan(rest: string): { start: number; end: number } | null {
  const raw = /^[^\s'"`]{1,256}/.exec(rest)?.[0] ?? '';
  const token = trimValue(raw);
  // Paths, links and calls (`Export](docs/export.md)`) are no values.
  if (
    /[/()[\]{}<>]/.test(token) ||
    token.length < 6 ||
    isPlaceholder(token) ||
    isCodeExpression(raw) ||
    PROSE_WORDS.has(token.toLowerCase())
  )
    return null;
  if (/^v?\d+(?:\.\d+)+/.test(token) || /^\d+[a-z]{1,3}$/i.test(token)) return null;
  return /[A-Za-z]/.test(token) && /\d/.test(token) ? { start: 0, end: token.length } : null;
}

/** A passphrase's words up to the end of the clause (a quoted one is left to valueSpan). */
function phraseSpan(rest: string): { start: number; end: number } | null {
  if (/^["'`]/.test(rest) || DEFERRAL.test(rest.trim())) return null;
  const end = rest.search(/[.;,!?](?:\s|$)|$/);
  const value = rest.slice(0, end).trimEnd();
  if (value === '' || isPlaceholder(value) || isCodeExpression(value)) return null;
  // "the passphrase is required for login": a phrase starts with a word that can be one.
  const first = /^\S+/.exec(value)![0].toLowerCase();
  if (PHRASE_STOP.has(first) || /^[a-z]+(?:ed|ing|ly)$/.test(first)) return null;
  return { start: 0, end: value.length };
}

/** Where the value sits in the rest of the line; 'empty' when nothing follows the marker, 'reject' on a deferral. */
function valueSpan(
  rest: string,
  context: ValueContext,
  param: string | false,
  key: KeyInfo,
  copula: boolean,
  lineQuoted = false,
): Found | 'empty' {
  const trimmed = rest.trim();
  if (DEFERRAL.test(trimmed)) return 'reject';
  if (trimmed === '') return 'empty';
  const quote = rest[0];
  if (quote === "'" || quote === '"' || quote === '`') {
    // An unclosed quote is the closing one of a code span or string (`if not password:`), no value.
    const close = rest.indexOf(quote, 1);
    if (close < 0) return null;
    const inner = rest.slice(1, close);
    if (inner.trim() === '' || isPlaceholder(inner)) return null;
    // `':' + urlquote(password)`, `'%s:%s' % (…)`: a string being built is code; `"challengePassword"` is a name.
    if (
      context !== 'literal' &&
      (/^\s*(?:[-+%*]|\.[A-Za-z_])/.test(rest.slice(close + 1)) || (!/\d/.test(inner) && isCamelCaseOfWords(inner)))
    )
      return null;
    // In code, a string under a token/secret/key name is a secret only when it looks generated
    // (`token = "linkified"` is not); a password's or PIN's quoted value is one whatever it is.
    if ((context !== 'literal' || lineQuoted) && !key.strong && !looksGenerated(inner)) return null;
    if (context !== 'literal' && key.kind !== 'PASSWORD' && key.kind !== 'PIN' && !looksGenerated(inner)) return null;
    // A quoted sentence under a password name is a message (`WRONG_PASSWORD: "Wrong Password"`).
    if (context !== 'literal' && /\s/.test(inner.trim()) && MESSAGE_WORDS.test(inner)) return null;
    // A backtick span is code unless it is one bare token (`password: \`hunter2\``).
    if (quote === '`' && (/\s|\$\{/.test(inner) || isCodeExpression(inner))) return null;
    return { start: 1, end: close };
  }
  const raw = /^\S{1,256}/.exec(rest)?.[0] ?? '';
  if (isCodeExpression(raw, context === 'literal' || copula)) return null;
  let value = raw;
  // A URL parameter ends at `&` or `#`, a connection-string one at `;`; inline in code or prose a
  // value ends at a `,`, `;` or closing bracket (`{password:_,strength:f}`, `n.password=null;const`).
  const cut = value.search(param === ';' ? /[;"'`]/ : param ? /[&#"'`]/ : context === 'literal' ? /["'`]|;[A-Za-z ]{1,40}=/ : /["'`,;)}]/);
  if (cut >= 0) value = value.slice(0, cut);
  value = trimValue(value);
  if (!isSecretValue(value, context, PROSE_WORDS)) return null;
  // A link in code or prose (`Bearer Token: https://tools.ietf.org/…`); URL credentials have their own rule.
  if (context !== 'literal' && value.includes('://')) return null;
  // A lone "token" or "secret" outside data (`token: 7785`, `secret = abc`) needs a generated-looking value.
  if (!key.strong && context !== 'literal' && !looksGenerated(value)) return null;
  if (context === 'prose' && /^[A-Za-z]+$/.test(value)) {
    // A lone word is a value only when it ends the clause ("The password is swordfish."); after a
    // colon, only when it ends the sentence (`apiKey: key,` is an object literal).
    const after = rest.slice(value.length);
    if (!endsClause(after) || (!copula && !/^[.!?]*\s*$|^[.!?]\s/.test(after))) return null;
  }
  return { start: 0, end: value.length };
}

export type { KeyInfo };
