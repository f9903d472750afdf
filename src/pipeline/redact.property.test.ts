/**
 * Properties of redaction (fast-check): a generated secret of any of several formats, planted
 * anywhere in random text (lone surrogates and control characters included), never survives,
 * not even as a long fragment; ordinary prose without secrets comes out unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';
import { redactStored } from './redact-stored.js';

const RUNS = 300;
const chars = (alphabet: string, min: number, max = min) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
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
    fc.tuple(chars('abcdefghijklmnopqrstuvwxyz', 3, 10), chars(B62, 12, 24), fc.constantFrom('https', 'postgres', 'redis', 'mongodb+srv', 'amqp')).map(([user, pass, scheme]) => [
      `${scheme}://${user}:${pass}@db.example.internal:5432/app`,
      pass,
    ]),
  ],
  ['PEM private key', fc.array(chars(B64, 64), { minLength: 2, maxLength: 5 }).map((lines) => [`-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----`, lines.join('\n')])],
  ['Hugging Face token', chars(B62, 34).map((s) => [`hf_${s}`, s])],
  ['Mailchimp key', chars(HEX, 32).map((s) => [`${s}-us14`, s])],
];

/** Random text around the secret: any UTF-16 units (lone surrogates, controls, NUL) or prose. */
const filler = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.constantFrom('the', 'deploy', 'failed', 'at', '3pm', 'and', 'Alice', 'said', 'use', 'this', '—', 'ok', '\n', '\u0000', '\ud800'), { maxLength: 30 }).map((w) => w.join(' ')),
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
          for (const fragment of fragments(part)) if (!before.includes(fragment) && !after.includes(fragment)) expect(output).not.toContain(fragment);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the same secret twice, or two formats side by side, are all masked', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SECRETS.map(([, a]) => a)).chain((a) => fc.tuple(a, a)), separator, ([[w1, p1], [w2, p2]], sep) => {
        const output = redactStored(`${w1}${sep}${w2}${sep}${w1}`);
        expect(output).not.toContain(p1);
        expect(output).not.toContain(p2);
      }),
      { numRuns: RUNS },
    );
  });

  it('ordinary prose without secrets comes out unchanged', () => {
    const word = fc.constantFrom(
      'The', 'team', 'moved', 'the', 'release', 'to', 'Friday', 'because', 'QA', 'found', 'two', 'bugs', 'in', 'checkout', 'Alice', 'prefers',
      'Postgres', 'over', 'MySQL', 'for', 'ledgers', 'Kubernetes', 'cluster', 'runs', 'v1.2.3', 'on', 'port', '8080', 'TODO:', 'fix', 'flaky',
      'tests', 'e.g.', 'i.e.', 'README.md', 'src/app.ts', 'café', 'naïve', '中文', '—', '(see', 'notes)', 'x=1', 'if', 'a', '<', 'b', 'then', 'c',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.constantFrom(' ', ' ', ', ', '. ', '\n', ': ')), { minLength: 1, maxLength: 60 }), (parts) => {
        const text = parts.map(([w, s]) => w + s).join('').trim();
        const result = redactSecrets(text);
        expect(result.text).toBe(text);
        expect(result.redactions).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
