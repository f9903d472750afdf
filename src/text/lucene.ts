/** Most terms a keyword query may carry; more only adds noise and clause cost. */
export const MAX_LUCENE_TERMS = 32;

/** English stop words (NLTK-style), plus the pieces contractions split into. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'about',
  'above',
  'after',
  'again',
  'against',
  'all',
  'am',
  'an',
  'and',
  'any',
  'are',
  'as',
  'at',
  'be',
  'because',
  'been',
  'before',
  'being',
  'below',
  'between',
  'both',
  'but',
  'by',
  'can',
  'could',
  'did',
  'do',
  'does',
  'doing',
  'down',
  'during',
  'each',
  'few',
  'for',
  'from',
  'further',
  'had',
  'has',
  'have',
  'having',
  'he',
  'her',
  'here',
  'hers',
  'herself',
  'him',
  'himself',
  'his',
  'how',
  'i',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'itself',
  'just',
  'me',
  'more',
  'most',
  'my',
  'myself',
  'no',
  'nor',
  'not',
  'now',
  'of',
  'off',
  'on',
  'once',
  'only',
  'or',
  'other',
  'our',
  'ours',
  'ourselves',
  'out',
  'over',
  'own',
  'same',
  'she',
  'should',
  'so',
  'some',
  'such',
  'than',
  'that',
  'the',
  'their',
  'theirs',
  'them',
  'themselves',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'through',
  'to',
  'too',
  'under',
  'until',
  'up',
  'very',
  'was',
  'we',
  'were',
  'what',
  'when',
  'where',
  'which',
  'while',
  'who',
  'whom',
  'why',
  'will',
  'with',
  'would',
  'you',
  'your',
  'yours',
  'yourself',
  'yourselves',
  // contraction pieces (what's → what + s, don't → don + t, we'll → we + ll)
  'll',
  're',
  've',
  'don',
  'doesn',
  'didn',
  'isn',
  'aren',
  'wasn',
  'weren',
  'won',
  'wouldn',
  'shouldn',
  'couldn',
  'hasn',
  'haven',
  'hadn',
  'mustn',
  'needn',
  'ain',
]);

// Word characters joined by the separators Lucene's StandardTokenizer (UAX #29) keeps inside a
// token ("file.ts", "what's", "foo:bar", "v1.2", "1,000"). Joining more than Lucene does is
// harmless — the query parser re-analyzes each term — while splitting where it joins would miss.
const LUCENE_WORD = /[\p{L}\p{M}\p{N}_]+(?:[.'’:][\p{L}\p{M}\p{N}_]+|(?<=\p{N}),(?=\p{N})\p{N}+)*/gu;
const ALNUM_RUN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/** Scripts where one character is a word, so single-character terms are kept. */
const IDEOGRAPHIC = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const LUCENE_SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;
const LUCENE_BOOLEAN = /^(?:AND|OR|NOT)$/;

/**
 * A full-text query for `db.index.fulltext.queryNodes`: the meaningful words of `userText`,
 * escaped and OR-ed (at most MAX_LUCENE_TERMS). Null when nothing searchable is left — the keyword
 * leg is then skipped rather than sending Lucene a query it cannot parse.
 */
export function toLuceneQuery(userText: string): string | null {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of userText.normalize('NFC').matchAll(LUCENE_WORD)) {
    const term = match[0].toLowerCase();
    if (seen.has(term) || !isMeaningful(term.replace(/’/g, "'"))) continue;
    seen.add(term);
    terms.push(escapeLuceneTerm(term));
    if (terms.length === MAX_LUCENE_TERMS) break;
  }
  return terms.length === 0 ? null : terms.join(' OR ');
}

/**
 * Backslash-escapes every Lucene query-syntax character and lowercases a bare AND/OR/NOT, so the
 * term is matched as text and never read as an operator.
 */
export function escapeLuceneTerm(term: string): string {
  if (LUCENE_BOOLEAN.test(term)) return term.toLowerCase();
  return term.replace(LUCENE_SPECIAL, '\\$&');
}

/**
 * Lowercased, de-duplicated words of `text` (alphanumeric runs of 2+ characters, stop words
 * removed), in order of first appearance. Used for the question's entity-name probes (recall's
 * entity leg and graph boost).
 */
export function queryTokens(text: string): string[] {
  const out = new Set<string>();
  for (const match of text.normalize('NFC').matchAll(ALNUM_RUN)) {
    const token = match[0].toLowerCase();
    if (isMeaningful(token)) out.add(token);
  }
  return [...out];
}

function isMeaningful(token: string): boolean {
  if (STOP_WORDS.has(token)) return false;
  // "what's" is a stop word when its first piece is one.
  const apostrophe = token.indexOf("'");
  if (apostrophe > 0 && STOP_WORDS.has(token.slice(0, apostrophe))) return false;
  const chars = [...token];
  return chars.length >= 2 || IDEOGRAPHIC.test(token);
}
