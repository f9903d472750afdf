/**
 * Aspects and attributes for the inline linker (the inline entity linker and its structural
 * Classification"): each clause that mentions a strong entity becomes an attribute of that entity
 * under an aspect picked by simple rules, so recall can walk entity → aspect → attribute → memory
 * right after the write. Decision content turns every attribute into a constraint (a decision
 * "Decision Auto-Protection"). The deep path re-classifies with an LLM later.
 */
import { isDecisionContent } from './decision-patterns.js';
import type { EntitySignal, ExtractedEntity } from './extract-entities.js';

/** `alias`: another name the text gives the entity (content is the canonical alias); stored on the entity, not as an Attribute node. */
export type AttributeKind = 'attribute' | 'constraint' | 'alias';

export interface ExtractedAttribute {
  entityCanonicalName: string;
  /** Lowercase aspect name, e.g. "decisions", "configuration", "general". */
  aspect: string;
  content: string;
  kind: AttributeKind;
  importance: number;
  confidence: number;
}

export interface ExtractAttributesOptions {
  /** Whether the whole memory is a decision; computed from the text when absent. */
  isDecision?: boolean;
  maxAttributes?: number;
  maxContentChars?: number;
}

/** At most this many attributes per memory. */
export const LINKER_MAX_ATTRIBUTES = 10;
/** Attribute content is cut to this many characters. */
export const LINKER_MAX_ATTRIBUTE_CHARS = 500;
/** Importance of an ordinary attribute (0.5) and of a decision constraint (0.85, ranks above it). */
export const ATTRIBUTE_IMPORTANCE = 0.5;
export const CONSTRAINT_IMPORTANCE = 0.85;
/** Confidence of a rule-made attribute (the LLM path may raise it). */
export const INLINE_ATTRIBUTE_CONFIDENCE = 0.7;
/** Clauses shorter than this many characters say too little to keep. */
export const MIN_CLAUSE_CHARS = 10;

/** First rule that matches names the aspect; "general" otherwise. */
export const ASPECT_RULES: ReadonlyArray<{ aspect: string; test: (clause: string) => boolean }> = [
  {
    aspect: 'decisions',
    test: (c) => isDecisionContent(c) || /\b(?:decided|decisions?|chose|chosen|picked|settled|agreed|opted)\b/i.test(c),
  },
  { aspect: 'preferences', test: (c) => /\b(?:prefer(?:s|red)?|likes?|loves?|hates?|dislikes?|favou?rite|avoids?)\b/i.test(c) },
  {
    aspect: 'errors',
    test: (c) => /\b(?:errors?|bugs?|crash(?:ed|es)?|fail(?:s|ed|ure|ing)?|exceptions?|broken|fix(?:ed|es)?|issues?)\b/i.test(c),
  },
  {
    aspect: 'configuration',
    test: (c) => /\b(?:config\w*|settings?|env(?:ironment)?|variables?|flags?|options?|parameters?|ports?|ttl|timeouts?)\b|\w=\S/i.test(c),
  },
  {
    aspect: 'dependencies',
    test: (c) => /\b(?:depends?|dependenc(?:y|ies)|requires?|install(?:s|ed)?|versions?|upgraded?|packages?|imports?)\b|@\d/i.test(c),
  },
  {
    aspect: 'usage',
    test: (c) =>
      /\b(?:use[sd]?|using|runs?|ran|running|calls?|called|via|powered by|backed by|stor(?:e|es|ed|ing)|cach(?:e|es|ed|ing)|serv(?:e|es|ed|ing))\b/i.test(
        c,
      ),
  },
];

export function inferAspect(clause: string): string {
  return ASPECT_RULES.find((r) => r.test(clause))?.aspect ?? 'general';
}

/** Attributes for the strong entities, in clause order, deduplicated and capped. */
export function extractAttributes(
  text: string,
  entities: readonly ExtractedEntity[],
  options: ExtractAttributesOptions = {},
): ExtractedAttribute[] {
  const max = options.maxAttributes ?? LINKER_MAX_ATTRIBUTES;
  const maxChars = options.maxContentChars ?? LINKER_MAX_ATTRIBUTE_CHARS;
  const decision = options.isDecision ?? isDecisionContent(text);
  const kind: AttributeKind = decision ? 'constraint' : 'attribute';
  const importance = decision ? CONSTRAINT_IMPORTANCE : ATTRIBUTE_IMPORTANCE;
  // A speaker label says who talks, not what the turn is about: it gets no attributes. Nor does a
  // recognized name: "Alice lives in Berlin" is not an attribute of Berlin; it links the memory to
  // both and relates them (co-mention), and an agent's assertFact owns a person's attributes.
  const strong = entities
    .filter((e) => e.strength === 'strong' && !NO_ATTRIBUTE_SIGNALS.has(e.signal))
    .map((e) => ({ key: e.canonicalName, forms: mentionForms(e) }));
  if (strong.length === 0 || max <= 0) return [];

  const out: ExtractedAttribute[] = [];
  const seen = new Set<string>();
  for (const clause of clauses(text)) {
    const aspect = inferAspect(clause);
    const content = clause.length <= maxChars ? clause : `${clause.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
    const lower = clause.toLowerCase();
    for (const { key, forms } of strong) {
      if (!forms.some((f) => mentionsWord(lower, f))) continue;
      const id = `${key}\u0000${aspect}\u0000${content.toLowerCase()}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ entityCanonicalName: key, aspect, content, kind, importance, confidence: INLINE_ATTRIBUTE_CONFIDENCE });
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** Names found by their capitals or the recognizer, and speaker labels (see above). */
const NO_ATTRIBUTE_SIGNALS = new Set<EntitySignal>(['speaker', 'named-entity', 'proper-name', 'title']);
/** Alias attributes per memory. */
export const LINKER_MAX_ALIAS_ATTRIBUTES = 10;

/** One `alias` attribute per alias the text gives a strong entity. */
export function aliasAttributes(entities: readonly ExtractedEntity[]): ExtractedAttribute[] {
  return entities
    .filter((e) => e.strength === 'strong')
    .flatMap((e) =>
      (e.aliases ?? []).map((alias) => ({
        entityCanonicalName: e.canonicalName,
        aspect: 'aliases',
        content: alias,
        kind: 'alias' as const,
        importance: ATTRIBUTE_IMPORTANCE,
        confidence: INLINE_ATTRIBUTE_CONFIDENCE,
      })),
    )
    .slice(0, LINKER_MAX_ALIAS_ATTRIBUTES);
}

/** Sentences and lines, without list markers, at least MIN_CLAUSE_CHARS long. */
function clauses(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+|;\s+/)
    .map((c) => c.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, '').trim())
    .filter((c) => c.length >= MIN_CLAUSE_CHARS);
}

function mentionForms(e: ExtractedEntity): string[] {
  return [...new Set([e.name, e.mentionText.replace(/^`|`$/g, '')].map((f) => f.toLowerCase()).filter(Boolean))];
}

/**
 * Whether `form` occurs in `text` (both lowercased) not inside a longer word. A search rather than
 * a regex built from the name: a long name made a regex too large to compile.
 */
function mentionsWord(text: string, form: string): boolean {
  for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
    const before = text[at - 1];
    const after = text[at + form.length];
    if ((before === undefined || !/[\w@]/.test(before)) && (after === undefined || !/\w/.test(after))) return true;
  }
  return false;
}
