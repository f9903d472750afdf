/**
 * Weak entity signals: names we would link to if the entity already exists, but never create
 * from one mention (a capitalised word is too often just a capitalised word). The caller masks
 * strong spans (paths, URLs, code) first so their parts are not read as names.
 */
import { trimEndChars } from '../text/index.js';
import { CALENDAR_WORDS, STOP_WORDS } from './vocabulary.js';

export interface NameMention {
  name: string;
  start: number;
  end: number;
  kind: 'speaker' | 'sentence-start' | 'proper-noun';
}

// "Caroline: …" at the start of a line: a chat transcript's speaker label.
const SPEAKER = /^[ \t]*(\p{Lu}[\p{L}'’-]*(?: \p{Lu}[\p{L}'’-]*){0,2}):[ \t]/gmu;
const CAPITALISED = /(?<![\p{L}\p{N}_'’@#$.\/\\-])\p{Lu}[\p{L}\p{N}'’&-]*/gu;
const VERBS = new Set(
  (
    'is was are were has had have went goes go said says told tells asked asks wants wanted likes liked loves loved hates ' +
    'thinks thought works worked lives lived will would can could should did does got gets made makes took takes came comes ' +
    'gave gives joined started mentioned shared felt feels knows knew met visited called wrote built moved left decided ' +
    'prefers preferred just also recently never always still'
  ).split(' '),
);
const MAX_RUN_WORDS = 4;
/** Junk alone, but fine at the start of a longer name ("New York", "Great Britain"). */
const NAME_PREFIXES = new Set(['new', 'old', 'great', 'good', 'first', 'second', 'third']);

export function findNameMentions(text: string): NameMention[] {
  const out: NameMention[] = [];
  const claimed: Array<[number, number]> = [];
  for (const m of text.matchAll(SPEAKER)) {
    const name = m[1]!;
    const start = m.index + m[0].indexOf(name);
    if (!isJunk(name)) out.push({ name, start, end: start + name.length, kind: 'speaker' });
    claimed.push([start, start + name.length]);
  }

  let run: Array<{ word: string; start: number; end: number }> = [];
  const flush = () => {
    if (run.length > 0) out.push(...acceptRun(text, run, claimed));
    run = [];
  };
  for (const m of text.matchAll(CAPITALISED)) {
    const word = withoutSuffix(m[0]);
    const start = m.index;
    const prev = run[run.length - 1];
    if (prev && !/^ $/.test(text.slice(prev.end, start))) flush();
    if ((isJunk(word) && !NAME_PREFIXES.has(word.toLowerCase())) || (word.length > 6 && word === word.toUpperCase())) {
      flush();
      continue;
    }
    run.push({ word, start, end: start + word.length });
    if (word.length < m[0].length || run.length === MAX_RUN_WORDS) flush();
  }
  flush();
  return out;
}

function acceptRun(
  text: string,
  whole: Array<{ word: string; start: number; end: number }>,
  claimed: Array<[number, number]>,
): NameMention[] {
  // "New York" keeps its prefix, a lone or trailing "New" is dropped.
  let n = whole.length;
  while (n > 0 && isJunk(whole[n - 1]!.word)) n--;
  const run = whole.slice(0, n);
  if (run.length === 0) return [];
  const first = run[0]!;
  const last = run[run.length - 1]!;
  if (claimed.some(([a, b]) => first.start < b && last.end > a)) return [];
  const name = run.map((r) => r.word).join(' ');
  if (!opensSentence(text, first.start)) return [{ name, start: first.start, end: last.end, kind: 'proper-noun' }];
  // At a sentence start a capital proves nothing: accept a possessive or a following verb.
  const after = text.slice(last.end, last.end + 40);
  const possessive = /^['’]s\b/.test(after);
  const nextWord = /^\s+([a-z]+)/.exec(after)?.[1];
  if (possessive || (nextWord !== undefined && (VERBS.has(nextWord) || /^[a-z]{3,}ed$/.test(nextWord)))) {
    return [{ name, start: first.start, end: last.end, kind: 'sentence-start' }];
  }
  // "The Acme Corp …": drop the opening word and keep the rest as an ordinary proper noun.
  return run.length > 1
    ? [
        {
          name: run
            .slice(1)
            .map((r) => r.word)
            .join(' '),
          start: run[1]!.start,
          end: last.end,
          kind: 'proper-noun',
        },
      ]
    : [];
}

/** Drops a possessive "'s" or a trailing run of ' ’ & - (a scan, not a regex: runs can be long). */
function withoutSuffix(word: string): string {
  if (/['’]s$/u.test(word)) return word.slice(0, -2);
  return trimEndChars(word, "'’&-");
}

function isJunk(word: string): boolean {
  const w = word.toLowerCase();
  return word.length < 2 || STOP_WORDS.has(w) || CALENDAR_WORDS.has(w);
}

function opensSentence(text: string, index: number): boolean {
  let k = index - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
  while (k >= 0 && /["'“‘(\[*_>-]/.test(text[k]!)) k--;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
  return k < 0 || /[.!?:;\n]/.test(text[k]!);
}
