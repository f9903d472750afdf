/**
 * Entity extraction for the inline linker (at write time, no model): regex and word
 * lists only, so it can run inside the write transaction. Strong signals (known technologies,
 * packages, files, URLs, handles, code identifiers, decision objects) may create an entity;
 * weak ones (capitalised names) only link to an entity that already exists — the DB layer decides.
 */
import { trimEndChars } from '../text/index.js';
import { decisionObjects } from './decision-patterns.js';
import { recognizeNamedEntities } from './named-entities.js';
import type { EntityType } from './entity-type.js';
import { findNamedThings, isProperName } from './named-things.js';
import { findNameMentions } from './proper-nouns.js';
import { canonicalize, knownTech, STOP_WORDS, TECH_ALIAS_SOURCE } from './vocabulary.js';

export type { EntityType };
export type EntityStrength = 'strong' | 'weak';
export type EntitySignal =
  | 'known-tech'
  | 'package'
  | 'file'
  | 'url'
  | 'handle'
  | 'identifier'
  | 'decision-object'
  | 'named-entity'
  | 'typed-name'
  | 'apposition'
  | 'versioned'
  | 'code-name'
  | 'acronym'
  | 'title'
  | 'proper-name'
  | 'speaker'
  | 'sentence-start'
  | 'proper-noun';

export interface ExtractedEntity {
  /** Display name (a known technology's own spelling, a URL's domain, a path as written). */
  name: string;
  /** Lowercase, whitespace-collapsed, trimmed name: the entity key. */
  canonicalName: string;
  type: EntityType;
  /** The text as it appeared in the memory. */
  mentionText: string;
  confidence: number;
  strength: EntityStrength;
  /** Which rule found it (kept for audit and tests). */
  signal: EntitySignal;
  /** Other names the text gives it, as written ("Kestrel, the billing service" → "billing service"). */
  aliases?: string[];
}

export interface ExtractEntitiesOptions {
  maxEntities?: number;
  /** People, places and organizations from the NLP recognizer (named-entities.ts); on by default. */
  namedEntities?: boolean;
  /** Services, projects, products, versions and code names (named-things.ts), and capitalised names mid-sentence; on by default. */
  namedThings?: boolean;
}

/** At most this many entities per memory, strong ones first, to bound the write transaction. */
export const LINKER_MAX_ENTITIES = 50;
/** Aliases kept per entity and memory. */
export const LINKER_MAX_ALIASES = 4;
/** A longer "name" is a run of code or noise, not something to key an entity on. */
export const LINKER_MAX_ENTITY_NAME_CHARS = 200;
/** Mention confidence per signal. */
export const SIGNAL_CONFIDENCE: Record<EntitySignal, number> = {
  'known-tech': 0.9,
  package: 0.9,
  file: 0.85,
  url: 0.8,
  handle: 0.8,
  identifier: 0.8,
  'decision-object': 0.75,
  'named-entity': 0.7,
  'typed-name': 0.75,
  apposition: 0.75,
  versioned: 0.75,
  'code-name': 0.8,
  acronym: 0.75,
  title: 0.6,
  // Below the recognizer's: when it types the same name (person, place), its type wins.
  'proper-name': 0.55,
  speaker: 0.6,
  'sentence-start': 0.5,
  'proper-noun': 0.5,
};

interface Candidate {
  name: string;
  type: EntityType;
  mention: string;
  signal: EntitySignal;
  start: number;
  end: number;
  aliases?: string[];
}

const PLACEHOLDER = /\[[A-Z][A-Z0-9_]*\]/g;
/** Runs of a token alphabet long enough to be a digest, key or blob; isOpaque tells which are. */
const TOKEN_RUN = /[A-Za-z0-9+/=_-]{16,}/g;
const URL = /\bhttps?:\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]}]/gi;
const TECH = new RegExp(String.raw`(?<![\w.@/:\\-])(?:${TECH_ALIAS_SOURCE})(?![\w@/\\-]|\.[A-Za-z0-9])`, 'gi');
const INSTALL = /\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add)\b([^\n;&|]*)|\b(?:pip3?|uv\s+pip|poetry|uv)\s+(?:install|add)\b([^\n;&|]*)/gi;
const PACKAGE_AT_VERSION =
  /(?<![\w@/.-])((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(?:[\^~]?\d+(?:\.[\w-]+)*|latest|next|canary|beta)(?![\w@])/gi;
const FILE_EXT =
  'tsx?|jsx?|mjs|cjs|json|mdx?|py|rs|go|java|kt|rb|php|cs|cpp|cc|hpp|c|h|swift|scala|sql|sh|bash|zsh|ps1|ya?ml|toml|ini|cfg|conf|env|txt|csv|tsv|html|css|scss|vue|svelte|graphql|gql|cypher|proto|xml|lock|log|tf|ipynb|pdf|png|jpe?g|svg';
const FILE = new RegExp(
  String.raw`(?<![\w/.@:~\\-])(?:(?:~|\.{1,2})?\/?(?:[\w@.-]+\/)*[\w-][\w.-]*\.(?:${FILE_EXT})|\.(?:env(?:\.\w+)?|gitignore|npmrc|nvmrc|dockerignore|editorconfig)|Dockerfile|Makefile|Procfile)(?![\w/-]|\.\w)`,
  'g',
);
const HANDLE = /(?<![\w.@/])@([A-Za-z][\w-]{1,38})(?![\w@/(-])/g;
const CALL = /(?<![\w$.])(?:(?:this|self)\.)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(([^()\n]{0,80})\)/g;
const CAMEL_CLASS = /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g;
const BACKTICK = /`([A-Za-z_$][\w$.:/-]{1,60})`/g;

/** Strong and weak entity mentions, one per canonical name (the strongest), in order of first mention. */
export function extractEntities(text: string, options: ExtractEntitiesOptions = {}): ExtractedEntity[] {
  const base = maskBlobs(text);
  const strong = strongPatternCandidates(base);
  const candidates = [...strong.candidates, ...decisionObjectCandidates(base)];
  let masked = strong.masked;
  // On the text before the technology pass masked it: "Postgres 16" is a name of its own, and
  // PostgreSQL stays an entity too. Their spans are masked for the recognizer below, which
  // would type "Atlas" of "Atlas, our search service," as a place.
  if (options.namedThings !== false) {
    const things = findNamedThings(base).filter((t) => !isMasked(masked, t.start, t.end) || t.signal === 'versioned');
    candidates.push(
      ...things.map((t) => ({
        name: t.name,
        type: t.type,
        mention: t.name,
        signal: t.signal,
        start: t.start,
        end: t.end,
        aliases: t.aliases,
      })),
    );
    masked = mask(
      masked,
      things.map((t) => [t.start, t.coverEnd ?? t.end]),
    );
  }
  candidates.push(...nameCandidates(masked, options));
  return dedupe(candidates, options.maxEntities ?? LINKER_MAX_ENTITIES);
}

/**
 * Redaction placeholders and generated blobs (a hash in base64, a token) name nothing: they are
 * masked so no pass may take a piece of one ("R9GqQ8K" of an SRI digest) for a name.
 */
function maskBlobs(text: string): string {
  return mask(text, [
    ...[...text.matchAll(PLACEHOLDER)].map((m): [number, number] => [m.index, m.index + m[0].length]),
    ...[...text.matchAll(TOKEN_RUN)].filter((m) => isOpaque(m[0])).map((m): [number, number] => [m.index, m.index + m[0].length]),
  ]);
}

/** A span of `m` as a candidate of one type and signal (named by `name`, else the match). */
function spanCandidate(m: RegExpMatchArray & { index: number }, type: EntityType, signal: EntitySignal, name = m[0]): Candidate {
  return { name, type, mention: m[0], signal, start: m.index, end: m.index + m[0].length };
}

/**
 * The strong patterns in order (URLs, technologies, packages, files, handles, calls, identifiers),
 * each on the text the earlier ones left: what one pass took, the next cannot take again.
 */
function strongPatternCandidates(base: string): { candidates: Candidate[]; masked: string } {
  const candidates: Candidate[] = [];
  let masked = base;
  const pass = (found: Candidate[]) => {
    candidates.push(...found);
    masked = mask(
      masked,
      found.map((c) => [c.start, c.end]),
    );
  };
  pass(matches(masked, URL, (m) => urlCandidate(m[0], m.index)));
  pass(matches(masked, TECH, (m) => techCandidate(m[0], m.index)));
  pass([
    ...packagesInInstalls(masked),
    ...matches(masked, PACKAGE_AT_VERSION, (m) => packageCandidate(m[1]!, m.index, m.index + m[0].length)),
  ]);
  pass(matches(masked, FILE, (m) => spanCandidate(m, 'system', 'file')));
  pass(matches(masked, HANDLE, (m) => spanCandidate(m, 'person', 'handle')));
  pass(matches(masked, CALL, (m) => callCandidate(m)));
  pass(matches(masked, CAMEL_CLASS, (m) => spanCandidate(m, 'system', 'identifier')));
  pass(matches(masked, BACKTICK, (m) => spanCandidate(m, 'system', 'identifier', m[1]!)));
  return { candidates, masked };
}

/** What a decision chose or dropped ("we went with Acmebase over Fooly"), a known technology typed as a tool. */
function decisionObjectCandidates(base: string): Candidate[] {
  return decisionObjects(base).map((name) => {
    const tech = knownTech(name);
    const start = Math.max(0, base.indexOf(name));
    return {
      name: tech?.name ?? name,
      type: tech ? 'tool' : 'unknown',
      mention: name,
      signal: 'decision-object',
      start,
      end: start + name.length,
    };
  });
}

/** Names on the masked text: the recognizer's typed ones, then speakers and capitalised names. */
function nameCandidates(masked: string, options: ExtractEntitiesOptions): Candidate[] {
  const candidates: Candidate[] = [];
  const names = findNameMentions(masked);
  // On the masked text: a known technology, path or URL keeps its own type. A speaker label stays
  // a speaker (who talks, not what the turn is about), whatever the recognizer calls it.
  if (options.namedEntities !== false) {
    const speakers = names.filter((n) => n.kind === 'speaker');
    for (const n of recognizeNamedEntities(masked)) {
      if (speakers.some((sp) => n.start < sp.end && n.end > sp.start)) continue;
      candidates.push({ name: n.name, type: n.type, mention: n.name, signal: 'named-entity', start: n.start, end: n.end });
    }
  }
  for (const n of names) {
    // A capitalised name mid-sentence that is not a nationality, title or heading: an entity.
    const signal =
      n.kind === 'proper-noun' && options.namedThings !== false && isProperName(n.name, masked, n.start) ? 'proper-name' : n.kind;
    candidates.push({
      name: n.name,
      type: n.kind === 'speaker' ? 'person' : 'unknown',
      mention: n.name,
      signal,
      start: n.start,
      end: n.end,
    });
  }
  return candidates;
}

function urlCandidate(url: string, start: number): Candidate | null {
  const host = /^https?:\/\/(?:[^@/\s]*@)?([^/:?#\s]+)/i
    .exec(url)?.[1]
    ?.toLowerCase()
    .replace(/^www\./, '');
  if (!host || host === 'localhost' || /^[\d.]+$/.test(host) || !host.includes('.')) return null;
  return { name: host, type: 'system', mention: url, signal: 'url', start, end: start + url.length };
}

function techCandidate(word: string, start: number): Candidate | null {
  const tech = knownTech(word);
  if (!tech || (tech.capitalisedOnly && !/^\p{Lu}/u.test(word))) return null;
  return { name: tech.name, type: 'tool', mention: word, signal: 'known-tech', start, end: start + word.length };
}

function packageCandidate(raw: string, start: number, end: number): Candidate | null {
  if (!/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(raw) || STOP_WORDS.has(raw.toLowerCase())) return null;
  const tech = knownTech(raw);
  return { name: tech?.name ?? raw, type: 'tool', mention: raw, signal: 'package', start, end };
}

/** Package arguments of install commands, up to the first prose word or punctuation. */
function packagesInInstalls(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(INSTALL)) {
    const args = m[1] ?? m[2] ?? '';
    let at = m.index + m[0].length - args.length;
    for (const token of args.split(/(\s+)/)) {
      const start = at;
      at += token.length;
      if (token.trim() === '' || token.startsWith('-')) continue;
      const bare = trimEndChars(token, '.,;:!?)');
      const name = bare.replace(/^(@?[^@\s[=<>!~]+).*$/, '$1');
      const c = packageCandidate(name, start, start + bare.length);
      if (!c) break;
      out.push(c);
      if (bare.length < token.length) break;
    }
  }
  return out;
}

function callCandidate(m: RegExpMatchArray): Candidate | null {
  const name = m[1]!;
  const codeLike = /[a-z][A-Z]|_|\./.test(name);
  if (m[2] !== '' && !codeLike) return null;
  if (!codeLike && STOP_WORDS.has(name.toLowerCase())) return null;
  return {
    name,
    type: 'system',
    mention: m[0].length <= 100 ? m[0] : `${name}()`,
    signal: 'identifier',
    start: m.index!,
    end: m.index! + m[0].length,
  };
}

/** Whether the span was blanked by an earlier pass (all spaces where the text has none). */
function isMasked(masked: string, start: number, end: number): boolean {
  return masked.slice(start, end).trim() === '';
}

function matches(text: string, re: RegExp, build: (m: RegExpMatchArray & { index: number }) => Candidate | null): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(re)) {
    const c = build(m as RegExpMatchArray & { index: number });
    if (c) out.push(c);
  }
  return out;
}

/** Blanks the spans (same length, so offsets stay valid) so later passes do not re-read them. */
/**
 * A run that reads as generated rather than written: upper case, lower case and digits, changing
 * class at most characters (base64 of a digest, a JWT, an API key). Identifiers and paths keep
 * their letters in words (`UserProfile2`, `src/ApolloServer`): their class changes are few.
 */
export function isOpaque(run: string): boolean {
  if (!/[A-Z]/.test(run) || !/[a-z]/.test(run) || !/\d/.test(run)) return false;
  let changes = 0;
  for (let i = 1; i < run.length; i += 1) {
    const from = charClass(run[i - 1]!);
    const to = charClass(run[i]!);
    // A capital starting a word ("Profile") is no change.
    if (from !== to && !(from === 'upper' && to === 'lower')) changes += 1;
  }
  return changes / run.length >= OPAQUE_CHANGE_RATE;
}

/** Class changes per character from which a run is opaque: base64 of random bytes ≈ 0.55, identifiers and paths ≤ 0.3. */
const OPAQUE_CHANGE_RATE = 0.4;

function charClass(ch: string): 'upper' | 'lower' | 'digit' | 'other' {
  if (ch >= 'A' && ch <= 'Z') return 'upper';
  if (ch >= 'a' && ch <= 'z') return 'lower';
  if (ch >= '0' && ch <= '9') return 'digit';
  return 'other';
}

function mask(text: string, spans: Array<[number, number]>): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (b <= at) continue;
    const from = Math.max(a, at);
    parts.push(text.slice(at, from), ' '.repeat(b - from));
    at = b;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function dedupe(candidates: Candidate[], max: number): ExtractedEntity[] {
  const best = new Map<string, { e: ExtractedEntity; at: number }>();
  for (const c of candidates) {
    const canonicalName = canonicalize(c.name);
    if (canonicalName.length < 2 || canonicalName.length > LINKER_MAX_ENTITY_NAME_CHARS || STOP_WORDS.has(canonicalName)) continue;
    // A transcript's speaker label names who is talking: strong, unlike a capitalised word.
    const strength: EntityStrength = c.signal === 'sentence-start' || c.signal === 'proper-noun' ? 'weak' : 'strong';
    const e: ExtractedEntity = {
      name: c.name,
      canonicalName,
      type: c.type,
      mentionText: c.mention,
      confidence: SIGNAL_CONFIDENCE[c.signal],
      strength,
      signal: c.signal,
    };
    const aliases = (c.aliases ?? []).filter((a) => canonicalize(a) !== canonicalName && a.length >= 2 && !STOP_WORDS.has(canonicalize(a)));
    const prev = best.get(canonicalName);
    if (!prev) best.set(canonicalName, { e, at: c.start });
    else if (rank(e) > rank(prev.e)) best.set(canonicalName, { e: { ...e, aliases: prev.e.aliases }, at: Math.min(prev.at, c.start) });
    else prev.at = Math.min(prev.at, c.start);
    const kept = best.get(canonicalName)!.e;
    // A rule that types the name ("the Beacon product") types what another rule found untyped.
    if (kept.type === 'unknown' && c.type !== 'unknown') kept.type = c.type;
    if (aliases.length) {
      const all = [...(kept.aliases ?? []), ...aliases];
      kept.aliases = all.filter((a, i) => all.findIndex((b) => canonicalize(b) === canonicalize(a)) === i).slice(0, LINKER_MAX_ALIASES);
    }
  }
  const all = [...best.values()];
  const kept = all.length <= max ? all : [...all].sort((a, b) => rank(b.e) - rank(a.e) || a.at - b.at).slice(0, max);
  return kept.sort((a, b) => a.at - b.at).map((x) => x.e);
}

function rank(e: ExtractedEntity): number {
  return (e.strength === 'strong' ? 1 : 0) + e.confidence / 10;
}
