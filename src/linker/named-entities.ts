/**
 * Named-entity recognition for the inline linker: people, places and organizations found by
 * compromise (its lexicon and tagger ship in the npm package: no network, no model download).
 * Chosen over wink-nlp's English lite model by measurement (`npm run bench:ner`): that model
 * tags proper nouns but types no person, place or organization.
 *
 * Precision first, because a false entity pollutes the graph and the recall boost: a match must
 * be typed by the library AND capitalised; titles, stop words, calendar words and a lone word
 * opening a sentence that the library does not know as a name are dropped. The work is capped:
 * the recognizer reads at most NER_MAX_CHARS characters and NER_MAX_SENTENCES sentences, and
 * keeps at most NER_MAX_ENTITIES.
 */
import nlp from 'compromise';
import { CALENDAR_WORDS, knownTech, STOP_WORDS } from './vocabulary.js';

export type NamedEntityType = 'person' | 'organization' | 'place';

export interface NamedEntity {
  /** As written in the text (possessive and titles removed). */
  name: string;
  type: NamedEntityType;
  start: number;
  end: number;
}

export interface RecognizeOptions {
  maxChars?: number;
  maxSentences?: number;
  maxEntities?: number;
}

/** compromise costs milliseconds per 1,000 characters: a memory's head is what names it. */
export const NER_MAX_CHARS = 1_500;
/** compromise's cost is mostly per sentence; hostile text packs a thousand "sentences" into 2,000 characters. */
export const NER_MAX_SENTENCES = 40;
export const NER_MAX_ENTITIES = 12;
/** Longer "names" are runs of capitalised headings, not one thing. */
const MAX_NAME_WORDS = 4;

interface Term {
  text: string;
  pre: string;
  post: string;
  tags: string[];
  offset: { start: number; length: number };
}

type Doc = ReturnType<typeof nlp>;
const VIEWS: ReadonlyArray<[NamedEntityType, (doc: Doc) => { json(options: object): unknown }]> = [
  ['person', (doc) => doc.people()],
  ['organization', (doc) => doc.organizations()],
  ['place', (doc) => doc.places()],
];

/**
 * Context that types a capitalised word compromise left untyped ("works at Acme", "moved to
 * Lisbon", "my friend Priya"), in compromise's own match syntax; group 0 is the name. Only words
 * compromise tags #ProperNoun qualify, so a sentence's first word never does.
 */
const CONTEXTS: ReadonlyArray<[NamedEntityType, string]> = [
  [
    'organization',
    '(work|works|worked|working|job|employed|intern|interned|interning|hired|ceo|cto|cfo|coo|founder|cofounder|co-founder|engineer|manager|director|president|analyst|developer|designer|employee|consultant) (at|for|of|by) [#ProperNoun+]',
  ],
  ['organization', '(join|joins|joined|joining|founded|cofounded) [#ProperNoun+]'],
  [
    'place',
    '(live|lives|lived|living|move|moved|moving|relocate|relocated|trip|travel|travels|travelled|traveled|traveling|travelling|fly|flew|flying|flight|visit|visits|visited|visiting|born|based|stay|stays|stayed|staying|vacation|holiday|heading|near) (in|to|from|at|near)? [#ProperNoun+]',
  ],
  [
    'person',
    '(friend|friends|colleague|coworker|co-worker|boss|manager|neighbor|neighbour|partner|roommate|teacher|coach|mentor|sister|brother|wife|husband|daughter|son|mother|father|mom|mum|dad|cousin|aunt|uncle|grandma|grandpa|niece|nephew|fiance|fiancee|girlfriend|boyfriend) [#ProperNoun+]',
  ],
];

/**
 * A person named right after a sentence-opening imperative or greeting: "Ask Priya Nair about the
 * migration.", "Thanks Maria!", "cc Daniel Okafor", "Loop in Wei Chen", "Hi Sam,". compromise
 * knows common first names but not every name ("Priya Nair" is two untyped proper nouns), so the
 * opening word types them. Precision rules (addressee()): after an imperative, two or three proper nouns, or
 * one the library knows as a first name — "Ask Kestrel about it" may name a service; after a
 * greeting, also one proper noun that ends its clause ("Hello Priya, …"); never a known
 * technology, an organization or a place the library knows.
 */
const IMPERATIVE =
  '(ask|tell|ping|thank|cc|bcc|email|e-mail|mail|call|phone|text|message|dm|remind|invite|notify|contact|introduce|meet|page|nudge|poke|cc:)';
const GREETING = '(hi|hello|hey|thanks|thx|dear|cheers|congrats|congratulations|welcome|morning|evening|hiya|yo)';
const ADDRESSEE_CONTEXTS: ReadonlyArray<[string, 'imperative' | 'greeting']> = [
  [`^please? ${IMPERATIVE} [#ProperNoun+]`, 'imperative'],
  ['^please? (loop|bring|rope) in [#ProperNoun+]', 'imperative'],
  [
    '^please? (check|sync|talk|speak|meet|consult|confirm|coordinate|follow up|reach out|circle back) (with|to) [#ProperNoun+]',
    'imperative',
  ],
  ['^please? (follow|reach|circle) (up|out|back) (with|to) [#ProperNoun+]', 'imperative'],
  ['^please? (say|send) (hi|hello|thanks|thank you) to [#ProperNoun+]', 'imperative'],
  [`^${GREETING} [#ProperNoun+]`, 'greeting'],
  [
    '^(thank you|good morning|good afternoon|good evening|many thanks|big thanks|shout out to|shoutout to|kudos to|thanks to) [#ProperNoun+]',
    'greeting',
  ],
];
const ORG_OR_PLACE_TAGS = new Set(['Organization', 'Company', 'SportsTeam', 'School', 'Country', 'City', 'Region', 'Place']);
const FIRST_NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'Person']);

/** Whom a greeting addresses when it names no one: "Hi All,", "Thanks Team!". */
const GREETED_GROUPS = new Set(
  'all everyone everybody team folks guys gals people friends world there again gang crew both you yall y’all so much again'.split(' '),
);

/** Whether a run after an opening imperative or greeting is a person (see ADDRESSEE_CONTEXTS). */
function addressee(text: string, run: readonly Term[], kind: 'imperative' | 'greeting'): boolean {
  const words = run.map((t) => t.text.replace(/['’]s$/u, ''));
  if (run.some((t) => t.tags.some((tag) => ORG_OR_PLACE_TAGS.has(tag))) || words.some((w) => knownTech(w))) return false;
  if (words.some((w) => GREETED_GROUPS.has(w.toLowerCase()))) return false;
  if (run.length >= 2) return run.length <= 3;
  const only = run[0]!;
  if (only.tags.some((tag) => FIRST_NAME_TAGS.has(tag))) return true;
  // A lone unknown word after a greeting, ending its clause ("Hello Priya, …", "Morning Priya!"),
  // and not a common noun of the library's lexicon ("Welcome Screen", "Hello World").
  const after = text.slice(only.offset.start + only.offset.length);
  return kind === 'greeting' && /^(?:[,!.:;—–]|\s*$)/u.test(after) && !only.tags.includes('Singular') && !only.tags.includes('Plural');
}

/** Tags by which compromise knows a word as a name from its lexicon, not by guessing from a capital. */
const NAME_TAGS = new Set([
  'FirstName',
  'LastName',
  'MaleName',
  'FemaleName',
  'Country',
  'City',
  'Region',
  'Organization',
  'Company',
  'SportsTeam',
  'School',
]);
/** Titles and kinship words compromise puts inside a person ("Dr. Patel", "Grandma Rose"). */
const TITLE_TAGS = new Set(['Honorific', 'Actor', 'FamilyMember']);
const CAPITALISED = /^\p{Lu}/u;
const SENTENCE_END = new Set(['.', '!', '?', '\n']);
/** Junk alone, but the start of a longer name ("New York", "Great Britain"). */
const NAME_PREFIXES = new Set(['new', 'old', 'great', 'good', 'first', 'second', 'third']);

export function recognizeNamedEntities(text: string, options: RecognizeOptions = {}): NamedEntity[] {
  const head = firstSentences(headOf(text, options.maxChars ?? NER_MAX_CHARS), options.maxSentences ?? NER_MAX_SENTENCES);
  // Without a capital letter nothing can pass the capitalisation rule: skip the tagger.
  if (!/\p{Lu}/u.test(head)) return [];
  const doc = nlp(head);
  const found: NamedEntity[] = [];
  const taken: Array<[number, number]> = [];
  const views = [...VIEWS, ...CONTEXTS.map(([type, pattern]) => [type, (d: Doc) => d.match(pattern, 0)] as const)];
  for (const [type, view] of views) {
    for (const match of view(doc).json({ offset: true, terms: { offset: true } }) as Array<{ terms: Term[] }>) {
      for (const run of nameRuns(match.terms)) {
        const entity = toEntity(head, run, type);
        // A span typed twice (compromise calls some words both place and organization) keeps the first.
        if (!entity || taken.some(([a, b]) => entity.start < b && entity.end > a)) continue;
        taken.push([entity.start, entity.end]);
        found.push(entity);
      }
    }
  }
  for (const [pattern, kind] of ADDRESSEE_CONTEXTS) {
    for (const match of doc.match(pattern, 0).json({ offset: true, terms: { offset: true } }) as Array<{ terms: Term[] }>) {
      for (const run of nameRuns(match.terms)) {
        if (!addressee(head, run, kind)) continue;
        const entity = toEntity(head, run, 'person', true);
        if (!entity || taken.some(([a, b]) => entity.start < b && entity.end > a)) continue;
        taken.push([entity.start, entity.end]);
        found.push(entity);
      }
    }
  }
  return joinSplitNames(
    head,
    found.sort((a, b) => a.start - b.start),
  ).slice(0, options.maxEntities ?? NER_MAX_ENTITIES);
}

/** compromise splits "Sarah Chen's" in two: same-typed names one space apart are one name. */
function joinSplitNames(text: string, sorted: NamedEntity[]): NamedEntity[] {
  const out: NamedEntity[] = [];
  for (const e of sorted) {
    const prev = out[out.length - 1];
    if (prev && prev.type === e.type && e.start === prev.end + 1 && text[prev.end] === ' ') {
      out[out.length - 1] = { ...prev, name: text.slice(prev.start, e.end), end: e.end };
    } else out.push(e);
  }
  return out;
}

/** At most `max` characters, cut at a space so a name is not halved. */
function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

/** Up to the end of the `max`-th run of sentence-ending characters (a linear scan). */
function firstSentences(text: string, max: number): string {
  let runs = 0;
  for (let i = 0; i < text.length; i++) {
    if (!SENTENCE_END.has(text[i]!) || SENTENCE_END.has(text[i + 1] ?? '')) continue;
    if (++runs === max) return text.slice(0, i + 1);
  }
  return text;
}

/** Runs of capitalised, untitled terms that a comma or other punctuation does not split. */
function nameRuns(terms: readonly Term[]): Term[][] {
  const runs: Term[][] = [];
  let run: Term[] = [];
  const flush = () => {
    if (run.length > 0 && run.length <= MAX_NAME_WORDS) runs.push(run);
    run = [];
  };
  for (const t of terms) {
    const ok = CAPITALISED.test(t.text) && !t.tags.some((tag) => TITLE_TAGS.has(tag));
    if (!ok) {
      flush();
      continue;
    }
    if (run.length > 0 && /[^\s]/.test(run[run.length - 1]!.post + t.pre)) flush();
    run.push(t);
  }
  flush();
  return runs.map(trimJunk).filter((r) => r.length > 0);
}

/** "The Red Cross" → "Red Cross"; "New York" keeps its prefix; a lone or trailing junk word goes. */
function trimJunk(run: Term[]): Term[] {
  let from = 0;
  let to = run.length;
  while (to > from && isJunk(run[to - 1]!.text)) to--;
  while (from < to && isJunk(run[from]!.text) && !(NAME_PREFIXES.has(run[from]!.text.toLowerCase()) && to - from > 1)) from++;
  return run.slice(from, to);
}

function toEntity(text: string, run: readonly Term[], type: NamedEntityType, addressed = false): NamedEntity | null {
  const first = run[0]!;
  const last = run[run.length - 1]!;
  const start = first.offset.start;
  let end = last.offset.start + last.offset.length;
  let name = text.slice(start, end);
  const possessive = /['’]s$/u.exec(name);
  if (possessive) {
    name = name.slice(0, -2);
    end -= 2;
  }
  // An acronym (LGBTQ, CTO, HR) is a word of the trade more often than an organization.
  if (name.length < 2 || (run.length === 1 && name.toUpperCase() === name) || (name.length > 6 && name.toUpperCase() === name)) return null;
  // A lone word opening a sentence is capitalised by grammar: keep it only when the library
  // knows it as a name ("Alice", "Berlin"), not when it guessed from the capital ("Summer").
  if (!addressed && run.length === 1 && opensSentence(text, start) && !first.tags.some((tag) => NAME_TAGS.has(tag))) return null;
  return { name, type, start, end };
}

function isJunk(word: string): boolean {
  const w = word.toLowerCase().replace(/['’]s$/u, '');
  return STOP_WORDS.has(w) || CALENDAR_WORDS.has(w);
}

function opensSentence(text: string, index: number): boolean {
  let k = index - 1;
  while (k >= 0 && /[ \t"'“‘(\[*_>-]/.test(text[k]!)) k--;
  return k < 0 || /[.!?:;\n]/.test(text[k]!);
}
