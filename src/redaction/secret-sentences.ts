/**
 * Secrets named by their sentence rather than a key: "The root password for the staging box is
 * Tr0ub4dor&3 until Friday.", "Use passphrase "correct horse battery staple" to unlock the vault",
 * "set the admin password to "…"". A secret word is followed, within at most six words of the
 * same sentence, by is/was/are/:/= (or, for passwords, "to"), or directly by a quoted value.
 * A quoted value is masked whole, spaces and all; an unquoted one is the run up to whitespace and
 * must look generated (letters with digits or symbols, 6+ characters) or be a PIN's digits, so
 * "the password for the box is long" and "the secret to good tests is isolation" stay.
 * The word list is bounded and each match reads a bounded window: linear in the text.
 */
import {
  endsClause,
  isCodeExpression,
  isMixed,
  isPlaceholder,
  isSecretValue,
  MESSAGE_WORDS,
  PROSE_WORDS,
  trimValue,
} from './secret-values.js';

export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

const SECRET_WORD =
  /(?<![\w-])(pass(?:word|phrase|code)s?|PINs?|pin (?:code|number)s?|(?:api|access|secret|private|license) keys?|(?:access|auth|api|bearer|refresh|session) tokens?|credentials)(?![\w-])/gi;
/** Up to six bridging words, then the marker; sticky, so it reads only from where the word ends. */
const BRIDGE =
  /((?:[ \t]+(?!(?:is|was|are|to|as)\b)[A-Za-z][\w'’-]{0,30}){0,6}?)[ \t]*(?:\b(is|was|are)\b[ \t]*:?|(=|:(?!\/\/))|\b(to|as)\b)[ \t]*/y;
/** Or a quoted value right after the word. */
const DIRECT = /[ \t]+(?=["“'])/y;
const MAX_VALUE = 256;

const kindOf = (word: string): string => {
  const w = word.toLowerCase();
  if (w.startsWith('pass')) return 'PASSWORD';
  if (w.startsWith('pin')) return 'PIN';
  if (w.startsWith('api')) return 'API_KEY';
  if (w.startsWith('access key')) return 'ACCESS_KEY';
  if (w.startsWith('private')) return 'PRIVATE_KEY';
  if (w.includes('token')) return 'TOKEN';
  return 'SECRET';
};

/** Every sentence-named secret in `text`, in text order. */
export function sentenceSecrets(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  const words = new RegExp(SECRET_WORD.source, SECRET_WORD.flags);
  const bridge = new RegExp(BRIDGE.source, BRIDGE.flags);
  let m: RegExpExecArray | null;
  while ((m = words.exec(text)) !== null) {
    const word = m[1]!;
    // "pin" in lower case is a verb ("pin the dependency"); only PIN, or "pin code", names a secret.
    if (/^pins?$/.test(word) || /^Pins?$/.test(word)) continue;
    const end = m.index + m[0].length;
    bridge.lastIndex = end;
    let b = bridge.exec(text);
    if (!b) {
      DIRECT.lastIndex = end;
      b = DIRECT.exec(text);
      if (!b) continue;
    }
    const bridged = (b[1] ?? '').trim() !== '';
    const marker = b[2] ?? b[3] ?? b[4];
    // A marker right after the word is secret-assignments.ts's (`password: …`, `password = …`).
    if (marker && !bridged && marker !== 'to' && marker !== 'as') continue;
    const valueStart = b.index + b[0].length;
    const rest = text.slice(valueStart, valueStart + MAX_VALUE);
    const kind = kindOf(word);
    const span = valueOf(rest, kind, marker, bridged);
    if (span) {
      out.push({ start: valueStart + span.start, end: valueStart + span.end, kind });
      words.lastIndex = valueStart + span.end;
    }
  }
  return out;
}

function valueOf(rest: string, kind: string, marker: string | undefined, bridged: boolean): { start: number; end: number } | null {
  const quote = rest[0];
  if (quote === '"' || quote === '“' || quote === "'") {
    // Quoted right after the word ("passphrase "…"") or after a marker: masked whole.
    if (bridged && !marker) return null;
    const close = rest.indexOf(quote === '“' ? '”' : quote, 1);
    if (close <= 1) return null;
    const inner = rest.slice(1, close);
    if (inner.includes('\n') || isPlaceholder(inner.trim()) || (/\s/.test(inner.trim()) && MESSAGE_WORDS.test(inner))) return null;
    return { start: 1, end: close };
  }
  if (!marker || ((marker === 'to' || marker === 'as') && kind !== 'PASSWORD')) return null;
  const raw = /^[^\s"'`]{1,256}/.exec(rest)?.[0] ?? '';
  // A sentence is no code: only a call or member access (`is hashed(pw)`, `is user.password`) is taken for one.
  if (isCodeExpression(raw, true)) return null;
  const cut = raw.search(/[,;)}]/);
  const value = trimValue(cut < 0 ? raw : raw.slice(0, cut));
  if (isPlaceholder(value) || /^v?\d+(?:\.\d+)+$/.test(value)) return null;
  const digits = /^\d{4,12}$/.test(value) && (kind === 'PIN' || kind === 'PASSWORD');
  const generated = value.length >= 6 && isMixed(value);
  // A lone word (6+ letters, no prose) counts when the clause ends or goes on past it: "… is orbitviolet until Friday".
  const word =
    value.length >= 6 &&
    /^[A-Za-z]+$/.test(value) &&
    marker !== 'to' &&
    marker !== 'as' &&
    marker !== 'are' &&
    isSecretValue(value, 'prose', PROSE_WORDS) &&
    endsClause(rest.slice(value.length));
  return digits || generated || word ? { start: 0, end: value.length } : null;
}
