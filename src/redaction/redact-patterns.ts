/**
 * The fixed-shape secrets and PII the redactor masks (tokens, keys and credentials; SSN and
 * phone numbers, a few well-known token formats). Each pattern is tuned so ordinary numbers,
 * dates, versions and times survive: card numbers must pass Luhn and carry a card prefix,
 * SSNs need dashes, phone numbers need separators or a leading "+".
 * Key=value secrets (password=…, "my API key is …") live in secret-assignments.ts.
 */

import { trimEndChars } from '../text/index.js';
import { TOKEN_PATTERNS, type SpanPattern } from './redact-tokens.js';

export type { SpanPattern };
import { PROSE_WORDS } from './secret-assignments.js';
import { isKnownWord } from './english-words.js';
import { isCodeExpression, isPlaceholder, isTypeName, trimValue } from './secret-values.js';

/** "use --password on the command line": a prose word after a flag is not its value. */
/** "use --password on the command line", "--username and --password options": an English word is no value. */
function notProse(raw: string): boolean {
  const value = trimEndChars(raw, '.,;:!?)');
  return !PROSE_WORDS.has(value.toLowerCase()) && !isPlaceholder(value) && !(/^[A-Za-z]+$/.test(value) && isKnownWord(value));
}

/** A header value is a credential unless it is a placeholder, code or a word of prose. */
function credentialValue(raw: string): boolean {
  const value = trimValue(raw);
  return (
    value.length >= 6 &&
    !(/^[A-Za-z]+$/.test(value) && isKnownWord(value)) &&
    !SCHEME_WORD.test(value) &&
    !isPlaceholder(value) &&
    !isTypeName(value) &&
    !isCodeExpression(raw, true) &&
    !PROSE_WORDS.has(value.toLowerCase())
  );
}

/** The password of a URL's user:password@, unless a documentation stand-in (`user:password@`, `:<pass>@`). */
function realPassword(password: string): boolean {
  const value = decodeURIComponentSafe(password);
  return value.length >= 1 && !isPlaceholder(value) && !/^pass$/i.test(value);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
const SCHEME_WORD = /^(?:Basic|Bearer|Token|Digest|Negotiate|NTLM|ApiKey|Api-Key|OAuth|JWT|SSWS)$/i;
const SCHEME = String.raw`(?:Basic|Bearer|Token|Digest|Negotiate|NTLM|ApiKey|Api-Key|OAuth|JWT|SSWS|AWS4-HMAC-SHA256)[ \t]+`;

/**
 * HTTP headers that carry credentials, as pasted from a request: the value after Authorization
 * (whatever the scheme), Cookie and Set-Cookie (every pair), and X-…-Key/Token/Secret headers.
 */
const HEADER_PATTERNS: readonly SpanPattern[] = [
  {
    kind: 'AUTHORIZATION',
    regex: new RegExp(
      String.raw`(?<![\w-])((?:Proxy-)?Authorization[ \t]*:[ \t]*(?:${SCHEME})?)([^\s"'\x60<>{}$][^\s"'\x60]{0,1023})`,
      'gi',
    ),
    keepPrefix: true,
    // Without a scheme, a lone short word is prose ("Authorization: headers on a redirect").
    accept: (value, prefix) =>
      credentialValue(value) && (/[ \t]$/.test(prefix.replace(/:[ \t]*$/, ':')) || !/^[A-Za-z]{1,11}[.,;:]?$/.test(value)),
  },
  {
    kind: 'COOKIE',
    // The value starts with a cookie's `name=` (`(cookie: string)` in code is no header).
    regex: /(?<![\w-])((?:Set-)?Cookie[ \t]*:[ \t]*)((?=[\w.!#%&*+^|~-]{1,128}=)[^\r\n"'`]{1,4096})/gi,
    keepPrefix: true,
    accept: (value) => !isPlaceholder(value),
  },
  {
    kind: 'API_KEY',
    // A header name has a hyphen (`X-Api-Key`, `Api-Key`); `apiKey:` in code is an object key.
    regex:
      /(?<![\w-])((?:X-[A-Za-z-]{0,40}(?:Key|Token|Secret|Signature|Auth)|(?:[A-Za-z]{1,20}-)?(?:Api-Key|Auth-Token|Access-Token|Api-Token))[ \t]*:[ \t]*)([^\s"'`<>{}$][^\s"'`]{0,1023})/gi,
    keepPrefix: true,
    accept: credentialValue,
  },
];

/** Runs before key=value scanning: blocks and URIs that would otherwise be cut in pieces. */
export const PRE_ASSIGNMENT_PATTERNS: readonly SpanPattern[] = [
  {
    kind: 'PRIVATE_KEY',
    // An unterminated block (a truncated paste) is masked to the end of the text.
    regex: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    // Key material follows the header: `b"-----BEGIN OPENSSH PRIVATE KEY-----"` in code is a constant.
    accept: (block) => /[A-Za-z0-9+/=]{16,}/.test(block.replace(/^-----BEGIN [A-Z0-9 ]*-----/, '')),
  },
  {
    kind: 'DATABASE_URI',
    regex:
      /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver)(?:\+\w+)?:\/\/[^\s'"<>`]*[^\s'"<>`.,;:!?)\]}]/gi,
    // Only a URI that carries a credential (user:password@ or a password parameter) hides a secret;
    // `redis://localhost:6379/0` and `jdbc:postgresql://db:5432/app` are addresses.
    accept: (uri) =>
      (/@/.test(uri) && realPassword(/^[^:]+:\/\/[^/@:]*:([^/@]*)@/.exec(uri)?.[1] ?? 'x'.repeat(8))) ||
      /[?&;](?:password|pwd|pass|secret|token|key|sig)=/i.test(uri),
  },
  { kind: 'JWT', regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  ...TOKEN_PATTERNS,
  { kind: 'BEARER_TOKEN', regex: /\b(Bearer[ \t]+)([A-Za-z0-9._~+/-]{20,}=*)/gi, keepPrefix: true },
  // The whole token up to a delimiter: a value that is not base64 is masked whole too.
  {
    kind: 'BASIC_AUTH',
    regex: /\b((?:Proxy-)?Authorization:[ \t]*Basic[ \t]+)([^\s"'`<>{}$][^\s"'`]{7,1023})/gi,
    keepPrefix: true,
    accept: (v) => !isPlaceholder(v),
  },
  ...HEADER_PATTERNS,
  // Any other URL with user:password@ (database URIs are masked whole above): only the password goes.
  {
    kind: 'URL_PASSWORD',
    regex: /(\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s/?#@:'"<>]{1,256}:)([^\s/?#@'"<>]{1,256})(?=@)/g,
    keepPrefix: true,
    accept: realPassword,
  },
  // curl -u user:password, and command-line flags that carry a secret (--password x, --token=x).
  // `-u http://host/x` is a URL, not user:password.
  {
    kind: 'PASSWORD',
    regex: /(\s(?:-u|--user)[ \t]+['"]?[^\s:'"]{1,256}:)([^\s'"]{1,256})/g,
    keepPrefix: true,
    accept: (v) => !v.startsWith('//') && notProse(v),
  },
  {
    kind: 'PASSWORD',
    regex: /((?<![\w-])--?(?:password|passwd|pass|pwd|passphrase|db-password)(?:=|[ \t]+)['"]?)([^\s'"-][^\s'"]{0,255})/gi,
    keepPrefix: true,
    accept: notProse,
  },
  {
    kind: 'SECRET',
    regex: /((?<![\w-])--(?:token|secret|api-key|apikey|access-token|auth-token|client-secret)(?:=|[ \t]+)['"]?)([^\s'"-][^\s'"]{0,255})/gi,
    keepPrefix: true,
    accept: notProse,
  },
];

export const EMAIL_PATTERN: SpanPattern = {
  kind: 'EMAIL',
  regex: /(?<![\w.+%-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g,
  // `git@github.com:org/repo` is an SSH remote, not a person.
  accept: (email) => !/^git@/i.test(email),
};

/** Runs after key=value scanning. */
export const POST_ASSIGNMENT_PATTERNS: readonly SpanPattern[] = [
  {
    kind: 'CREDIT_CARD',
    regex: /(?<![\w.,-])\d(?:[ -]?\d){12,18}(?![\w-]|[.,]\d)/g,
    accept: isPlausibleCardNumber,
  },
  { kind: 'SSN', regex: /(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-]|\.\d)/g },
  {
    kind: 'PHONE',
    // North American numbers with separators: 555-123-4567, (555) 123-4567, +1 555.123.4567.
    regex: /(?<![\w+.-])(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-]|\.\d)/g,
  },
  {
    kind: 'PHONE',
    // International numbers need the leading "+", so bare digit runs are never taken.
    regex: /(?<![\w+])\+\d[\d .()-]{6,18}\d(?![\w-]|\.\d)/g,
    accept: (s) => {
      const digits = s.replace(/\D/g, '').length;
      return digits >= 8 && digits <= 15;
    },
  },
  EMAIL_PATTERN,
  {
    kind: 'IBAN',
    regex: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g,
    accept: isValidIban,
  },
  {
    kind: 'BASE64_BLOB',
    regex: /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{64,}={0,2}(?:\n[A-Za-z0-9+/]{64,}={0,2})*(?![A-Za-z0-9+/=])/g,
    // Mixed case and digits: keeps hex digests (sha256) and long plain words out; public material
    // in its usual place stays too (publicBase64).
    accept: (s, _, before) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /\d/.test(s) && !publicBase64(before) && !SSH_PUBLIC_KEY_BODY.test(s),
  },
];

/**
 * Base64 that is public by its place, never a secret: a content digest in Subresource Integrity
 * form (`integrity="sha384-…"`, package-lock and yarn.lock `integrity sha512-…`, CSP `'sha256-…'`,
 * Nix `sha256-…`), a data URI's payload (`data:image/png;base64,…`), an SSH public key
 * (`ssh-ed25519 AAAA…`, `ecdsa-sha2-nistp256 …`), and the body of a PEM certificate, public key
 * or PGP public key block or signature. Hex digests (sha256sum lines,
 * `@sha256:` image digests, git commit ids) never match BASE64_BLOB (no capitals). A base64 value
 * under a secret's name is the key=value rules' (secret-assignments.ts) and stays masked.
 */
const PUBLIC_BASE64_BEFORE = [
  /(?<![A-Za-z0-9])(?:sha(?:1|256|384|512)|md5)-$/i,
  // A data URI's payload (`data:image/png;base64,iVBOR…`): content, not a credential.
  /(?<![\w-])data:[\w.+-]{1,40}\/[\w.+-]{1,80}(?:;[\w.+-]{1,40}=[\w.+-]{1,80}){0,3};base64,$/i,
  /(?<![\w-])(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(?:-cert-v01@openssh\.com)?[ \t]+$/,
  /-----BEGIN (?:CERTIFICATE|TRUSTED CERTIFICATE|X509 CERTIFICATE|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|X509 CRL|PUBLIC KEY|RSA PUBLIC KEY|SSH2 PUBLIC KEY|PGP PUBLIC KEY BLOCK|PGP SIGNATURE)-----(?:\r?\n[A-Za-z-]{1,40}: [^\n]{0,120}){0,4}\s*$/,
];

/** An OpenSSH public key's body starts with its encoded type name ("ssh-rsa", "ssh-ed25519", "ecdsa-sha2-…"). */
const SSH_PUBLIC_KEY_BODY = /^AAAA(?:B3NzaC1yc2E|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTItbmlzdHA|B3NzaC1kc3M|C3NrLXNzaC1lZDI1NTE5|InNrLWVjZHNh)/;

export function publicBase64(before: string): boolean {
  return PUBLIC_BASE64_BEFORE.some((re) => re.test(before));
}

const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5)|35|30[0-5]|36|38)/;

/** 13–19 digits, a known issuer prefix, a valid Luhn checksum and not one repeated digit. */
export function isPlausibleCardNumber(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  if (!CARD_PREFIX.test(digits) || /^(\d)\1+$/.test(digits)) return false;
  return luhnValid(digits);
}

/** ISO 13616: the country's length range is not checked, the mod-97 checksum is. */
export function isValidIban(candidate: string): boolean {
  const iban = candidate.replace(/ /g, '');
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
