/**
 * Key=value secrets and seed 001's reject rule, which must be decided together: a secret
 * keyword (password, API key, token, …) followed by a marker either has a value we can mask,
 * or the value is elsewhere and we cannot promise to have masked it, so the write is refused.
 *
 * Markers: strict assignment `=`, `:=`, `=>`; a colon `:`; a copula `is`/`was` (only for
 * passwords, API/access/private keys and two-word tokens such as "access token").
 * Rule, after the marker on the same line:
 *   - nothing, or a deferral ("below", "attached", "as follows", "in the next message")
 *     → PiiRejectedError ("password:" at the end, "my password is", "the API key is below");
 *   - a quoted value → the inside of the quotes is masked (`password='[PASSWORD]'`);
 *   - a reference (`$X`, `${X}`, `${{ secrets.X }}`, `<your key>`) or an earlier `[KIND]` → left alone;
 *   - otherwise the next token: always a value after a strict assignment; after `:` or a copula
 *     only when it looks like a secret (digits, symbols, inner capitals) or ends the clause,
 *     and is not a prose word ("is required", "is too short", "is hashed with bcrypt").
 * A keyword without a marker is prose and never rejected ("reset your password via settings").
 * Without any marker ("the staging password Sq7!trellis"), a strong key takes the next token only
 * when it mixes letters with digits or symbols. Passphrase, seed-phrase and mnemonic keys take the
 * rest of the clause ("passphrase: correct horse battery staple").
 * Known limit: after a copula a plain password key takes one token, so "my password is correct
 * horse battery staple" is read as prose.
 */
import { trimEndChars } from '../text/index.js';
import { PiiRejectedError } from '../errors.js';

export interface AssignmentResult {
  text: string;
  counts: Map<string, number>;
}

/** How far past a marker (characters, same line) a value is looked for. */
const MAX_VALUE_WINDOW = 512;
const QUICK_CHECK = /pass(?:word|wd|phrase|code)|secret|token|api[ _-]?key|apikey|private[ _-]?key|access[ _-]?key|\bpin\b|\bpwd\b|mnemonic|seed phrase|recovery phrase/i;

const MULTI_WORD_KEY = String.raw`(?:personal access|api|access|auth|bearer|refresh|session|secret|private|client|github|gitlab|slack|npm|openai|stripe) (?:key|token|secret)|(?:seed|recovery|secret) phrase|pin code`;
const IDENTIFIER_KEY = String.raw`[A-Za-z_][A-Za-z0-9_.-]*`;
const STRICT = String.raw`:=|=>|=(?!=)`;
const KEY_AND_MARKER = new RegExp(
  String.raw`(?<![A-Za-z0-9_.-])(${MULTI_WORD_KEY}|${IDENTIFIER_KEY})["'\x60]?(?:[ \t]*(${STRICT}|:(?!:))|[ \t]+(is|was)\b(?:[ \t]+(?:set[ \t]+to|now|still))?[ \t]*:?|([ \t]+))[ \t]*`,
  'gi',
);

const DEFERRAL = /^(?:(?:see|check|find|is|in|at)\s+)?(?:the\s+)?(?:below|above|attached|following|as follows|next (?:message|line)|(?:in|on) (?:the|my|a) (?:next|following|separate)|to follow|tbd|to be provided)\b/i;
const REFERENCE = /^(?:\$\{?[A-Za-z_][\w.]*\}?|%[A-Za-z_]\w*%|<[^>]*>|\{\{[^}]*\}\}|\[[A-Z][A-Z0-9_]*\]|process\.env\.\w+|[*•]{3,})$/;
const BENIGN_LAST = new Set(['file', 'path', 'dir', 'url', 'uri', 'length', 'len', 'min', 'max', 'policy', 'policies', 'reset', 'expiry', 'expires', 'expiration', 'ttl', 'rounds', 'type', 'name', 'id', 'ids', 'count', 'limit', 'field', 'label', 'hint', 'prompt', 'regex', 'pattern', 'strength', 'required', 'enabled', 'disabled', 'header', 'param', 'placeholder', 'endpoint', 'env', 'var', 'rotation', 'age', 'timeout', 'lifetime', 'validation', 'prefix', 'format', 'mode', 'manager', 'usage', 'size', 'budget', 'budgets', 'estimate']);
const BENIGN_FIRST = new Set(['max', 'min', 'num', 'total', 'no', 'show', 'hide', 'has', 'is', 'use', 'reset', 'forgot']);
/** Words that follow a secret keyword in prose, never as its value. */
export const PROSE_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'not', 'no', 'yes', 'true', 'false', 'null', 'nil', 'none', 'too', 'very', 'so', 'still', 'now', 'just', 'only', 'also', 'never', 'always', 'case', 'required', 'optional', 'mandatory', 'wrong', 'incorrect', 'correct', 'invalid', 'valid', 'missing', 'empty', 'blank', 'weak', 'strong', 'secure', 'insecure', 'safe', 'unsafe', 'long', 'short', 'different', 'same', 'good', 'bad', 'fine', 'ok', 'okay', 'great', 'simple', 'complex', 'easy', 'hard', 'secret', 'private', 'public', 'sensitive', 'important', 'new', 'old', 'unknown', 'known', 'visible', 'hidden', 'in', 'on', 'at', 'for', 'from', 'of', 'to', 'by', 'with', 'via', 'into', 'over', 'under', 'there', 'here', 'must', 'should', 'will', 'would', 'can', 'could', 'cannot', 'may', 'might', 'and', 'or', 'but', 'that', 'which', 'what', 'how', 'where', 'when', 'why', 'my', 'your', 'his', 'her', 'our', 'their', 'its', 'it', 'this', 'these', 'those', 'one', 'something', 'stored', 'set']);
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

interface KeyInfo {
  kind: string;
  /** A credential word on its own (password, API key, access token): takes a copula and can be rejected. */
  strong: boolean;
  /** A passphrase or seed phrase: the value runs to the end of the clause, words and all. */
  phrase?: boolean;
}

/** The secret kind a key names, or null when it names none (`password_min_length`, `max_tokens`). */
export function classifyKey(key: string): KeyInfo | null {
  const segments = key
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((s) => s.toLowerCase())
    .filter(Boolean);
  const last = segments[segments.length - 1];
  if (!last || BENIGN_LAST.has(last) || (segments.length > 1 && BENIGN_FIRST.has(segments[0]!))) return null;
  const has = (re: RegExp) => segments.some((s) => re.test(s));
  const pair = (a: string, b: string) => segments.some((s, i) => s === a && segments[i + 1] === b);
  if (has(/^[a-z]{0,6}pass(?:word|wd|phrase|code)$/) || has(/^pwd$/)) return { kind: 'PASSWORD', strong: true, phrase: segments.some((x) => x.endsWith('phrase')) };
  if (has(/^mnemonic$/) || pair('seed', 'phrase') || pair('recovery', 'phrase') || pair('secret', 'phrase')) return { kind: 'PASSWORD', strong: true, phrase: true };
  if (segments.length <= 2 && has(/^pin$/)) return { kind: 'PIN', strong: true };
  if (has(/^[a-z]*secret$/)) return { kind: segments.includes('aws') ? 'AWS_SECRET_KEY' : 'SECRET', strong: segments.length > 1 };
  if (has(/^apikey$/) || pair('api', 'key')) return { kind: 'API_KEY', strong: true };
  if (has(/^privatekey$/) || pair('private', 'key')) return { kind: 'PRIVATE_KEY', strong: true };
  if (has(/^accesskey$/) || pair('access', 'key')) return { kind: 'ACCESS_KEY', strong: true };
  if (has(/^[a-z]*token$/)) return { kind: 'TOKEN', strong: segments.length > 1 };
  return null;
}

/**
 * Masks the values of secret assignments; throws PiiRejectedError per the rule above unless
 * `rejectUnmaskable` is false (short fields and model output: mask what is there, refuse nothing).
 */
export function redactAssignments(text: string, rejectUnmaskable = true): AssignmentResult {
  const counts = new Map<string, number>();
  if (!QUICK_CHECK.test(text)) return { text, counts };
  const spans: Array<{ start: number; end: number; kind: string }> = [];
  const re = new RegExp(KEY_AND_MARKER.source, KEY_AND_MARKER.flags);
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const key = classifyKey(m[1]!);
    const copula = m[3] !== undefined;
    const bare = m[4] !== undefined;
    if (!key || ((copula || bare) && !key.strong)) {
      re.lastIndex = m.index + m[1]!.length;
      continue;
    }
    const valueStart = m.index + m[0].length;
    const lineEnd = text.indexOf('\n', valueStart);
    const rest = text.slice(valueStart, Math.min(lineEnd < 0 ? text.length : lineEnd, valueStart + MAX_VALUE_WINDOW));
    const strict = m[2] !== undefined && m[2] !== ':';
    const span = bare ? bareValueSpan(rest) : key.phrase ? (phraseSpan(rest) ?? valueSpan(rest, strict)) : valueSpan(rest, strict);
    if (span === 'reject') {
      if (!key.strong || !rejectUnmaskable) continue;
      throw new PiiRejectedError(`content mentions ${LABEL[key.kind] ?? 'a secret'} but no redactable value follows it; include the value inline so it can be redacted, or leave the mention out`, {
        kind: key.kind,
        offset: m.index,
      });
    }
    if (span) {
      spans.push({ start: valueStart + span.start, end: valueStart + span.end, kind: key.kind });
      counts.set(key.kind, (counts.get(key.kind) ?? 0) + 1);
      re.lastIndex = valueStart + span.end;
    }
  }
  let out = text;
  for (const s of spans.reverse()) out = `${out.slice(0, s.start)}[${s.kind}]${out.slice(s.end)}`;
  return { text: out, counts };
}

/**
 * No marker at all ("the staging password Sq7!trellis"): only a token that cannot be a prose word
 * (letters mixed with digits or symbols, at least 6 characters) is taken; never a rejection.
 */
function bareValueSpan(rest: string): { start: number; end: number } | null {
  const token = trimEndChars(/^[^\s'"`&]+/.exec(rest)?.[0] ?? '', '.,;:!?)]}>');
  if (token.length < 6 || REFERENCE.test(token) || PROSE_WORDS.has(token.toLowerCase())) return null;
  const mixed = /[A-Za-z]/.test(token) && /[\d!@#$%^&*+=~]/.test(token);
  return mixed ? { start: 0, end: token.length } : null;
}

/** A passphrase's words up to the end of the clause (a quoted one is left to valueSpan). */
function phraseSpan(rest: string): { start: number; end: number } | null {
  if (/^["'`]/.test(rest) || DEFERRAL.test(rest.trim())) return null;
  const end = rest.search(/[.;,!?](?:\s|$)|$/);
  const value = rest.slice(0, end).trimEnd();
  if (value === '' || REFERENCE.test(value)) return null;
  return { start: 0, end: value.length };
}

/** Where the value sits in the rest of the line, null when there is none to mask, or 'reject'. */
function valueSpan(rest: string, strict: boolean): { start: number; end: number } | null | 'reject' {
  const trimmed = rest.trim();
  if (DEFERRAL.test(trimmed)) return 'reject';
  // `KEY=` with nothing after it is an empty value (a .env template), not a value kept elsewhere.
  if (trimmed === '') return strict ? null : 'reject';
  const quote = rest[0];
  if (quote === "'" || quote === '"' || quote === '`') {
    const close = rest.indexOf(quote, 1);
    if (close > 1) return REFERENCE.test(rest.slice(1, close)) ? null : { start: 1, end: close };
    if (close === 1) return null;
  }
  if (/^(?:<[^>]*>|\$?\{\{[^}]*\}\}|\$\{[^}]*\})/.test(rest)) return null;
  const offset = quote === "'" || quote === '"' || quote === '`' ? 1 : 0;
  const raw = /^[^\s'"`&]+/.exec(rest.slice(offset))?.[0] ?? '';
  const token = trimEndChars(raw, '.,;:!?)]}>');
  if (token === '' || REFERENCE.test(token) || REFERENCE.test(trimEndChars(raw, '.,;:!?)'))) return null;
  const span = { start: offset, end: offset + token.length };
  if (strict) return span;
  if (PROSE_WORDS.has(token.toLowerCase()) || /^[A-Za-z]+(?:ed|ing|ly)$/.test(token) || /^[a-z]+(?:-[a-z]+)+$/.test(token)) return null;
  if (/\d|[^A-Za-z]|[a-z][A-Z]/.test(token)) return span;
  const after = rest.slice(span.end);
  return /^[.,;:!?)\]]*\s*$|^[.,;!?]/.test(after) ? span : null;
}
