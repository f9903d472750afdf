/**
 * What a value after a secret's name looks like: a secret, or code, a type, a placeholder or a
 * word of prose. The same distinctions gitleaks' generic-api-key rule and secretlint's rules make
 * with value shapes, entropy and stop words; our own because no maintained JavaScript rule set
 * classifies a value by its context: @secretlint/secretlint-rule-preset-recommend (13.1) holds
 * vendor-format rules only (redact-tokens.ts covers the same formats) behind an async file-linter
 * API, gitleaks' rules are Go TOML, and the redactor must decide per span, synchronously, in linear time.
 */

import { isDescriptiveWord, isKnownWord } from './english-words.js';

/**
 * Where the value sits, from the most literal to the least:
 * - literal: quoted, a whole `KEY=value` / `key: value` line, a URL or connection-string parameter,
 *   an HTTP header — the text is data, so any value but a placeholder is the secret;
 * - code: an inline `key = value` — an identifier, call, member access or type is code, not a secret;
 * - prose: after "is", or a colon in a sentence — a word of prose is not a secret either.
 */
export type ValueContext = 'literal' | 'code' | 'prose';

/** Words that follow a secret keyword in prose, never as its value. */
export const PROSE_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'not',
  'no',
  'yes',
  'true',
  'false',
  'null',
  'nil',
  'none',
  'too',
  'very',
  'so',
  'still',
  'now',
  'just',
  'only',
  'also',
  'never',
  'always',
  'case',
  'required',
  'optional',
  'mandatory',
  'wrong',
  'incorrect',
  'correct',
  'invalid',
  'valid',
  'missing',
  'empty',
  'blank',
  'weak',
  'strong',
  'secure',
  'insecure',
  'safe',
  'unsafe',
  'long',
  'short',
  'different',
  'same',
  'good',
  'bad',
  'fine',
  'ok',
  'okay',
  'great',
  'simple',
  'complex',
  'easy',
  'hard',
  'secret',
  'private',
  'public',
  'sensitive',
  'important',
  'new',
  'old',
  'unknown',
  'known',
  'visible',
  'hidden',
  'in',
  'on',
  'at',
  'for',
  'from',
  'of',
  'to',
  'by',
  'with',
  'via',
  'into',
  'over',
  'under',
  'there',
  'here',
  'must',
  'should',
  'will',
  'would',
  'can',
  'could',
  'cannot',
  'may',
  'might',
  'and',
  'or',
  'but',
  'that',
  'which',
  'what',
  'how',
  'where',
  'when',
  'why',
  'my',
  'your',
  'his',
  'her',
  'our',
  'their',
  'its',
  'it',
  'this',
  'these',
  'those',
  'one',
  'something',
  'stored',
  'set',
  'hashed',
  'encrypted',
  'expired',
  'revoked',
  'rotated',
  'unique',
  'reused',
  'shared',
  'same',
  'generated',
  'random',
]);

/** Shannon entropy in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Template values and documentation stand-ins (the stop words of secret scanners). */
const PLACEHOLDER_WORDS = new Set([
  'value',
  'read',
  'write',
  'passphrase',
  'passcode',
  'mask',
  'masked',
  'secure',
  'omitted',
  'censored',
  'filtered',
  'changeme',
  'change_me',
  'change-me',
  'changeit',
  'password',
  'passwd',
  'secret',
  'token',
  'apikey',
  'api_key',
  'example',
  'sample',
  'dummy',
  'test',
  'testing',
  'foo',
  'bar',
  'baz',
  'redacted',
  'removed',
  'hidden',
  'masked',
  'todo',
  'tbd',
  'fixme',
  'replaceme',
  'replace_me',
  'placeholder',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'empty',
  'xxx',
  'xxxx',
  'xxxxx',
  'xxxxxx',
  'xxxxxxxx',
  'notset',
  'not_set',
  'unset',
  'default',
  'required',
  'optional',
  'string',
  'secret_key',
  'mysecret',
  'mypassword',
  'yourpassword',
]);
const PLACEHOLDER_SHAPE =
  /^(?:\$\{?[A-Za-z_][\w.]*\}?|\$\(.*\)|%[A-Za-z_]\w*%|<[^<>]*>|\{\{.*\}\}|\$\{\{.*\}\}|\{[A-Za-z_][\w.]*\}|\[[A-Z][A-Z0-9_]*\]|:?[*•.xX#?-]{3,}|.*[-_](?:here|goes[-_]here|placeholder)|process\.env\.\w+|env\(.*\)|secrets?\.[A-Za-z_]\w*|%[sdrif]|%\([a-z_]+\)s|\?|\$\d+|:[a-z_]\w*|@[a-z_]\w*)$/i;

/** `your-api-key`, `my_secret_token`, `YOUR_32_CHAR_SECRET`, `enter your password`: an owner word, then words. */
const OWNED_PLACEHOLDER = /^(?:your|my|the|some|insert|enter|add|put)[-_ ](.+)$/i;
/** Names placeholders are written with that the dictionary does not hold ("password" is not in it). */
const PLACEHOLDER_TERMS = new Set([
  'password',
  'passphrase',
  'token',
  'credential',
  'credentials',
  'username',
  'api',
  'db',
  'sql',
  'url',
  'uri',
  'id',
  'jwt',
  'pat',
  'ssh',
  'aws',
  'gcp',
  'oauth',
  'smtp',
  'app',
  'auth',
  'pw',
  'pwd',
  'passwd',
  'pass',
  'creds',
  'env',
  'dev',
  'prod',
  'org',
  'repo',
  'char',
  'chars',
  'hex',
  'b64',
]);

/**
 * Whether the words after "your"/"my"/… are words: `my_password` is a stand-in, `my_S3cr3tP4ss` or
 * `mY_AAAAAA0A` is a value someone chose, however it starts. Every piece a dictionary word, a known
 * abbreviation or a bare number, and at least one a word.
 */
function isOwnedPlaceholder(value: string): boolean {
  const rest = OWNED_PLACEHOLDER.exec(value)?.[1];
  if (rest === undefined) return false;
  const pieces = rest.split(/[-_ .]+/).filter((p) => p !== '');
  const isWord = (p: string) => /^[a-z]+$/i.test(p) && (PLACEHOLDER_TERMS.has(p.toLowerCase()) || isKnownWord(p));
  return pieces.length > 0 && pieces.every((p) => isWord(p) || /^\d+$/.test(p)) && pieces.some(isWord);
}

/** A stand-in rather than a value: `${X}`, `<token>`, `{{token}}`, `***`, `changeme`, `your-api-key`. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_WORDS.has(value.toLowerCase()) || PLACEHOLDER_SHAPE.test(value) || isOwnedPlaceholder(value);
}

/** Type names as they follow a field name in TypeScript, Python, SQL, GraphQL, Go, Rust, schemas. */
const TYPE_WORDS = new Set([
  'str',
  'string',
  'int',
  'integer',
  'number',
  'float',
  'double',
  'decimal',
  'bool',
  'boolean',
  'bytes',
  'bytea',
  'byte',
  'char',
  'varchar',
  'text',
  'blob',
  'binary',
  'uuid',
  'date',
  'datetime',
  'timestamp',
  'any',
  'unknown',
  'object',
  'dict',
  'list',
  'array',
  'map',
  'set',
  'tuple',
  'optional',
  'secretstr',
  'emailstr',
  'void',
  'never',
  'u8',
  'i32',
  'i64',
  'u32',
  'u64',
  'usize',
  'rune',
  'interface',
  'struct',
  'json',
  'jsonb',
  'password',
  'hash',
  'long',
  'short',
  'id',
  'bigint',
  'serial',
]);
const TYPE_SHAPE = /^(?:[A-Za-z_][\w.]*(?:\[[\w\[\], |.]*\]|<[\w<>, |.]*>|\(\d+\))?[!?]?(?:\[\])?)$/;

/** `string`, `str`, `Optional[str]`, `VARCHAR(255)`, `String!`, `Vec<u8>`, `[]byte`. */
export function isTypeName(value: string): boolean {
  const v = value.replace(/^\[\]/, '');
  if (!TYPE_SHAPE.test(v)) return false;
  const head = /^[A-Za-z_]\w*/.exec(v)?.[0]?.toLowerCase() ?? '';
  return TYPE_WORDS.has(head) || (/[[<(]/.test(v) && /^[A-Z]/.test(v));
}

/**
 * Code rather than a value: a call `getenv("X")`, member access `self.password_hash`,
 * `request.form['password']`, a subscript, a template or a spread — read from the raw run of
 * non-space characters after the marker, before any trimming.
 */
/** A call, member access, subscript or generic: `getenv("X")`, `request.form['password']`, `Pick<T, K>`. */
const CALL_SHAPE =
  /^(?:(?:new|await|typeof|not|yield|return)\s*)?[A-Za-z_$@][\w$]*(?:(?:\?\.|\.|::|->)[A-Za-z_$][\w$]*)*(?:\s*(?:\?\.)?[([<]|(?:(?:\?\.|\.|::|->)[A-Za-z_$][\w$]*)[,;)\]}]*$)/;
/** What only code starts or is made with: brackets, spreads, templates, comments, regexes, operators. */
const OPERATOR_SHAPE =
  /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\s*[-+*/%]|[-+*/%]\s*[A-Za-z_$][\w$.]*\(|^[[{(!&*]|^\.\.\.|^`|^f["']|^\/[*/]|^\/[^\s/]|&&|\|\||=>|[!=]==?|^[A-Za-z_$][\w$]*\s*(?:[-+*/%|&^]|\?\?|<=|>=|\?|:)\s*$/;
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:(?:\?\.|\.|::|->)[A-Za-z_$][\w$]*)+$/;

/**
 * Code rather than a value, read from the raw run of non-space characters after the marker. In
 * data (`literal`: an env or YAML line, a header) only calls and member access count: a value
 * there may well hold `!=` or start with `*`.
 */
export function isCodeExpression(raw: string, literal = false): boolean {
  // Markdown code spans and sentence punctuation around a value are not part of it.
  const core = raw.replace(/^`+/, '').replace(/[`.,;:]+$/, '');
  if (core !== raw && core !== '' && isCodeExpression(core, literal)) return true;
  if (!literal && OPERATOR_SHAPE.test(raw)) return true;
  // A dotted chain of identifiers is member access, unless a segment is all digits or it mixes in
  // digits like a generated value (`s3cr3t.x9` is kept as a secret).
  if (MEMBER_CHAIN.test(raw)) return !/\d/.test(raw) || /^[A-Za-z_$][A-Za-z_$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(raw);
  return CALL_SHAPE.test(raw);
}

/** An identifier in code: `hashed`, `password`, `hashedPassword`, `new_password`, `pw` (no digits). */
/**
 * An identifier in code: `hashed`, `hashedPassword`, `new_password`, `base64Ticket`, `mapToken2` —
 * letters with at most one short run of digits, and (when it has digits) made of words joined by
 * `_` or camelCase humps. `hunter2` and `Xk29sLq0Tz` are not.
 */
export function isIdentifier(value: string): boolean {
  if (!/^[A-Za-z_$][A-Za-z_$]*(?:\d{1,3}[A-Za-z_$]*)?$/.test(value)) return false;
  return !/\d/.test(value) || /_/.test(value) || isCamelCase(value);
}

/** `hashedPassword`, `base64EncodedTicket`, `nextToken` — not `abcDEF123`. */
export const isCamelCase = (value: string) => /^[a-z]+\d{0,3}(?:[A-Z][a-z]+\d{0,3})+$/.test(value);

/** camelCase made of word-like parts of 3+ letters with a vowel (`base64EncodedTicket`), not a random `xqYtrBnm`. */
export function isCamelCaseOfWords(value: string): boolean {
  if (!isCamelCase(value)) return false;
  const words = value.replace(/\d+/g, '').split(/(?=[A-Z])/);
  return words.every((w) => w.length >= 3 && (/[aeiou]/i.test(w) || isKnownWord(w)));
}

/** Letters mixed with digits or symbols, as generated and chosen passwords are. */
export const isMixed = (value: string) => /[A-Za-z]/.test(value) && /[\d!@#$%^&*+=~?|]/.test(value);

/**
 * Whether an unquoted value, trimmed, is a secret in its context. `prose` is the word list of
 * secret-assignments.ts (what follows "password is" in a sentence and is no value).
 */
export function isSecretValue(value: string, context: ValueContext, prose: ReadonlySet<string>): boolean {
  if (value === '' || isPlaceholder(value)) return false;
  const lower = value.toLowerCase();
  if (context === 'literal') return value.length >= 3 && !prose.has(lower) && !isTypeName(value) && !/^\d{1,3}$/.test(value);
  if (
    isTypeName(value) ||
    prose.has(lower) ||
    /^\d{1,3}$/.test(value) ||
    value.length < 4 ||
    (isIdentifier(value) && (context === 'code' || /\d|_|[a-z][A-Z]/.test(value)))
  )
    return false;
  // Inline code: an unquoted value is an expression or a number literal (`1*tchar`, `4299n`, `0xff`).
  if (context === 'code') return !/^[\w.]+(?:[*%][\w.(]+)+$/.test(value) && !/^(?:0x[\da-f]+|\d+(?:\.\d+)?(?:e\d+)?[nlufd]?)$/i.test(value);
  if (/^[A-Za-z]+(?:ed|ing|ly)$/.test(value) || /^[a-z]+(?:-[a-z]+)+$/.test(value)) return false;
  if (/^\d{4,}$/.test(value) || isMixed(value)) return true;
  if (/^[A-Za-z]+(?:able|ible|ous|ive|ful|less|ment|tion|sion)$/i.test(value) || isDescriptiveWord(value)) return false;
  // A plain word after "is" is a secret only when it ends the clause (checked by the caller);
  // an identifier in camelCase or snake_case is code.
  return /^[A-Za-z]+$/.test(value) && !/[a-z][A-Z]/.test(value);
}

/**
 * A value without what ends its sentence or closes around it: trailing `.,;:` and closing brackets
 * it does not open. `!` and `?` stay (`Xk29sLq0Tz!` is masked whole).
 */
export function trimValue(raw: string): string {
  let end = raw.length;
  for (;;) {
    const ch = raw[end - 1];
    if (ch === undefined) break;
    if ('.,;:'.includes(ch)) end--;
    else if (CLOSERS[ch] && count(raw, CLOSERS[ch], end) < count(raw, ch, end)) end--;
    else break;
  }
  return raw.slice(0, end);
}

const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{', '>': '<' };

function count(text: string, ch: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (text[i] === ch) n++;
  return n;
}

/**
 * After a lone word that follows "is": the clause ends, or goes on with what follows a value
 * ("… is swordfish until Friday", "… was orbitviolet so please …"), not with more description.
 */
export const endsClause = (after: string) =>
  /^[.,;:!?)\]]*\s*$|^[.,;!?]|^[ \t]+(?:(?:until|till|so|and|but|since|from|for now|then|please)\b|[—–-][ \t])/i.test(after);

/** A lower-case word chain (`ietf-token`, `comment.doc`, `variable-2`): a name, not a generated value. */
const WORD_CHAIN = /^(?:[A-Za-z][a-z]*|[A-Z]+)(?:[-._/](?:[A-Za-z][a-z]*|[A-Z]+)|[-._]\d{1,2})*$/;

/**
 * A quoted value in code or prose under a key that is not a password (`token = "linkified"`,
 * `lastToken = "?NoLineTerminatorHere"`): a secret only when it looks generated — no spaces,
 * 8+ characters of a token alphabet, letters mixed with digits or an entropy of 3.5 bits per
 * character (gitleaks' generic-api-key threshold) — and is no word chain.
 */
export function looksGenerated(value: string): boolean {
  if (value.length < 8 || !/^[\w+/=.~:!@#$%^&*-]+$/.test(value) || WORD_CHAIN.test(value) || isPlaceholder(value)) return false;
  return (/[A-Za-z]/.test(value) && /\d/.test(value)) || shannonEntropy(value) >= 3.5;
}

/** Words of a message rather than a passphrase: "Wrong Password", "Password used to generate key". */
export const MESSAGE_WORDS =
  /\b(?:password|passwd|passphrase|token|secret|key|credentials?|invalid|incorrect|wrong|enter|must|required|please|failed|error|missing|expired|reset|forgot)\b/i;
