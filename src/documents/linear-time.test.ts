/**
 * The document HTML-to-text helpers and the normalizers of LLM answers, run on adversarial
 * inputs (src/write/linear-time.test.ts holds the plain-text stages). A fetched page is up to
 * DOCUMENT_MAX_CONTENT_BYTES and a model answer is text we did not write: both are hostile input.
 * Linear code takes milliseconds on these; a quadratic step takes seconds.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_MAX_CONTENT_CHARS } from '../config/defaults.js';
import { validateHints } from '../deep/hint-generation.js';
import { validateNearDuplicateDecision } from '../deep/near-duplicate-decide.js';
import { validateClassification } from '../deep/structural-classify.js';
import { validateDecision } from '../deep/validate-decision.js';
import { validateExtraction } from '../deep/validate-extraction.js';
import { collapse, HtmlText } from './html-text.js';
import { LINEAR_TIME_BUDGET_MS, timeMs } from '../../test/support/linear-time.js';

/** A quarter of the default document limit: big enough that a quadratic step would take minutes. */
const HTML_N = 1024 * 1024;
const TEXT_N = DEFAULT_MAX_CONTENT_CHARS;
const BUDGET_MS = LINEAR_TIME_BUDGET_MS;

const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

function htmlInputs(): Array<[string, string]> {
  const units = [
    '<',
    '>',
    '&',
    '&amp;',
    '&#',
    '&#x',
    '&#12345678',
    '<a',
    '<a ',
    '<a b',
    '<a b=',
    '<a b="',
    "<a b='",
    '</',
    '</a',
    '<!',
    '<!--',
    '<!-- -',
    '-->',
    '<![CDATA[',
    ']]>',
    '<?',
    '<script>',
    '</script>',
    '<script><',
    '<style>a{',
    '<title>',
    '<title>a',
    '<br>',
    '<br/>',
    '<p>',
    '</p>',
    '<div><div>',
    '</div>',
    '<svg><svg>',
    '<li>a',
    ' ',
    '\n',
    '\t',
    '\r\n',
    '\u00a0',
    '&nbsp;',
    ' \n ',
    '\n\n\n',
    'a',
    '中',
    '\u0000',
  ];
  const out: Array<[string, string]> = [];
  for (const u of units) {
    out.push([`run of ${JSON.stringify(u)}`, fill(u, HTML_N)]);
    out.push([`run of ${JSON.stringify(u)} then x`, `${fill(u, HTML_N - 1)}x`]);
    out.push([`text in run of ${JSON.stringify(u)}`, fill(`${u}text `, HTML_N)]);
  }
  out.push(
    ['unclosed comment', `<!--${fill('a', HTML_N - 4)}`],
    ['unclosed script', `<script>${fill('<a>', HTML_N - 8)}`],
    ['unclosed attribute', `<a href="${fill('x', HTML_N - 9)}`],
    ['deep nesting', `${fill('<div>', HTML_N / 2)}${fill('</div>', HTML_N / 2)}`],
    ['skipped nesting never closed', fill('<script><style><svg>', HTML_N)],
    ['many titles', fill('<title>t</title>', HTML_N)],
    ['spaces between blocks', fill('<p> \t </p>\n \n', HTML_N)],
  );
  return out;
}

/** Strings a model might answer with, each MAX_CONTENT_CHARS long. */
function answerStrings(): Array<[string, string]> {
  const units = [
    ' ',
    '\t',
    '\n',
    '-',
    ' -',
    '- ',
    '_',
    'a',
    'A',
    '\u00a0',
    '\u2028',
    'password=',
    'ghp_',
    'https://a',
    '"',
    '\\',
    '{',
    '[',
    'é',
    '中',
  ];
  const out: Array<[string, string]> = [];
  for (const u of units) {
    out.push([`run of ${JSON.stringify(u)}`, fill(u, TEXT_N)]);
    out.push([`run of ${JSON.stringify(u)} then x`, `${fill(u, TEXT_N - 1)}x`]);
    out.push([`alternating a${JSON.stringify(u)}`, fill(`a${u}`, TEXT_N)]);
  }
  return out;
}

const CANDIDATES = [{ id: '00000000-0000-4000-8000-000000000001', type: 'fact', content: 'Alice lives in Berlin.', score: 0.9 }];
const CLASSIFY_INPUT = {
  entityName: 'Alice',
  entityType: 'unknown',
  existingAspects: ['location'],
  attributes: [{ content: 'Alice lives in Berlin.' }],
};

/** Every normalizer of a model answer, each given `s` in every string field it reads. */
const NORMALIZERS: Record<string, (s: string) => unknown> = {
  extraction: (s) =>
    validateExtraction({
      facts: [{ content: s, type: s, confidence: s }],
      entities: [{ source: s, relationship: s, target: s, confidence: s }],
    }),
  decision: (s) => validateDecision({ action: ` update${s}`, targetId: s, reason: s, confidence: s }, CANDIDATES),
  decisionReason: (s) => validateDecision({ action: 'ADD', targetId: null, reason: s, confidence: 0.9 }, CANDIDATES),
  hints: (s) => validateHints({ questions: [s, s, s] }, 3),
  nearDuplicate: (s) => validateNearDuplicateDecision({ action: s, reason: s, merged: s, confidence: 0.5 }),
  nearDuplicateMerge: (s) => validateNearDuplicateDecision({ action: 'merge', reason: s, merged: s, confidence: 0.5 }),
  classification: (s) => validateClassification({ entityType: s, assignments: [{ i: 0, aspect: s, kind: s, new: s }] }, CLASSIFY_INPUT),
};

function htmlToText(html: string): unknown {
  const reader = new HtmlText();
  // As the fetcher feeds it: decoded text in network-sized pieces.
  for (let at = 0; at < html.length; at += 64 * 1024) reader.write(html.slice(at, at + 64 * 1024));
  return reader.end();
}

describe('document HTML-to-text runs in linear time on adversarial pages', () => {
  const inputs = htmlInputs();

  it.each([
    ['HtmlText', htmlToText],
    ['collapse', collapse],
  ] as const)('%s stays under the budget on every input', (_name, fn) => {
    const slow: string[] = [];
    for (const [name, html] of inputs) {
      const ms = timeMs(() => fn(html));
      if (ms > BUDGET_MS) slow.push(`${name}: ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
  });
});

describe('LLM-answer normalizers run in linear time on adversarial answers', () => {
  const inputs = answerStrings();

  it.each(Object.keys(NORMALIZERS))('%s stays under the budget on every input', (normalizer) => {
    const fn = NORMALIZERS[normalizer]!;
    const slow: string[] = [];
    for (const [name, text] of inputs) {
      const ms = timeMs(() => fn(text));
      if (ms > BUDGET_MS) slow.push(`${name}: ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
  });
});
