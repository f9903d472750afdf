/**
 * Named things an agent talks about that are neither people, places nor organizations: services,
 * projects, products, codenames, repositories, datasets, APIs, feature flags and versioned names
 * ("Postgres 16"). Rules only, no model: a name counts when the text itself says it is one —
 * a noun that types it ("the Quarry library", "project Halcyon"), an apposition ("Atlas, our
 * search service,"), "called"/"named", a version after it, code form (`snake_case`, lowerCamel),
 * or an acronym that spells it ("Customer Data Platform (CDP)"). Aliases come from apposition
 * with a definite description, "formerly"/"also known as"/"aka", and spelled-out acronyms.
 *
 * Every pattern is linear: a bounded run of words or one token, matched from a fixed anchor.
 */
import nlp from 'compromise';
import type { EntityType } from './entity-type.js';
import { CALENDAR_WORDS, knownTech, STOP_WORDS } from './vocabulary.js';

export type NamedThingSignal = 'typed-name' | 'apposition' | 'versioned' | 'code-name' | 'acronym' | 'title';

export interface NamedThing {
  name: string;
  type: EntityType;
  start: number;
  end: number;
  signal: NamedThingSignal;
  /** Other names the text gives the same thing, as written. */
  aliases: string[];
  /** End of the text that said so ("Pegasus, formerly known as Skyline"): masked for the other passes. */
  coverEnd?: number;
}

/** Nouns that type the name next to them, by the entity type they give (schema types only). */
const TYPE_NOUNS: ReadonlyArray<[EntityType, string]> = [
  [
    'system',
    'service|services|microservice|api|apis|endpoint|backend|frontend|app|application|platform|database|cluster|pipeline|queue|bucket|dashboard|bot|model|dataset|table|module|gateway|registry|server|worker|job|flag|toggle|topic|index|environment|system',
  ],
  ['project', 'project|codename|initiative|epic|repo|repository|monorepo'],
  ['tool', 'library|lib|package|framework|sdk|plugin|tool|product|extension|cli|crate|gem'],
  ['organization', 'team|squad|guild|vendor|startup|company'],
];
const NOUN_TYPE = new Map<string, EntityType>(TYPE_NOUNS.flatMap(([type, nouns]) => nouns.split('|').map((n) => [n, type] as const)));
/** Lowercase or capitalised, and the acronyms in capitals ("API", "SDK"): no `i` flag, which would blur capitals. */
const ACRONYM_NOUNS = new Set(['api', 'apis', 'sdk', 'cli']);
const anyCase = (words: string[]) =>
  words
    .flatMap((w) => [
      w,
      w[0]!.toUpperCase() + w.slice(1),
      ...(ACRONYM_NOUNS.has(w) ? [w.endsWith('s') ? `${w.slice(0, -1).toUpperCase()}s` : w.toUpperCase()] : []),
    ])
    .join('|');
const NOUN = anyCase(TYPE_NOUNS.flatMap(([, n]) => n.split('|')));

/** A capitalised word (CamelCase, digits and inner hyphens allowed), or an all-caps acronym. */
const CAP = String.raw`\p{Lu}[\p{L}\p{N}]*(?:-[\p{L}\p{N}]+)*`;
const CAP_RUN = String.raw`${CAP}(?: ${CAP}){0,3}`;
/** Lowercase code-like names: snake_case, kebab-case, with digits, or an owner/name slug. */
// The digit case looks ahead for its digit: `[a-z0-9]*\d[a-z0-9]*` backtracks quadratically.
const CODE = String.raw`[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+|[a-z](?=[a-z]*\d)[a-z0-9]*|[a-z0-9][\w.-]*\/[\w.-]+`;
const NAME = String.raw`(?:${CAP_RUN}|${CODE})`;
const DET = `(?:${anyCase(['the', 'our', 'their', 'your', 'my', 'his', 'her', 'its', 'this', 'that', 'a', 'an'])})`;
const DESC = String.raw`(?:[a-z][\w-]* ){0,3}`;

// "the Quarry library", "our ledger-api service", "The Helios project".
const NAME_THEN_NOUN = new RegExp(String.raw`(?<![\p{L}\p{N}_./-])(${DET}) (${NAME}) (${NOUN})(?![\p{L}\p{N}_-])`, 'gu');
// "project Halcyon", "Project Halcyon", "the flag enable_bulk_export", "codename Bluebird".
const NOUN_THEN_NAME = new RegExp(String.raw`(?<![\p{L}\p{N}_./-])(${NOUN}) (\x60?)(${NAME})\2(?![\p{L}\p{N}_/-])`, 'gu');
// "Atlas, our search service," / "Zephyr (the notification service)".
const APPOSITION = new RegExp(String.raw`(?<![\p{L}\p{N}_./-])(${NAME})(?:, | \()(${DET}) (${DESC})(${NOUN})(?=[,.;:!?)]|$)`, 'gmu');
// "Harbor is the internal container registry", "Wren is our codename".
const PREDICATE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_./-])(${NAME}) (?:is|was|will be) (${DET}) (${DESC})(${NOUN})(?![\p{L}\p{N}_-])`,
  'gu',
);
// "a location called Whispering Falls", "is named Tollbooth".
const CALLED = new RegExp(
  String.raw`(?<![\p{L}\p{N}_./-])([\p{L}]+) (?:(?:is|was|are|were|be) )?(?:called|named|codenamed|nicknamed) (\x60?)(${CAP_RUN}|${CODE})\2(?![\p{L}\p{N}_/-])`,
  'gu',
);
// "Pegasus, formerly known as Skyline," / "Pegasus (aka Skyline)".
const ALIAS = new RegExp(
  String.raw`(?<![\p{L}\p{N}_./-])(${NAME})(?:,| \()? (?:formerly(?: known as| called)?|also (?:known as|called)|aka|a\.k\.a\.|previously(?: called)?|née) (${NAME})(?![\p{L}\p{N}_-])`,
  'gu',
);
// "Customer Data Platform (CDP)".
const SPELLED_ACRONYM = new RegExp(String.raw`(?<![\p{L}\p{N}_./-])(${CAP}(?: (?:of |and |for |&)?${CAP}){1,5}) \((\p{Lu}{2,8})\)`, 'gu');
// "Postgres 16", "TypeScript 5.6", "Gemini 1.5 Pro", "iPhone 13", "Checkout v2".
const VERSIONED = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.-])((?:${CAP}|[a-z]{1,3}\p{Lu}[\p{L}]*)(?: ${CAP}){0,2}) (v?\d{1,3}(?:\.\d{1,3}){0,2}[a-z]?)(?: (Pro|Max|Ultra|Mini|Plus|Lite|Turbo|Flash|LTS|Beta))?(?![\p{L}\p{N}_-]|\.\w)`,
  'gu',
);
// "the v2 checkout flow".
const V_PREFIXED = new RegExp(String.raw`(?<![\p{L}\p{N}_./-])(?:${DET}) (v\d{1,3}(?:\.\d{1,3}){0,2}(?: [a-z][a-z-]{2,}){1,2})`, 'gu');
// "the orders-service", "billing-api": a kebab name whose last part says what it is.
const KEBAB_SYSTEM =
  /(?<![\w$./\\-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|svc|api|db|worker|gateway|bot|app|ui|web|server|cli|sdk|lib|console|proxy|queue|cron)(?![\w$/\\-]|\.\w)/g;
// "The Name of the Wind": a quoted title-cased phrase is the title of something.
const QUOTED_TITLE = /["“](\p{Lu}[\p{L}\p{N}'’-]*(?: (?:[a-z]{1,4}|\p{Lu}[\p{L}\p{N}'’-]*)){0,7})[,.!?]?["”]/gu;
const SNAKE = /(?<![\w$./\\-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w$/\\-]|\.\w)/g;
const LOWER_CAMEL = /(?<![\w$./\\-])[a-z]+(?:[A-Z][a-z0-9]+)+(?![\w$/\\-]|\.\w)/g;

/** Words before a number that make a counter, not a versioned name ("Version 3.2", "Room 12"). */
const NOT_VERSIONED = new Set(
  (
    'version release step page chapter room day week year level season episode part section table figure item number no grade class gate floor phase ' +
    'sprint stage round line rule article issue ticket bug pr top under over about around only just since spring summer autumn fall winter apartment unit ' +
    'building suite route highway exit platform track lane bus flight seat row act verse psalm size age mile miles hour hours minute minutes'
  ).split(' '),
);
/** A first hyphen part that makes an adjective ("read-only", "long-running"), not a name. */
const ADJECTIVE_PREFIX =
  /^(?:high|low|long|short|self|well|non|multi|single|cross|full|half|open|one|two|three|in|out|on|off|pre|post|re|co|anti|semi|sub|super|read|write|real|hand|home|hard|soft|user|client|server|back|front|old|new|built|third|first|last|end|all|any|easy|mid|part|over|under|top|bottom|day|time|year|month|week)$/;
const ADJECTIVE_SUFFIX =
  /(?:ing|ed|ly|ful|less|able|ible|only|time|term|level|wide|free|based|known|like|side|end|up|out|off|friendly|ready|safe|proof|style|sized|scale)$/;
/** compromise lexicon tags of words that are capitalised in prose without naming one thing. */
const NOT_A_NAME_TAGS = new Set([
  'Demonym',
  'Expression',
  'Actor',
  'Honorific',
  'Pronoun',
  'Possessive',
  'Determiner',
  'Preposition',
  'Conjunction',
  'QuestionWord',
]);
const NOT_A_NAME_WORDS = new Set(
  (
    'english spanish french german italian portuguese dutch russian chinese japanese korean arabic hindi irish scottish welsh british american canadian mexican ' +
    'european asian african australian christian jewish muslim catholic buddhist hindu christmas easter halloween thanksgiving hanukkah diwali ramadan ' +
    'lord god mom mum dad mommy daddy grandma grandpa sir madam miss mister mr mrs ms dr congrats lol omg btw wow yay ' +
    'internet web email wifi wi-fi app apps tv radio'
  ).split(' '),
);
const LEXICON = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;
const NAME_TAGS = new Set([
  'FirstName',
  'LastName',
  'MaleName',
  'FemaleName',
  'Country',
  'City',
  'Region',
  'Place',
  'Organization',
  'Company',
]);

/**
 * The named things of `text`, in text order: each finder in turn, earlier finders first, so a
 * span an earlier one took is not taken again; only name-like names count.
 */
export function findNamedThings(text: string): NamedThing[] {
  const out: NamedThing[] = [];
  for (const find of FINDERS) {
    for (const t of find(text)) if (isNameLike(t.name) && !out.some((o) => t.start < o.end && t.end > o.start)) out.push(t);
  }
  return out.sort((a, b) => a.start - b.start);
}

const FINDERS: ReadonlyArray<(text: string) => Iterable<NamedThing>> = [
  spelledAcronyms,
  aliasedNames,
  appositions,
  predicateNames,
  namesBeforeNouns,
  namesAfterNouns,
  calledNames,
  versionedNames,
  vPrefixedNames,
  quotedTitles,
  kebabNames,
  snakeNames,
  lowerCamelNames,
];

/** "Customer Data Platform (CDP)": a name the acronym after it spells. */
function* spelledAcronyms(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(SPELLED_ACRONYM)) {
    const acronym = m[2]!;
    // "The Customer Data Platform (CDP)": leading words the acronym does not spell are dropped.
    const words = m[1]!.split(' ');
    while (words.length > 1 && initials(words.join(' ')) !== acronym) words.shift();
    const name = words.join(' ');
    if (words.length < 2 || initials(name) !== acronym) continue;
    const start = m.index + m[1]!.length - name.length;
    yield { name, type: typeOfLastWord(name) ?? 'unknown', start, end: start + name.length, signal: 'acronym', aliases: [acronym] };
  }
}

/** "Pegasus, formerly known as Skyline": a name and the other name the text gives it. */
function* aliasedNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(ALIAS)) {
    const [, name, alias] = m;
    yield {
      name: name!,
      type: 'unknown',
      start: m.index,
      end: m.index + name!.length,
      signal: 'apposition',
      aliases: [alias!],
      coverEnd: m.index + m[0].length,
    };
  }
}

/** "Atlas, our search service": a name and the typed description beside it. */
function* appositions(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(APPOSITION)) {
    const [, name, det, desc, noun] = m;
    if (!isCodeOk(name!)) continue;
    const definite = /^(?:the|our|their|your|my|his|her|its)$/i.test(det!);
    const description = `${desc!}${noun!}`.toLowerCase();
    yield {
      name: name!,
      type: NOUN_TYPE.get(noun!.toLowerCase())!,
      start: m.index,
      end: m.index + name!.length,
      signal: 'apposition',
      aliases: definite && desc ? [description] : [],
      coverEnd: m.index + m[0].length,
    };
  }
}

/** "Harbor is the internal container registry": a name typed by what the sentence says it is. */
function* predicateNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(PREDICATE)) {
    const [, name, , , noun] = m;
    if (!isCodeOk(name!)) continue;
    yield {
      name: name!,
      type: NOUN_TYPE.get(noun!.toLowerCase())!,
      start: m.index,
      end: m.index + name!.length,
      signal: 'typed-name',
      aliases: [],
    };
  }
}

/** "the Classic API": a name typed by the noun after it. */
function* namesBeforeNouns(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(NAME_THEN_NOUN)) {
    const [whole, det, name, noun] = m;
    if (!isCodeOk(name!) || STOP_WORDS.has(name!.toLowerCase())) continue;
    const start = m.index + det!.length + 1;
    // "the Classic API": a capitalised noun is part of the name.
    const joined = /^\p{Lu}/u.test(noun!) && /^\p{Lu}/u.test(name!);
    const shown = joined ? `${name} ${noun}` : name!;
    yield { name: shown, type: NOUN_TYPE.get(noun!.toLowerCase())!, start, end: start + shown.length, signal: 'typed-name', aliases: [] };
    void whole;
  }
}

/** "project Halcyon", "repo acme/billing": a name typed by the noun before it. */
function* namesAfterNouns(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(NOUN_THEN_NAME)) {
    const [whole, noun, tick, name] = m;
    const lower = noun!.toLowerCase();
    if (!tick && !isCodeOk(name!)) continue;
    // A slug names a repository only after "repo"/"repository".
    if (name!.includes('/') && !/^(?:repo|repository|monorepo)$/.test(lower)) continue;
    // "Project Halcyon": the capitalised noun is part of the name, and the bare word an alias.
    const partOfName = /^\p{Lu}/u.test(noun!) && /^\p{Lu}/u.test(name!) && (lower === 'project' || lower === 'team');
    const start = partOfName ? m.index : m.index + noun!.length + 1 + tick!.length;
    const shown = partOfName ? `${noun} ${name}` : name!;
    yield {
      name: shown,
      type: NOUN_TYPE.get(lower)!,
      start,
      end: partOfName ? m.index + whole!.length : start + name!.length,
      signal: 'typed-name',
      aliases: partOfName ? [name!] : [],
    };
  }
}

/** "a location called Whispering Falls": a name given by "called" or "named". */
function* calledNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(CALLED)) {
    const [whole, before, tick, name] = m;
    if (CALLED_AFTER_SUBJECT.test(before!) || (!tick && !isCodeOk(name!))) continue;
    const start = m.index + whole!.length - tick!.length - name!.length;
    yield {
      name: name!,
      type: NOUN_TYPE.get(before!.toLowerCase()) ?? 'unknown',
      start,
      end: start + name!.length,
      signal: 'typed-name',
      aliases: [],
    };
  }
}

/** "Postgres 16", "Gemini 1.5 Pro": a name with a version is a tool. */
function* versionedNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(VERSIONED)) {
    let [whole, base] = m;
    const version = m[2]!;
    let at = m.index;
    // "The Falcon 9": a leading function word is not part of the name.
    while (STOP_WORDS.has(base!.split(' ')[0]!.toLowerCase()) && base!.includes(' ')) {
      const cut = base!.indexOf(' ') + 1;
      base = base!.slice(cut);
      whole = whole!.slice(cut);
      at += cut;
    }
    const first = base!.split(' ')[0]!.toLowerCase();
    if (NOT_VERSIONED.has(first) || CALENDAR_WORDS.has(first) || STOP_WORDS.has(first) || NOT_VERSIONED.has(base!.toLowerCase())) continue;
    if (/^\d{4}$/.test(version) || (!knownTech(base!) && base!.split(' ').some((w) => STOP_WORDS.has(w.toLowerCase())))) continue;
    yield { name: whole!, type: 'tool', start: at, end: at + whole!.length, signal: 'versioned', aliases: [] };
  }
}

/** "the v2 checkout flow": a versioned multi-word name is a system. */
function* vPrefixedNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(V_PREFIXED)) {
    const name = m[1]!.split(' ').filter((w, i) => i === 0 || !STOP_WORDS.has(w));
    if (name.length < 2) continue;
    const start = m.index + m[0].length - m[1]!.length;
    yield { name: name.join(' '), type: 'system', start, end: start + name.join(' ').length, signal: 'versioned', aliases: [] };
  }
}

/** "The Name of the Wind": a quoted title-cased phrase. */
function* quotedTitles(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(QUOTED_TITLE)) {
    const title = m[1]!;
    if (!/\p{Lu}/u.test(title.split(' ').pop()![0]!) || !title.split(' ').some(isNameWord)) continue;
    const start = m.index + 1;
    yield { name: title, type: 'unknown', start, end: start + title.length, signal: 'title', aliases: [] };
  }
}

/** kebab-case code names: systems. */
function* kebabNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(KEBAB_SYSTEM))
    yield { name: m[0], type: 'system', start: m.index, end: m.index + m[0].length, signal: 'code-name', aliases: [] };
}

/** snake_case code names: systems. */
function* snakeNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(SNAKE))
    yield { name: m[0], type: 'system', start: m.index, end: m.index + m[0].length, signal: 'code-name', aliases: [] };
}

/** lowerCamel words: code (systems), or a product's spelling ("iPhone"). */
function* lowerCamelNames(text: string): Generator<NamedThing> {
  for (const m of text.matchAll(LOWER_CAMEL)) {
    // "iPhone", "eBay": a product's spelling; "getUserById": code.
    const product = /^[a-z]{1,2}\p{Lu}/u.test(m[0]);
    yield {
      name: m[0],
      type: product ? 'tool' : 'system',
      start: m.index,
      end: m.index + m[0].length,
      signal: product ? 'versioned' : 'code-name',
      aliases: [],
    };
  }
}

const CALLED_AFTER_SUBJECT =
  /^(?:i|you|he|she|we|they|it|someone|somebody|nobody|who|just|also|then|finally|already|recently|never|always|once|and|or|but|me|him|her|us|them)$/i;

/**
 * Whether a capitalised word run found mid-sentence (proper-nouns.ts) may create an entity: not
 * a nationality, language, holiday, title, kinship word or interjection, not all capitals
 * (emphasis: "BROKEN"), not in a title-cased line.
 */
export function isProperName(name: string, text: string, start: number): boolean {
  const words = name.split(' ');
  // The rest of a run that opened a sentence ("Anna Kowalski runs"), or a day's qualifier ("Black Friday").
  if (/\p{Lu}[\p{L}'’-]* $/u.test(text.slice(Math.max(0, start - 40), start))) return false;
  const next = /^ (\p{L}+)/u.exec(text.slice(start + name.length, start + name.length + 20))?.[1]?.toLowerCase();
  if (next && CALENDAR_WORDS.has(next)) return false;
  // "Chapter 3", "Room 12": a counter.
  if (
    words.length === 1 &&
    NOT_VERSIONED.has(words[0]!.toLowerCase()) &&
    /^ \d/.test(text.slice(start + name.length, start + name.length + 2))
  )
    return false;
  if (words.some((w) => w.length > 1 && w === w.toUpperCase() && !/\d/.test(w)))
    return words.length > 1 && words.some((w) => w !== w.toUpperCase());
  if (words.length === 1 && !isNameWord(words[0]!)) return false;
  return !inTitleCase(text, start);
}

function isNameWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (/^i['’]/.test(lower)) return false;
  if (NOT_A_NAME_WORDS.has(lower) || STOP_WORDS.has(lower) || CALENDAR_WORDS.has(lower)) return false;
  const tags = LEXICON[lower];
  const list = tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
  if (list.some((t) => NAME_TAGS.has(t))) return true;
  if (list.some((t) => NOT_A_NAME_TAGS.has(t))) return false;
  // Nationalities the lexicon misses ("Italian", "Swedish"); names with these endings are in it.
  return !/(?:ish|ese|ian|ean)$/.test(lower);
}

/** A line where most words are capitalised is a heading or shouting, not prose. */
function inTitleCase(text: string, index: number): boolean {
  const from = Math.max(0, text.lastIndexOf('\n', index) + 1, index - 200);
  let to = text.indexOf('\n', index);
  if (to < 0 || to - index > 200) to = Math.min(text.length, index + 200);
  const words = text.slice(from, to).match(/[\p{L}]+/gu) ?? [];
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  return words.length >= 4 && capitalised / words.length >= 0.6;
}

/** A capitalised run must hold a name word; a lowercase code name must not be an adjective. */
function isCodeOk(name: string): boolean {
  if (/^\p{Lu}/u.test(name)) return name.split(' ').some((w) => isNameWord(w) || /\d/.test(w));
  if (name.includes('/') || name.includes('_') || /\d/.test(name)) return true;
  const parts = name.split('-');
  return !ADJECTIVE_PREFIX.test(parts[0]!) && !parts.some((p) => ADJECTIVE_SUFFIX.test(p));
}

function isNameLike(name: string): boolean {
  const lower = name.toLowerCase();
  return name.length >= 2 && name.length <= 80 && !STOP_WORDS.has(lower) && !CALENDAR_WORDS.has(lower) && !NOT_A_NAME_WORDS.has(lower);
}

function initials(words: string): string {
  return words
    .split(' ')
    .filter((w) => /^\p{Lu}/u.test(w))
    .map((w) => w[0])
    .join('');
}

function typeOfLastWord(words: string): EntityType | undefined {
  return NOUN_TYPE.get(words.split(' ').pop()!.toLowerCase());
}
