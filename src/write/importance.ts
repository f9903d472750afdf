/**
 * Write-time importance and memory-type routing, without a model: salience
 * from content signals, novelty from the nearest existing vector, and rule-based type routing.
 * The deep path may refine both later (DESIGN "Importance").
 */
import { trimEndChars } from '../text/index.js';
import { ValidationError } from '../errors.js';
import { isDecisionContent } from '../linker/index.js';

export const MEMORY_TYPES = ['episodic', 'semantic', 'procedural', 'working', 'fact', 'preference', 'decision', 'document_chunk'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export interface ImportanceOptions {
  noveltyWeight?: number;
  salienceWeight?: number;
}

/** A document's chunk: the design's fixed importance (a document is ingested whole, never refused by MIN_IMPORTANCE_TO_STORE). */
export const DOCUMENT_CHUNK_IMPORTANCE = 0.3;

/** importance = novelty · 0.6 + salience · 0.4: what is new weighs more than how it is said. */
export const IMPORTANCE_NOVELTY_WEIGHT = 0.6;
export const IMPORTANCE_SALIENCE_WEIGHT = 0.4;
/** Salience points per signal; the sum is capped at 1. */
export const SALIENCE_NAMED_ENTITY = 0.3;
export const SALIENCE_NUMBER_OR_DATE = 0.2;
export const SALIENCE_PREFERENCE = 0.4;
export const SALIENCE_TECHNICAL_TERM = 0.1;

const MONTHS_AND_DAYS = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)`;
const NUMBER_OR_DATE = new RegExp(String.raw`\d|\b${MONTHS_AND_DAYS}\b|\b(?:today|tomorrow|yesterday|tonight)\b`, 'i');
const MONTH_OR_DAY_WORD = new RegExp(String.raw`^${MONTHS_AND_DAYS}$`, 'i');

/** First-person preference language: "I prefer", "I always", "I hate", "my favorite", … */
export const PREFERENCE_SIGNAL =
  /\b(?:I|we)\s+(?:really\s+|strongly\s+)?(?:prefer|always|never|hate|love|like|dislike|usually|avoid)\b|\bmy\s+(?:favou?rite|preference)s?\b|\bI(?:'d| would)\s+rather\b|\bI\s+(?:don'?t|do not)\s+(?:like|want)\b|\b(?:user|they|he|she)\s+prefers?\b/i;

// Identifier-like tokens stand in for "average token rarity": camelCase, snake_case,
// dotted names, calls, paths, versions and acronyms are rare in ordinary language.
const TECHNICAL_TERM =
  /\b[a-z]+[A-Z]\w*|\b[A-Z][a-z0-9]+[A-Z]\w*|\b[A-Za-z]\w*_\w+|\b[a-z]\w*\.(?:js|ts|py|io|json|ya?ml)\b|\w\(\)|(?:^|\s)\.{0,2}\/?[\w-]+\/[\w-]+\/[\w./-]+|\bv\d+(?:\.\d+)+\b|\b\d+\.\d+\.\d+\b|\b[A-Z]{2,6}s?\b/;

const NOT_NAMES = new Set(['I', 'I’m', "I'm", 'I’ve', "I've", 'I’d', "I'd", 'I’ll', "I'll", 'OK', 'Ok', 'TODO', 'FIXME']);

/** Salience, in [0, 1]: named entity +0.3, number/date +0.2, preference +0.4, technical term +0.1. */
export function salienceScore(text: string): number {
  let score = 0;
  if (hasNamedEntity(text)) score += SALIENCE_NAMED_ENTITY;
  if (NUMBER_OR_DATE.test(text)) score += SALIENCE_NUMBER_OR_DATE;
  if (PREFERENCE_SIGNAL.test(text)) score += SALIENCE_PREFERENCE;
  if (TECHNICAL_TERM.test(text)) score += SALIENCE_TECHNICAL_TERM;
  return round3(Math.min(1, score));
}

/** A capitalised word that does not open a sentence (a proper noun), or an inner-capital product name. */
function hasNamedEntity(text: string): boolean {
  const re = /(?<![\p{L}\p{N}_])\p{Lu}[\p{L}\p{N}'’.-]*/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const word = trimEndChars(m[0], ".'’-");
    if (word.length < 2 || NOT_NAMES.has(word) || MONTH_OR_DAY_WORD.test(word)) continue;
    if (!opensSentence(text, m.index) || /\p{Ll}\p{Lu}/u.test(word)) return true;
  }
  return false;
}

/** Whether the word at `index` starts the text, a line, or follows sentence punctuation. */
function opensSentence(text: string, index: number): boolean {
  let k = index - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
  while (k >= 0 && /["')\]]/.test(text[k]!)) k--;
  return k < 0 || /[.!?:;\n]/.test(text[k]!);
}

/**
 * Novelty from the cosine similarity to the nearest existing memory (or to the
 * centroid): 1 − similarity, clamped to [0, 1]; 1.0 when there is nothing to compare with.
 */
export function noveltyScore(similarity: number | null): number {
  if (similarity === null) return 1;
  if (!Number.isFinite(similarity)) throw new ValidationError('similarity must be a finite number', { similarity });
  return round3(clamp01(1 - similarity));
}

/** importance = novelty · 0.6 + salience · 0.4, each input clamped to [0, 1], rounded to 3 decimals. */
export function importanceScore(input: { novelty: number; salience: number }, options: ImportanceOptions = {}): number {
  const nw = options.noveltyWeight ?? IMPORTANCE_NOVELTY_WEIGHT;
  const sw = options.salienceWeight ?? IMPORTANCE_SALIENCE_WEIGHT;
  if (!Number.isFinite(input.novelty) || !Number.isFinite(input.salience)) {
    throw new ValidationError('novelty and salience must be finite numbers', { ...input });
  }
  return round3(clamp01(nw * clamp01(input.novelty) + sw * clamp01(input.salience)));
}

const WORKING =
  /\b(?:right now|currently|at the moment|for now|at present|for the time being|(?:in )?this (?:session|conversation|chat))\b|(?<!\b(?:from|until|till|by|up to)\s+)\bnow\b(?!\s+on\b)/i;
const FIRST_OR_SECOND_PERSON = /\b(?:I|me|my|mine|we|us|our|you|your)\b/i;
const EVENT_TIME =
  /\b(?:yesterday|today|tonight|tomorrow|last (?:week|month|year|night)|ago|went|came|did|happened|visited|attended|met)\b|\b\d{1,2}(?::\d{2})?\s?[ap]m\b/i;
const VAGUE_SUBJECT = /^(?:it|this|that|there|here)\b/i;
const FACT_STATEMENT =
  /^[\p{L}\p{N}][\p{L}\p{N} .'’&@/+#-]{0,80}?\s(?:is|are|has|have|uses|runs(?: on)?|supports|requires|depends on|contains|includes|belongs to|means|equals|lives in|works (?:at|for|on)|owns|stores|listens on|defaults to|costs|consists of|was born in)\s\S/u;

/**
 * Type routing, first rule that matches wins:
 * 1. a valid hint; 2. preference signal → procedural; 3. "now", "currently", "this session" →
 * working; 4. decision language → decision; 5. one sentence (≤ 200 chars) of the form
 * subject–verb–object with a present-tense relation verb ("Postgres is the primary database"),
 * no I/we/you, no event or time words, no vague subject (it/this/there) → semantic;
 * 6. otherwise episodic. `fact`, `preference` and `document_chunk` only come as hints.
 */
export function classifyMemoryType(text: string, hint?: string | null): MemoryType {
  if (hint !== undefined && hint !== null) {
    if (!(MEMORY_TYPES as readonly string[]).includes(hint)) {
      throw new ValidationError(`unknown memory type "${hint}"; expected one of ${MEMORY_TYPES.join(', ')}`, { hint });
    }
    return hint as MemoryType;
  }
  if (PREFERENCE_SIGNAL.test(text)) return 'procedural';
  if (WORKING.test(text)) return 'working';
  if (isDecisionContent(text)) return 'decision';
  if (isFactStatement(text)) return 'semantic';
  return 'episodic';
}

function isFactStatement(text: string): boolean {
  const t = text.trim();
  if (t.length > 200 || t.includes('?') || /[.!;]\s+\S/.test(t) || t.includes('\n')) return false;
  return !FIRST_OR_SECOND_PERSON.test(t) && !EVENT_TIME.test(t) && !VAGUE_SUBJECT.test(t) && FACT_STATEMENT.test(t);
}

function clamp01(n: number): number {
  return Math.min(1, Math.max(0, n));
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
