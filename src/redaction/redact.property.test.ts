/**
 * Properties of redaction (fast-check): a generated secret of any of several formats, planted
 * anywhere in random text (lone surrogates and control characters included), never survives,
 * not even as a long fragment; ordinary prose without secrets comes out unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';
import { redactJsonValue, redactStored } from './redact-stored.js';

const RUNS = 300;
const chars = (alphabet: string, min: number, max = min) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = `${B62}-_`;
const B64 = `${B62}+/`;
const DIGITS = '0123456789';
const HEX = '0123456789abcdef';

/** [format, arbitrary of [the whole secret, the part that must not survive]]. */
const SECRETS: ReadonlyArray<[string, fc.Arbitrary<[string, string]>]> = [
  ['AWS access key id', chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16).map((s) => [`AKIA${s}`, `AKIA${s}`])],
  ['GitHub PAT', chars(B62, 36).map((s) => [`ghp_${s}`, s])],
  ['GitHub fine-grained PAT', fc.tuple(chars(B62, 22), chars(B62, 59)).map(([a, b]) => [`github_pat_${a}_${b}`, b])],
  ['Slack bot token', fc.tuple(chars(DIGITS, 12), chars(DIGITS, 13), chars(B62, 24)).map(([a, b, c]) => [`xoxb-${a}-${b}-${c}`, c])],
  ['Stripe live key', chars(B62, 24, 40).map((s) => [`sk_live_${s}`, s])],
  ['OpenAI project key', chars(B62, 48).map((s) => [`sk-proj-${s}`, s])],
  ['Google API key', chars(B64URL, 35).map((s) => [`AIza${s}`, s])],
  ['npm token', chars(B62, 36).map((s) => [`npm_${s}`, s])],
  ['JWT', fc.tuple(chars(B64URL, 20, 60), chars(B64URL, 43)).map(([p, sig]) => [`eyJhbGciOiJIUzI1NiJ9.eyJ${p}.${sig}`, sig])],
  [
    'URL with credentials',
    fc
      .tuple(
        chars('abcdefghijklmnopqrstuvwxyz', 3, 10),
        chars(B62, 12, 24),
        fc.constantFrom('https', 'postgres', 'redis', 'mongodb+srv', 'amqp'),
      )
      .map(([user, pass, scheme]) => [`${scheme}://${user}:${pass}@db.example.internal:5432/app`, pass]),
  ],
  [
    'PEM private key',
    fc
      .array(chars(B64, 64), { minLength: 2, maxLength: 5 })
      .map((lines) => [`-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----`, lines.join('\n')]),
  ],
  ['Hugging Face token', chars(B62, 34).map((s) => [`hf_${s}`, s])],
  ['Mailchimp key', chars(HEX, 32).map((s) => [`${s}-us14`, s])],
];

/** Random text around the secret: any UTF-16 units (lone surrogates, controls, NUL) or prose. */
const filler = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .array(
      fc.constantFrom('the', 'deploy', 'failed', 'at', '3pm', 'and', 'Alice', 'said', 'use', 'this', '—', 'ok', '\n', '\u0000', '\ud800'),
      { maxLength: 30 },
    )
    .map((w) => w.join(' ')),
);
/** What separates the secret from its surroundings (a token glued to other letters is another token). */
const separator = fc.constantFrom(' ', '\n', '\t', ': ', '=', ' "', '" ', '(', ')', ', ', '\u00a0', '<', '>', '`');

/** The fragments of `part` that must not appear: the whole, and every 12-character window. */
function fragments(part: string): string[] {
  const out = [part];
  for (let i = 0; i + 12 <= part.length; i += 4) out.push(part.slice(i, i + 12));
  return out;
}

describe('redaction (properties)', () => {
  it.each(SECRETS)('%s planted anywhere in random text never survives', (_, secret) => {
    fc.assert(
      fc.property(secret, filler, separator, separator, filler, ([whole, part], before, open, close, after) => {
        const text = `${before}${open}${whole}${close}${after}`;
        for (const output of [redactSecrets(text, { rejectUnmaskable: false }).text, redactStored(text)]) {
          for (const fragment of fragments(part))
            if (!before.includes(fragment) && !after.includes(fragment)) expect(output).not.toContain(fragment);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the same secret twice, or two formats side by side, are all masked', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRETS.map(([, a]) => a)).chain((a) => fc.tuple(a, a)),
        separator,
        ([[w1, p1], [w2, p2]], sep) => {
          const output = redactStored(`${w1}${sep}${w2}${sep}${w1}`);
          expect(output).not.toContain(p1);
          expect(output).not.toContain(p2);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('ordinary prose without secrets comes out unchanged', () => {
    const word = fc.constantFrom(
      'The',
      'team',
      'moved',
      'the',
      'release',
      'to',
      'Friday',
      'because',
      'QA',
      'found',
      'two',
      'bugs',
      'in',
      'checkout',
      'Alice',
      'prefers',
      'Postgres',
      'over',
      'MySQL',
      'for',
      'ledgers',
      'Kubernetes',
      'cluster',
      'runs',
      'v1.2.3',
      'on',
      'port',
      '8080',
      'TODO:',
      'fix',
      'flaky',
      'tests',
      'e.g.',
      'i.e.',
      'README.md',
      'src/app.ts',
      'café',
      'naïve',
      '中文',
      '—',
      '(see',
      'notes)',
      'x=1',
      'if',
      'a',
      '<',
      'b',
      'then',
      'c',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.constantFrom(' ', ' ', ', ', '. ', '\n', ': ')), { minLength: 1, maxLength: 60 }), (parts) => {
        const text = parts
          .map(([w, s]) => w + s)
          .join('')
          .trim();
        const result = redactSecrets(text);
        expect(result.text).toBe(text);
        expect(result.redactions).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * Secrets named by structure or by their sentence (#24): a generated value under a generated
 * secret name, in every shape that names it, never survives, not even a 6-character piece; code
 * and prose of the same shapes, with no secret, come out unchanged.
 */
const ALNUM = `${B62}`;
const SYMBOL = '!@#%^*+=~?-_';
/** Starts with a letter or digit, holds at least one digit: a value no rule can take for code or prose. */
const secretValue = fc
  .tuple(chars(ALNUM, 1), chars(`${ALNUM}${SYMBOL}`, 6, 22), chars(DIGITS, 1), chars(ALNUM, 1))
  .map(([a, b, d, z]) => `${a}${b}${d}${z}`);
/** Any value at all, words included: under a named key in data it is masked whatever it is. */
const anyValue = fc.oneof(secretValue, fc.constantFrom('swordfish', 'purple monkey dishwasher', 'orbitviolet', 'x', 'Zq'));
const NAMES = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'api_key',
  'apiKey',
  'API-KEY',
  'access_key',
  'accessKey',
  'private_key',
  'client_secret',
  'clientSecret',
  'auth',
  'credentials',
  'db_password',
  'DB_PASSWORD',
  'AUTH_TOKEN',
  'X-Api-Key',
  'refresh_token',
];
const ENV_NAMES = ['DB_PASSWORD', 'API_KEY', 'STRIPE_SECRET', 'AUTH_TOKEN', 'SECRET_KEY', 'SMTP_PASS', 'ACCESS_TOKEN', 'CLIENT_SECRET'];
const secretName = fc.constantFrom(...NAMES);
const fillerWords = fc.array(fc.constantFrom('for', 'the', 'staging', 'box', 'wifi', 'router', 'new', 'admin', 'of', 'our', 'vendor'), {
  minLength: 1,
  maxLength: 5,
});
const prose = fc
  .array(fc.constantFrom('We', 'deployed', 'on', 'Friday', 'and', 'the', 'tests', 'passed', 'Alice', 'said', 'ok'), { maxLength: 12 })
  .map((w) => w.join(' '));

/** No 6-character piece of `secret` that the surroundings do not hold anyway survives in `output`. */
function expectGone(output: string, secret: string, context: string): void {
  const pieces = secret.length <= 6 ? [secret] : Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6));
  for (const p of pieces) if (!context.includes(p)) expect(output, `piece ${p} of ${secret}`).not.toContain(p);
}

type Shape = (name: string, value: string) => string;
const STRUCTURE_SHAPES: ReadonlyArray<[string, fc.Arbitrary<string>, Shape]> = [
  ['env line', fc.constantFrom(...ENV_NAMES), (n, v) => `NODE_ENV=production\n${n}=${v}\nPORT=3000`],
  ['export line', fc.constantFrom(...ENV_NAMES), (n, v) => `export ${n}="${v}"`],
  [
    'YAML line',
    fc.constantFrom('password', 'secret', 'api_key', 'client_secret', 'privateKey', 'token'),
    (n, v) => `database:\n  host: db\n  ${n}: ${v}\n  pool: 5`,
  ],
  ['JSON pair in text', secretName, (n, v) => `config {"host": "db", "${n}": "${v}", "port": 5432}`],
  [
    'Authorization header',
    fc.constantFrom('Basic', 'Bearer', 'Token', 'Digest'),
    (s, v) => `GET / HTTP/1.1\nAuthorization: ${s} ${v}\nAccept: */*`,
  ],
  [
    'API-key header',
    fc.constantFrom('X-Api-Key', 'X-Auth-Token', 'Api-Key', 'X-Access-Token'),
    (n, v) => `curl -H "${n}: ${v}" https://api.example.com`,
  ],
  ['Cookie header', fc.constantFrom('Cookie', 'Set-Cookie'), (n, v) => `${n}: sid=${v}; Path=/`],
  [
    'URL query parameter',
    fc.constantFrom('token', 'api_key', 'access_token', 'key', 'password', 'secret'),
    (n, v) => `https://api.example.com/v1?${n}=${encodeURIComponent(v)}&format=csv`,
  ],
  [
    'connection string',
    fc.constantFrom('postgres', 'mysql', 'redis', 'mongodb+srv', 'amqp', 'https'),
    (s, v) => `${s}://app:${encodeURIComponent(v)}@db.internal:5432/main`,
  ],
  ['ADO connection string', fc.constantFrom('Password', 'Pwd'), (n, v) => `Server=sql;User Id=svc;${n}=${v};Encrypt=true`],
];

describe('redaction (properties): secrets named by structure or sentence (#24)', () => {
  it.each(STRUCTURE_SHAPES)('%s: the value never survives', (_, names, shape) => {
    fc.assert(
      fc.property(names, secretValue, prose, prose, (name, value, before, after) => {
        const planted = shape(name, value);
        const text = `${before}\n${planted}\n${after}`;
        const context = text.split(value).join(' ').split(encodeURIComponent(value)).join(' ');
        for (const output of [redactSecrets(text, { rejectUnmaskable: false }).text, redactStored(text)]) {
          expectGone(output, value, context);
          expectGone(output, encodeURIComponent(value), context);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('a value under a secret-named key of metadata, at any depth, never survives whatever it looks like', () => {
    const nested = (name: string, value: string, depth: number, plain: Record<string, unknown>): unknown => {
      let node: unknown = { ...plain, [name]: value };
      for (let i = 0; i < depth; i++) node = i % 2 === 0 ? { level: i, inner: node } : [node, i];
      return node;
    };
    fc.assert(
      fc.property(
        secretName,
        anyValue,
        fc.integer({ min: 0, max: 6 }),
        fc.dictionary(fc.constantFrom('region', 'note', 'user'), prose, { maxKeys: 3 }),
        (name, value, depth, plain) => {
          const output = JSON.stringify(redactJsonValue(nested(name, value, depth, plain)));
          expect(output).not.toContain(`"${value}"`);
          if (value.length >= 6) expectGone(output, value, JSON.stringify(plain));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a secret a few words after its name in a sentence, or quoted right after it, never survives', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password', 'passphrase', 'passcode', 'API key', 'access token', 'PIN code'),
        fillerWords,
        fc.constantFrom(' is ', ' was ', ': ', ' = '),
        secretValue,
        fc.constantFrom(' until Friday.', '.', ', thanks', ' so please update it', ''),
        (word, filler, marker, value, tail) => {
          const text = `The ${word} ${filler.join(' ')}${marker}${value}${tail}`;
          const output = redactSecrets(text, { rejectUnmaskable: false }).text;
          expectGone(output, value, text.replace(value, ' '));
        },
      ),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(
        fc.constantFrom('passphrase', 'password'),
        fc.array(fc.constantFrom('correct', 'horse', 'battery', 'staple', 'orbit', 'Zq9', 'lantern'), { minLength: 2, maxLength: 6 }),
        (word, words) => {
          const phrase = words.join(' ');
          const output = redactSecrets(`Use ${word} "${phrase}" to unlock the vault`).text;
          expect(output).toBe(`Use ${word} "[PASSWORD]" to unlock the vault`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  const identifier = fc.constantFrom(
    'password',
    'token',
    'hashed',
    'user',
    'form',
    'request',
    'db',
    'self',
    'settings',
    'config',
    'secret_key',
    'apiKey',
    'new_password',
  );
  const CODE_SHAPES: ReadonlyArray<fc.Arbitrary<string>> = [
    fc.tuple(secretName, identifier, identifier).map(([k, a, b]) => `${k.toLowerCase()} = ${a}.${b}(${a})`),
    fc.tuple(secretName, identifier, secretName).map(([k, a, q]) => `${k.toLowerCase()} = ${a}.form['${q}']`),
    fc
      .tuple(
        secretName,
        fc.constantFrom(
          'os.environ["X"]',
          'os.getenv("API_KEY")',
          'process.env.JWT_SECRET',
          'getenv("TOKEN")',
          'self.password_hash',
          'db.Column(db.String(128), nullable=False)',
          'None',
          'null',
          'undefined',
          '%s',
          '?',
          '$1',
        ),
      )
      .map(([k, v]) => `${k} = ${v}`),
    fc
      .tuple(secretName, fc.constantFrom('string', 'str', 'String', 'Optional[str]', 'VARCHAR(255)', 'bool', 'number'))
      .map(([k, t]) => `  ${k}: ${t};`),
    fc.tuple(secretName, identifier).map(([k, v]) => `return jsonify({'${k}': ${v}})`),
    fc
      .tuple(
        fc.constantFrom(...ENV_NAMES),
        fc.constantFrom('${X}', '<your-secret>', '{{ vault_secret }}', '***', 'changeme', 'your-api-key-here', '', 'xxxx'),
      )
      .map(([k, v]) => `${k}=${v}`),
    fc
      .tuple(
        fc.constantFrom('Password', 'Token', 'Secret', 'API Key'),
        fc.constantFrom('Hashing', 'Expiry', 'Rotation', 'Management', 'Storage'),
      )
      .map(([a, b]) => `**${a} ${b}**: keep it out of the repository.`),
    fc
      .tuple(
        fc.constantFrom('password', 'API key', 'access token', 'passphrase'),
        fillerWords,
        fc.constantFrom('long', 'random', 'strict', 'required', 'hashed', 'rotated', 'too short', 'stored in Vault'),
      )
      .map(([w, f, a]) => `The ${w} ${f.join(' ')} is ${a}.`),
    fc.constantFrom(
      'if not password:',
      'def check_password(self, password):',
      'Authorization: Bearer <token>',
      'Cookie: <cookie>',
      'https://example.com/reset?token=<token>',
    ),
  ];

  it.each(
    CODE_SHAPES.map((a, i) => [i, a] as const),
  )('code and prose shape %i without a secret is left alone and never refused', (_, shape) => {
    fc.assert(
      fc.property(shape, (text) => {
        expect(redactSecrets(text)).toEqual({ text, redactions: [] });
      }),
      { numRuns: RUNS },
    );
  });
});
