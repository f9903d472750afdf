import { redactStored } from '../redaction/index.js';
import { FACT_TYPES, type EntityTriple, type ExtractedFact, type ExtractionResult, type FactType } from './extraction-types.js';

export const MAX_FACTS = 20;
export const MIN_FACT_CHARS = 10;
export const MAX_FACT_CHARS = 2000;
export const MAX_ENTITY_TRIPLES = 50;
export const MAX_ENTITY_NAME_CHARS = 200;
export const MAX_RELATIONSHIP_CHARS = 100;
/** Used when the model omits a confidence: below the default write gate, so it is never written blindly. */
export const DEFAULT_CONFIDENCE = 0.5;
const MAX_WARNINGS = 50;

/**
 * Strict, partial-failure-safe validation of the extraction output: every bad item
 * is dropped or coerced with a warning, the good ones are kept, nothing throws.
 */
export function validateExtraction(raw: unknown): ExtractionResult {
  const warnings: string[] = [];
  const warn = (message: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
  };
  let factsRaw: unknown = undefined;
  let entitiesRaw: unknown = undefined;
  if (Array.isArray(raw)) {
    warn('output is a bare array; read as the facts list');
    factsRaw = raw;
  } else if (isObject(raw)) {
    factsRaw = raw.facts;
    entitiesRaw = raw.entities;
  } else {
    warn('output is not a JSON object');
    return { facts: [], entities: [], warnings };
  }
  return { facts: validateFacts(factsRaw, warn), entities: validateTriples(entitiesRaw, warn), warnings };
}

function validateFacts(raw: unknown, warn: (m: string) => void): ExtractedFact[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    warn('"facts" is not an array');
    return [];
  }
  if (raw.length > MAX_FACTS) warn(`${raw.length} facts returned; only the first ${MAX_FACTS} are kept`);
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  raw.slice(0, MAX_FACTS).forEach((item, i) => {
    // Redacted before any cut, so a secret is never split into a part that no longer matches.
    const content = isObject(item) && typeof item.content === 'string' ? redactStored(item.content).trim().replace(/\s+/g, ' ') : null;
    if (content === null) return warn(`fact ${i}: no content string`);
    if (content.length < MIN_FACT_CHARS) return warn(`fact ${i}: shorter than ${MIN_FACT_CHARS} characters, rejected`);
    let text = content;
    if (text.length > MAX_FACT_CHARS) {
      warn(`fact ${i}: longer than ${MAX_FACT_CHARS} characters, truncated`);
      text = text.slice(0, MAX_FACT_CHARS);
    }
    const key = text.toLowerCase();
    if (seen.has(key)) return warn(`fact ${i}: repeats an earlier fact, dropped`);
    seen.add(key);
    facts.push({
      content: text,
      type: factType((item as Record<string, unknown>).type, i, warn),
      confidence: confidence((item as Record<string, unknown>).confidence, `fact ${i}`, warn),
    });
  });
  return facts;
}

function validateTriples(raw: unknown, warn: (m: string) => void): EntityTriple[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    warn('"entities" is not an array');
    return [];
  }
  if (raw.length > MAX_ENTITY_TRIPLES) warn(`${raw.length} entity triples returned; only the first ${MAX_ENTITY_TRIPLES} are kept`);
  const triples: EntityTriple[] = [];
  raw.slice(0, MAX_ENTITY_TRIPLES).forEach((item, i) => {
    if (!isObject(item)) return warn(`entity ${i}: not an object`);
    const source = text(item.source);
    const relationship = text(item.relationship);
    const target = text(item.target);
    if (!source || !relationship || !target) return warn(`entity ${i}: source, relationship and target must all be non-empty strings`);
    if (source.length > MAX_ENTITY_NAME_CHARS || target.length > MAX_ENTITY_NAME_CHARS)
      return warn(`entity ${i}: name longer than ${MAX_ENTITY_NAME_CHARS} characters`);
    if (relationship.length > MAX_RELATIONSHIP_CHARS)
      return warn(`entity ${i}: relationship longer than ${MAX_RELATIONSHIP_CHARS} characters`);
    triples.push({ source, relationship, target, confidence: confidence(item.confidence, `entity ${i}`, warn) });
  });
  return triples;
}

function factType(value: unknown, i: number, warn: (m: string) => void): FactType {
  const type = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if ((FACT_TYPES as readonly string[]).includes(type)) return type as FactType;
  warn(`fact ${i}: unknown type ${JSON.stringify(value ?? null)}, coerced to "fact"`);
  return 'fact';
}

/** A number (or numeric string) clamped to [0, 1]; a missing or invalid one gets DEFAULT_CONFIDENCE. */
export function confidence(value: unknown, label: string, warn: (m: string) => void): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) {
    warn(`${label}: missing or invalid confidence, using ${DEFAULT_CONFIDENCE}`);
    return DEFAULT_CONFIDENCE;
  }
  if (n < 0 || n > 1) warn(`${label}: confidence ${n} clamped to [0, 1]`);
  return Math.min(1, Math.max(0, n));
}

function text(value: unknown): string {
  return typeof value === 'string' ? redactStored(value).trim().replace(/\s+/g, ' ') : '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
