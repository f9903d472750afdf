/**
 * Every text stage that sees user input, run on generated adversarial inputs of MAX_CONTENT_CHARS
 * characters. Quadratic regexes took 2–13 s on such inputs; linear code takes milliseconds, so a
 * generous per-stage budget tells them apart even on a loaded machine.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { DEFAULT_MAX_CONTENT_CHARS } from '../config/defaults.js';
import { parseLlmJson } from '../llm/parse-json.js';
import { decisionObjects } from '../linker/decision-patterns.js';
import { extractAttributes } from '../linker/extract-attributes.js';
import { extractEntities } from '../linker/extract-entities.js';
import { isDecisionContent, linkMemory } from '../linker/index.js';
import { recognizeNamedEntities } from '../linker/named-entities.js';
import { queryTokens, toLuceneQuery } from '../text/lucene.js';
import { tokenize } from '../deep/contradiction.js';
import { wellFormedText } from '../../test/support/well-formed-text.js';
import { chunkText } from './chunk.js';
import { echoCandidates, remainderOf } from './echo-guard.js';
import { classifyMemoryType, salienceScore } from './importance.js';
import { normalizeContent } from './normalize.js';
import { redactSecrets } from '../redaction/redact.js';
import { redactJsonValue, redactStored } from '../redaction/redact-stored.js';
import { autoTag } from './tags.js';
import { classifyTemporal } from './temporal.js';
import { parseExpiry } from '../text/expiry.js';
import { clipLine } from '../sessions/digest.js';
import { deterministicSummary } from '../sessions/summary.js';
import { scoreContinuity } from '../sessions/continuity.js';
import { editedPath, lastAnswer } from '../sessions/session-work.js';
import { termCounts } from '../recall/stages/keyword-rescore.js';
import { LINEAR_TIME_BUDGET_MS, timeMs } from '../../test/support/linear-time.js';

const N = DEFAULT_MAX_CONTENT_CHARS;
/** Per stage and input; the quadratic versions took 2,000–13,000 ms here. */
const BUDGET_MS = LINEAR_TIME_BUDGET_MS;

const fill = (unit: string, n = N) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const PUNCTUATION = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
// The last ones are what src/text/well-formed.ts cleans: controls, CR, bidi, zero-width, surrogate halves.
const OTHERS = [
  'a',
  'A',
  '1',
  ' ',
  '\n',
  '\t',
  'é',
  '中',
  '\u00a0',
  '\u0000',
  '\r',
  '\u000b',
  '\u0085',
  '\u202e',
  '\u200b',
  '\ud800',
  '\udc00',
];
const WORDS = [
  'password',
  'api_key',
  'token',
  'secret',
  'Bearer',
  'https://a',
  'eyJ',
  'ghp_',
  'AKIA',
  'sk-',
  '-----BEGIN',
  'postgres://',
  'decided',
  'chose',
  'over',
  'until',
  'I',
  'we',
  'npm i',
  'const',
  'Error',
  'TODO',
  '```',
  'New',
  'Redis',
  '<think>',
  // The redactor's structure and sentence rules (#24): headers, cookies, parameters, bridged sentences.
  'Authorization:',
  'Authorization: Basic',
  'Proxy-Authorization: Token',
  'Cookie: a',
  'Set-Cookie:',
  'X-Api-Key:',
  'X-a-b-Token:',
  '?token',
  '&api_key',
  ';Password',
  'DB_PASSWORD',
  'passphrase "',
  'PIN code',
  'credentials',
  'the password for the box is',
  'password a b c d e f g is',
  'a.b(c)',
  'self.password',
  '"auth": "',
  // Codes named in a sentence and public digests (#32).
  'gate code',
  'the code for the gate is',
  'is the gate code',
  'use 1234 as the',
  'enter 1234 at the',
  'Recovery codes:',
  'seed phrase',
  'combination',
  'sha384-',
  'ssh-rsa',
  '-----BEGIN CERTIFICATE-----',
];

function adversarialInputs(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const c of [...PUNCTUATION, ...OTHERS]) {
    out.push([`run of ${JSON.stringify(c)}`, fill(c)]);
    out.push([`run of ${JSON.stringify(c)} then x`, `${c.repeat(N - 1)}x`]);
    out.push([`x then run of ${JSON.stringify(c)}`, `x${c.repeat(N - 1)}`]);
    out.push([`alternating a${JSON.stringify(c)}`, fill(`a${c}`)]);
  }
  // The linker's generated-blob mask (extract-entities.ts TOKEN_RUN, isOpaque): one blob the
  // whole length, and token runs one short of its 16-character floor, each restarting the match.
  out.push(['one base64-like blob', fill('aB3+xY7/')]);
  out.push(['15-character token runs', fill('aB3cD4eF5gH6iJ7 ')]);
  for (const w of WORDS) {
    out.push([`repeated ${JSON.stringify(w)} `, fill(`${w} `)]);
    out.push([`repeated ${JSON.stringify(w)}=`, fill(`${w}=`)]);
    out.push([`repeated ${JSON.stringify(w)}:`, fill(`${w}: `)]);
  }
  out.push(
    ['$-words', fill('$abc')],
    ['$-word pairs', fill('a$')],
    ['snake_case run', fill('ab_')],
    ['SNAKE_CASE run', fill('AB_')],
    ['snake_case ending in _', `${fill('a_', N - 1)}!`],
    ['CamelCase run', fill('Ab')],
    ['camelCase run', fill('aB')],
    ['repeated a= assignments', fill('a=')],
    ['password= then junk', `password=${fill('x', N - 9)}`],
    ['URL without end', `https://${fill('a/', N - 8)}`],
    ['URL of dots', `https://${fill('a.', N - 8)}`],
    ['database URI without end', `postgres://${fill('u:', N - 11)}`],
    ['email-like', fill('a.b@')],
    ['nested brackets', `${fill('([{', N / 2)}${fill('}])', N / 2)}`],
    ['unclosed calls', fill('a(')],
    ['path segments', fill('a/b.')],
    ['mixed scripts', fill('aА中١ é ')],
    ['near-miss decision', fill('we chose the ')],
    ['near-miss prose password', fill('my password is the ')],
    ['digits and dashes', fill('1-')],
    ['digits and spaces', fill('4 ')],
    ['plus-digit runs', fill('+1 ')],
    ['base64-like run', fill('A1b/')],
    ['capitalised words', fill('Aaa ')],
    ['indented lines', fill(' \n')],
    ['list markers', fill('- ')],
    ['sentence ends', fill('a. ')],
    ['markdown headers', fill('# \n')],
    ['unclosed private key', `-----BEGIN PRIVATE KEY-----${fill('a\n', N - 27)}`],
    // The redactor's value rules (#24): long values, unclosed quotes, bridges, chains, closers.
    ['long header value', `Authorization: Bearer ${fill('A', N - 22)}`],
    ['long cookie name', `Cookie: ${fill('a', N - 8)}`],
    ['cookie pairs', `Cookie: ${fill('a=b; ', N - 8)}`],
    ['X- header name run', `X-${fill('a-', N - 9)}Key: x`],
    ['unclosed quoted value', `password: "${fill('a', N - 11)}`],
    ['quoted line values', fill('password: "a" x\n')],
    ['camelCase value', `password: ${fill('aB', N - 10)}`],
    ['closing brackets value', `password=${fill(')', N - 9)}`],
    ['bracket pairs value', `password = ${fill('()', N - 11)}`],
    ['member chain value', `password = ${fill('a.', N - 11)}`],
    ['generic chain value', `token: ${fill('A<', N - 7)}`],
    ['bridged sentence words', fill('The password for the staging box ')],
    ['copulas', fill('password is is is ')],
    ['secret words and quotes', fill('passphrase "a" ')],
    ['env lines', fill('A_PASSWORD=x\n')],
    ['YAML keys alone', fill('  password:\n')],
    ['JSON pairs', fill('"token": "a1b2c3d4e5", ')],
    ['query parameters', `https://a/?${fill('token=a&', N - 11)}`],
    ['connection-string parameters', fill('Password=a;')],
    ['URL user:password runs', `https://${fill('a:', N - 10)}@x`],
    ['CR LF pairs and lone CRs', fill('\r\n\r')],
    ['surrogate pairs cut in between', fill('\ud83d\ude00\ud83d')],
    ['low halves before high halves', fill('\udc00\ud800')],
  );
  return out;
}

/**
 * Operators' REDACTION_EXTRA_PATTERNS in the shapes that backtrack (nested, adjacent and
 * overlapping quantifiers): they run on RE2, so they too must stay linear on every input. They
 * rarely match here, so the budget measures RE2's search, not its per-match cost (~10 µs).
 */
const EXTRA_PATTERNS = [
  { kind: 'NESTED', pattern: '(a+)+$' },
  { kind: 'ADJACENT', pattern: '\\d+\\d+\\d+x' },
  { kind: 'OVERLAP', pattern: '(a|a|\\w)*b!' },
  { kind: 'WILDCARDS', pattern: '.*.*=.*;', flags: 's' },
  { kind: 'CLASSES', pattern: '([A-Za-z0-9_]+[-. ]?)+@x', flags: 'i' },
];

const STAGES: Record<string, (text: string) => unknown> = {
  wellFormed: wellFormedText,
  normalize: normalizeContent,
  redact: (t) => {
    try {
      return redactSecrets(t);
    } catch (error) {
      if ((error as { code?: string }).code === 'PII_REJECTED') return null;
      throw error;
    }
  },
  redactExtraPatterns: (t) => redactSecrets(t, { extraPatterns: EXTRA_PATTERNS, rejectUnmaskable: false }),
  redactStored: (t) => redactStored(t),
  // A value under a secret-named key is masked whole; other leaves and the keys go through the redactor.
  redactJson: (t) => redactJsonValue({ [t.slice(0, 256)]: t, note: t, nested: { token: [t], items: [t] } }),
  tags: (t) => autoTag(t, { source: t.slice(0, 256) }),
  chunk: chunkText,
  salience: salienceScore,
  type: classifyMemoryType,
  temporal: classifyTemporal,
  // Sessions and decay (src/sessions): expiry phrases, digest lines, the summary without a model.
  expiry: (t) => parseExpiry(t, new Date('2026-01-01T00:00:00Z')),
  digestLine: (t) => clipLine(t, 500),
  echoGuard: (t) => {
    const { lines, candidates } = echoCandidates('ns', t);
    return remainderOf(lines, new Set(candidates.map((c) => c.line)));
  },
  sessionSummary: (t) => deterministicSummary({ transcript: t, prompts: [t.slice(0, 300)], memories: [t] }),
  continuity: (t) => scoreContinuity([{ id: 'm', content: t }], t, []),
  // A session's work (session-work.ts): the agent's last answer of a transcript, a file edit's path.
  lastAnswer: (t) => lastAnswer(`User: ${t}\nAssistant: ${t}\n[used ${t}`),
  editedPath: (t) => editedPath({ metadata: null, content: `File changed: ${t}` }),
  // Recall's keyword re-scoring with the namespace's own statistics (its word pattern and stemmer).
  keywordTerms: termCounts,
  entities: extractEntities,
  attributes: (t) => extractAttributes(t, extractEntities(t)),
  decision: isDecisionContent,
  decisionObjects,
  link: linkMemory,
  // compromise reads at most NER_MAX_CHARS of the input: its own tokenizer on hostile text.
  namedEntities: (t) => recognizeNamedEntities(t),
  lucene: toLuceneQuery,
  queryTokens,
  contradictionTokens: tokenize,
  llmJson: (t) => {
    try {
      return parseLlmJson(t);
    } catch {
      return null;
    }
  },
};

describe(`text stages run in linear time on ${N}-character adversarial inputs`, () => {
  // Each stage runs synchronously for seconds; together they ran ~80 s on CI without a macrotask
  // turn, past the 60 s in which a vitest worker must read its runner's replies. Yield between them.
  afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));

  const inputs = adversarialInputs();

  it('generates inputs of MAX_CONTENT_CHARS', () => {
    expect(inputs.length).toBeGreaterThan(200);
    for (const [name, text] of inputs) expect(text.length, name).toBeGreaterThanOrEqual(N - 1);
  });

  it.each(Object.keys(STAGES))('%s stays under the budget on every input', (stage) => {
    const fn = STAGES[stage]!;
    const slow: string[] = [];
    for (const [name, text] of inputs) {
      const ms = timeMs(() => fn(text));
      if (ms > BUDGET_MS) slow.push(`${name}: ${Math.round(ms)} ms`);
    }
    expect(slow, `${stage} over ${BUDGET_MS} ms`).toEqual([]);
  });
});
