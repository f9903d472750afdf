/**
 * Which names name a secret: `password`, `DB_PASSWORD`, `apiKey`, `x-api-key`, `client_secret`…
 * A name is cut into segments at separators and camelCase humps, so every spelling of a key is
 * classified alike; a trailing or leading segment that makes it a setting about the secret
 * (`password_min_length`, `max_tokens`, `token_count`) names no secret.
 */

export interface KeyInfo {
  kind: string;
  /** A credential word on its own (password, API key, access token): takes a copula and can be rejected. */
  strong: boolean;
  /** A passphrase or seed phrase: the value runs to the end of the clause, words and all. */
  phrase?: boolean;
}

const BENIGN_LAST = new Set([
  'regexp',
  're',
  'rx',
  'file',
  'path',
  'dir',
  'url',
  'uri',
  'length',
  'len',
  'min',
  'max',
  'policy',
  'policies',
  'reset',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'rounds',
  'type',
  'name',
  'id',
  'ids',
  'count',
  'limit',
  'field',
  'label',
  'hint',
  'prompt',
  'regex',
  'pattern',
  'strength',
  'required',
  'enabled',
  'disabled',
  'header',
  'param',
  'placeholder',
  'endpoint',
  'env',
  'var',
  'rotation',
  'age',
  'timeout',
  'lifetime',
  'validation',
  'prefix',
  'format',
  'mode',
  'manager',
  'usage',
  'size',
  'budget',
  'budgets',
  'estimate',
  'hash',
  'hashed',
  'digest',
  'confirmation',
  'ref',
  'key_ref',
  'provider',
  'scheme',
  'schemes',
  'store',
  'vault',
  'kind',
  'location',
  'source',
  'version',
  'used',
  'at',
  'on',
  'method',
  'methods',
  'flow',
  'fields',
]);
const BENIGN_FIRST = new Set([
  'max',
  'min',
  'num',
  'total',
  'no',
  'show',
  'hide',
  'has',
  'is',
  'use',
  'reset',
  'forgot',
  'check',
  'verify',
  'validate',
  'hash',
  'hashed',
  'set',
  'get',
  'on',
  'handle',
  'create',
  'generate',
  'update',
  'change',
  'prompt',
]);

/** Segments that follow the secret word in its name (`SECRET_KEY`, `API_TOKEN`, `SEED_PHRASE`). */
const SUFFIXES = new Set([
  'key',
  'value',
  'str',
  'string',
  'text',
  'b64',
  'base64',
  'hex',
  'raw',
  'enc',
  'data',
  'phrase',
  'code',
  'token',
  'secret',
]);

/** `SMTP_PASS`, `DB_PASS`: "pass" names a password after one of these (not nginx's `proxy_pass`). */
const PASS_OWNERS = new Set([
  'db',
  'smtp',
  'mail',
  'email',
  'redis',
  'ftp',
  'sftp',
  'ssh',
  'ldap',
  'mysql',
  'pg',
  'postgres',
  'mongo',
  'sql',
  'admin',
  'root',
  'user',
  'login',
  'wifi',
  'auth',
  'app',
  'amqp',
  'rabbitmq',
  'vnc',
  'proxy_user',
]);

/** Cuts a key into lower-case segments: `dbPassword` → db, password; `X-API-Key` → x, api, key. */
export function keySegments(key: string): string[] {
  return key
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((s) => s.toLowerCase())
    .filter(Boolean);
}

/** The secret kind a key names, or null when it names none (`password_min_length`, `max_tokens`). */
export function classifyKey(key: string): KeyInfo | null {
  // `self.password`, `token.value`: the property after the last dot is the key. The secret word
  // ends it, or comes before a suffix such as `key`: `SECRET_KEY`, `client_secret`, `GITHUB_TOKEN`
  // name secrets; `japanese_secret_button`, `tokens_taken`, `password_encryption` do not.
  const all = keySegments(key.slice(key.lastIndexOf('.') + 1));
  let start = all.length - 1;
  while (start > 0 && all.length - start < 3 && SUFFIXES.has(all[start]!)) start--;
  const segments = all.slice(start);
  const last = segments[segments.length - 1];
  if (!last || BENIGN_LAST.has(last) || (segments.length > 1 && BENIGN_FIRST.has(segments[0]!))) return null;
  const has = (re: RegExp) => segments.some((s) => re.test(s));
  const pair = (a: string, b: string) => segments.some((s, i) => s === a && segments[i + 1] === b);
  if (has(/^[a-z]{0,6}pass(?:word|wd|phrase|code)$/) || has(/^pwd$/) || (last === 'pass' && PASS_OWNERS.has(all[all.length - 2] ?? ''))) {
    return { kind: 'PASSWORD', strong: true, phrase: segments.some((x) => x.endsWith('phrase')) };
  }
  if (has(/^mnemonic$/) || pair('seed', 'phrase') || pair('recovery', 'phrase') || pair('secret', 'phrase'))
    return { kind: 'PASSWORD', strong: true, phrase: true };
  if (segments.length <= 2 && has(/^pin$/)) return { kind: 'PIN', strong: true };
  if (all.includes('aws') && all.includes('secret')) return { kind: 'AWS_SECRET_KEY', strong: true };
  if (
    has(/^(?:client|app|api|shared|signing|webhook|jwt|session|consumer|oauth|auth|master|private|cookie|django|flask|rails|token|)secret$/)
  )
    return { kind: all.includes('aws') ? 'AWS_SECRET_KEY' : 'SECRET', strong: segments.length > 1 };
  if (has(/^apikey$/) || pair('api', 'key')) return { kind: 'API_KEY', strong: true };
  if (has(/^privatekey$/) || pair('private', 'key')) return { kind: 'PRIVATE_KEY', strong: true };
  if (has(/^accesskey$/) || pair('access', 'key')) return { kind: 'ACCESS_KEY', strong: true };
  if (has(/^[a-z]*token$/)) return { kind: 'TOKEN', strong: segments.length > 1 };
  if (has(/^credentials?$/)) return { kind: 'SECRET', strong: true };
  return null;
}

/**
 * A key of structured data (a JSON or metadata key, a URL or connection-string parameter): besides
 * what classifyKey names, `auth`, `authorization`, `cookie`, `signature`/`sig` and plural names
 * (`tokens`, `passwords`) hold secrets there. With `param`, a bare `key` does too (`?key=…`).
 */
export function classifyStructuredKey(key: string, param = false): KeyInfo | null {
  const direct = classifyKey(key);
  if (direct) return direct;
  const segments = keySegments(key);
  const last = segments[segments.length - 1];
  if (!last || BENIGN_LAST.has(last) || (segments.length > 1 && BENIGN_FIRST.has(segments[0]!))) return null;
  const singular = last.replace(/s$/, '');
  if (singular !== last) {
    const plural = classifyKey([...segments.slice(0, -1), singular].join('_'));
    if (plural) return plural;
  }
  if (/^(?:auth|authorization|authentication|cookie|cookies|sig|signature)$/.test(last) && segments.length <= 2)
    return { kind: 'SECRET', strong: false };
  if (param && (last === 'key' || last === 'code') && segments.length <= 2) return { kind: 'SECRET', strong: false };
  return null;
}
