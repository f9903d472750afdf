import type { EntityTriple, ExtractedFact, FactType } from './extraction-types.js';
import { cleanText } from '../text/index.js';

/**
 * Structural classification, rule-based (no extra model call): a fact becomes an attribute of
 * the entity it names — the triple entity that occurs in the fact text, sources before
 * targets, earliest mention first — under an aspect chosen by the fact's type. Decisions are
 * constraints (decisions are protected: always retrievable). A fact naming no extracted entity stays
 * a memory without an attribute.
 */

export const ASPECT_BY_FACT_TYPE: Readonly<Record<FactType, string>> = {
  fact: 'facts',
  preference: 'preferences',
  decision: 'decisions',
  procedural: 'procedures',
  semantic: 'knowledge',
};

export const CONSTRAINT_IMPORTANCE = 0.85;
export const ATTRIBUTE_IMPORTANCE = 0.5;

export interface AttributePlan {
  entityName: string;
  entityCanonicalName: string;
  aspect: string;
  aspectCanonicalName: string;
  kind: 'attribute' | 'constraint';
  importance: number;
}

/** Well-formed (src/text), lowercase, whitespace-collapsed: the key entities and aspects are merged on. */
export function canonicalName(name: string): string {
  return cleanText(name).normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');
}

export function classifyFact(fact: ExtractedFact, triples: readonly EntityTriple[]): AttributePlan | null {
  const text = ` ${words(fact.content)} `;
  const mentioned = [...triples.map((t) => ({ name: t.source, tier: 0 })), ...triples.map((t) => ({ name: t.target, tier: 1 }))]
    .map((c) => ({ ...c, at: words(c.name) === '' ? -1 : text.indexOf(` ${words(c.name)} `) }))
    .filter((c) => c.at >= 0)
    .sort((a, b) => a.tier - b.tier || a.at - b.at);
  const entity = mentioned[0];
  if (!entity) return null;
  const aspect = ASPECT_BY_FACT_TYPE[fact.type];
  const constraint = fact.type === 'decision';
  return {
    entityName: entity.name,
    entityCanonicalName: canonicalName(entity.name),
    aspect,
    aspectCanonicalName: canonicalName(aspect),
    kind: constraint ? 'constraint' : 'attribute',
    importance: constraint ? CONSTRAINT_IMPORTANCE : ATTRIBUTE_IMPORTANCE,
  };
}

/** Canonical form with punctuation as word breaks, for whole-word matching. */
function words(text: string): string {
  return canonicalName(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
