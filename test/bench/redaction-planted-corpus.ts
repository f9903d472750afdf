/**
 * Planted secrets for the redaction benchmark: each case is a secret (generated, never a real one)
 * placed in one stored field — content, source or metadata — in the shapes issue reports name:
 * JSON keys, env and YAML lines, HTTP headers, connection strings, URL credentials and query
 * parameters, sentences that announce a secret, and vendor token formats.
 */

export type Field = 'content' | 'source' | 'metadata';

export interface PlantedCase {
  kind: string;
  field: Field;
  /** The text (content, source) or JSON (metadata) as submitted. */
  value: string;
  /** Every secret planted in `value`; none, nor a 6-character piece of one, may survive. */
  secrets: string[];
}

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SYMBOLS = '!@#$%^&*+=~?';
const WORDS = [
  'correct',
  'horse',
  'battery',
  'staple',
  'purple',
  'monkey',
  'dishwasher',
  'orbit',
  'lantern',
  'quartz',
  'meadow',
  'violet',
  'saddle',
  'ember',
];

/** A deterministic generator, so the corpus is the same on every run. */
class Rng {
  constructor(private x: number) {}
  next(n: number): number {
    this.x = (this.x * 1103515245 + 12345) % 2147483648;
    return Math.floor((this.x / 2147483648) * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.next(list.length)]!;
  }
  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.next(alphabet.length)];
    return out;
  }
}

/** Secrets of several shapes: random alphanumerics, with symbols, word-and-digit passwords, plain words. */
function secretOf(rng: Rng, shape: number): string {
  switch (shape % 5) {
    case 0:
      return rng.chars(B62, 12 + rng.next(12));
    case 1:
      return `${rng.chars(B62, 6)}${rng.chars(SYMBOLS, 1)}${rng.chars(B62, 5)}${rng.chars(SYMBOLS, 1)}`;
    case 2:
      return `${cap(rng.pick(WORDS))}${rng.next(90) + 10}${rng.chars('!#$%&*', 1)}${rng.pick(WORDS)}`;
    case 3:
      return `${rng.pick(WORDS)}${rng.pick(WORDS)}`;
    default:
      return rng.chars('abcdef0123456789', 32);
  }
}
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const JSON_KEYS = [
  'db_password',
  'password',
  'apiKey',
  'api_key',
  'API-KEY',
  'token',
  'accessToken',
  'access_key',
  'private_key',
  'client_secret',
  'clientSecret',
  'secret',
  'auth',
  'Authorization',
  'credentials',
  'pwd',
  'passwd',
  'refresh_token',
  'sessionToken',
  'x-api-key',
];
const ENV_KEYS = [
  'DB_PASSWORD',
  'POSTGRES_PASSWORD',
  'API_KEY',
  'STRIPE_SECRET',
  'JWT_SECRET',
  'AUTH_TOKEN',
  'SECRET_KEY',
  'SMTP_PASS',
  'REDIS_PASSWORD',
  'ACCESS_TOKEN',
];
const YAML_KEYS = ['password', 'secret', 'token', 'api_key', 'apiKey', 'client_secret', 'privateKey', 'passphrase'];

type Maker = (rng: Rng, s: string) => Omit<PlantedCase, 'secrets'> & { secrets?: string[] };

const MAKERS: ReadonlyArray<[string, Maker]> = [
  [
    'json key (metadata)',
    (rng, s) => ({
      kind: '',
      field: 'metadata',
      value: JSON.stringify({ service: 'billing', [rng.pick(JSON_KEYS)]: s, region: 'eu-west-1' }),
    }),
  ],
  [
    'json key, nested (metadata)',
    (rng, s) => ({
      kind: '',
      field: 'metadata',
      value: JSON.stringify({ deploy: { target: 'staging', auth: { user: 'ci', [rng.pick(JSON_KEYS)]: s } } }),
    }),
  ],
  [
    'json key, array value (metadata)',
    (rng, s) => ({ kind: '', field: 'metadata', value: JSON.stringify({ tokens: [s], note: 'rotated' }) }),
  ],
  [
    'json in content',
    (rng, s) => ({
      kind: '',
      field: 'content',
      value: `Config dump: {"host": "db.internal", "${rng.pick(JSON_KEYS)}": "${s}", "port": 5432}`,
    }),
  ],
  [
    'env line',
    (rng, s) => ({ kind: '', field: 'content', value: `Here is my .env:\nNODE_ENV=production\n${rng.pick(ENV_KEYS)}=${s}\nPORT=3000` }),
  ],
  ['env line, export and quotes', (rng, s) => ({ kind: '', field: 'content', value: `export ${rng.pick(ENV_KEYS)}="${s}"` })],
  ['env line (source)', (rng, s) => ({ kind: '', field: 'source', value: `${rng.pick(ENV_KEYS)}=${s}` })],
  [
    'yaml line',
    (rng, s) => ({ kind: '', field: 'content', value: `database:\n  host: db.internal\n  ${rng.pick(YAML_KEYS)}: ${s}\n  pool: 5` }),
  ],
  [
    'Authorization header',
    (rng, s) => ({
      kind: '',
      field: 'content',
      value: `GET /v1/orders HTTP/1.1\nHost: api.example.com\nAuthorization: ${rng.pick(['Basic', 'Token', 'Bearer', 'Digest'])} ${s}\nAccept: */*`,
    }),
  ],
  ['Authorization header, bare value', (_, s) => ({ kind: '', field: 'content', value: `the request had Authorization: ${s} and failed` })],
  ['Proxy-Authorization header', (_, s) => ({ kind: '', field: 'content', value: `Proxy-Authorization: Basic ${s}` })],
  ['Cookie header', (_, s) => ({ kind: '', field: 'content', value: `Cookie: theme=dark; session_id=${s}; lang=en` })],
  [
    'Set-Cookie header',
    (_, s) => ({ kind: '', field: 'content', value: `HTTP/1.1 200 OK\nSet-Cookie: sid=${s}; Path=/; HttpOnly; Secure` }),
  ],
  [
    'X-Api-Key header',
    (rng, s) => ({
      kind: '',
      field: 'content',
      value: `curl -H "${rng.pick(['X-Api-Key', 'X-Auth-Token', 'Api-Key', 'X-Access-Token'])}: ${s}" https://api.example.com/v2/items`,
    }),
  ],
  [
    'connection string (source)',
    (rng, s) => ({
      kind: '',
      field: 'source',
      value: `${rng.pick(['postgres', 'mysql', 'mongodb+srv', 'redis', 'amqp'])}://app:${encodeURIComponent(s)}@db.internal:5432/main`,
      secrets: [encodeURIComponent(s)],
    }),
  ],
  [
    'connection string (content)',
    (_, s) => ({
      kind: '',
      field: 'content',
      value: `It connects with postgresql://reporting:${encodeURIComponent(s)}@10.0.3.7/warehouse?sslmode=require and times out.`,
      secrets: [encodeURIComponent(s)],
    }),
  ],
  [
    'ADO connection string',
    (_, s) => ({ kind: '', field: 'content', value: `Server=tcp:sql.internal,1433;Database=crm;User Id=svc;Password=${s};Encrypt=true` }),
  ],
  [
    'URL credentials',
    (_, s) => ({
      kind: '',
      field: 'content',
      value: `clone it from https://deploy:${encodeURIComponent(s)}@git.example.com/acme/app.git then build`,
      secrets: [encodeURIComponent(s)],
    }),
  ],
  [
    'URL query token (source)',
    (rng, s) => ({
      kind: '',
      field: 'source',
      value: `https://api.example.com/v1/export?${rng.pick(['token', 'api_key', 'access_token', 'apikey', 'key', 'auth', 'sig', 'password'])}=${encodeURIComponent(s)}&format=csv`,
      secrets: [encodeURIComponent(s)],
    }),
  ],
  [
    'URL query token (content)',
    (rng, s) => ({
      kind: '',
      field: 'content',
      value: `The webhook posts to https://hooks.example.com/in?${rng.pick(['token', 'api_key', 'secret'])}=${encodeURIComponent(s)} every minute.`,
      secrets: [encodeURIComponent(s)],
    }),
  ],
  [
    'sentence: password … is',
    (_, s) => ({ kind: '', field: 'content', value: `The root password for the staging box is ${s} until Friday.` }),
  ],
  [
    'sentence: colon',
    (rng, s) => ({
      kind: '',
      field: 'content',
      value: `the ${rng.pick(['wifi', 'router', 'guest', 'vault'])} password: ${s}! Don't share it.`,
    }),
  ],
  [
    'sentence: quoted passphrase',
    (rng) => {
      const phrase = [rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS)].join(' ');
      return { kind: '', field: 'content', value: `Use passphrase "${phrase}" to unlock the vault`, secrets: [phrase] };
    },
  ],
  [
    'sentence: PIN',
    (rng) => {
      const pin = String(1000 + rng.next(9000));
      return {
        kind: '',
        field: 'content',
        value: `The ${rng.pick(['door', 'alarm', 'bank card', 'garage'])} PIN is ${pin}, remember it.`,
        secrets: [pin],
      };
    },
  ],
  [
    'sentence: api key was',
    (_, s) => ({ kind: '', field: 'content', value: `The API key the vendor sent us was ${s} so please update the config.` }),
  ],
  ['sentence: secret word then quoted', (_, s) => ({ kind: '', field: 'content', value: `set the admin password to "${s}" for now` })],
  // Codes named in a sentence (#32): access codes, one-time and recovery codes, combinations, seed phrases.
  [
    'sentence: access code',
    (rng) => {
      const code = `${1000 + rng.next(9000)}${rng.pick(['', '-B', '#', '*'])}`;
      const place = rng.pick(['gate', 'door', 'alarm', 'garage', 'lockbox']);
      const value = rng.pick([
        `the ${place} code for the warehouse is ${code}, don't share it`,
        `${code} is the ${place} code.`,
        `Use ${code} as the ${place} code tonight.`,
        `${place} code: ${code}`,
        `The code for the ${place} is ${code}.`,
      ]);
      return { kind: '', field: 'content', value, secrets: [code.replace(/[#*]$/, '')] };
    },
  ],
  [
    'sentence: one-time or recovery code',
    (rng) => {
      const code = rng.pick([String(100000 + rng.next(900000)), `${rng.chars('abcdef0123456789', 4)}-${rng.chars('abcdef0123456789', 4)}`]);
      const name = rng.pick(['verification code', 'one-time code', '2FA code', 'backup code', 'recovery code']);
      return { kind: '', field: 'content', value: rng.pick([`Your ${name} is ${code}.`, `${code} is your ${name}`]), secrets: [code] };
    },
  ],
  [
    'sentence: combination',
    (rng) => {
      const combo = `${rng.next(40)}-${rng.next(40)}-${rng.next(40)}`;
      return { kind: '', field: 'content', value: `the combination to the safe is ${combo}, write it down`, secrets: [combo] };
    },
  ],
  [
    'sentence: seed phrase',
    (rng) => {
      const phrase = Array.from({ length: 12 }, () => rng.pick(WORDS.filter((w) => w.length <= 8))).join(' ');
      return { kind: '', field: 'content', value: `here's my seed phrase — ${phrase}`, secrets: [phrase] };
    },
  ],
  [
    'vendor token (metadata)',
    (rng) => {
      const t = `ghp_${rng.chars(B62, 36)}`;
      return { kind: '', field: 'metadata', value: JSON.stringify({ note: `ci uses ${t}` }), secrets: [t] };
    },
  ],
];

/** `perMaker` cases of every shape, secrets varied over the five secret shapes. */
export function plantedCorpus(perMaker = 10): PlantedCase[] {
  const rng = new Rng(20261124);
  const out: PlantedCase[] = [];
  for (const [kind, make] of MAKERS) {
    for (let i = 0; i < perMaker; i++) {
      const s = secretOf(rng, i);
      const made = make(rng, s);
      out.push({ kind, field: made.field, value: made.value, secrets: made.secrets ?? [s] });
    }
  }
  return out;
}

/** The 6-character pieces of a secret (the whole when shorter) that must not survive. */
export function secretPieces(secret: string): string[] {
  if (secret.length <= 6) return [secret];
  const out: string[] = [];
  for (let i = 0; i + 6 <= secret.length; i++) out.push(secret.slice(i, i + 6));
  return out;
}
