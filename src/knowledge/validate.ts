import { namespaceSchema } from '../config/index.js';
import { ValidationError } from '../errors.js';
import { canonicalName } from '../deep/index.js';
import { ENTITY_TYPES, type EntityType } from '../linker/index.js';
import { redactSecrets, type RedactionOptions } from '../redaction/index.js';
import { cleanText } from '../text/index.js';

/**
 * Input checks of the structured writes. Every string that will be stored passes the redactor
 * first; names are then compared in their canonical form (lowercase, whitespace collapsed), the
 * key entities and aspects are merged on.
 */

export const FACT_KINDS = ['attribute', 'constraint'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export const MAX_NAME_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 2_000;
export const MAX_ASPECT_CHARS = 100;
export const MAX_FACT_CHARS = 2_000;
export const MAX_RELATION_TYPE_CHARS = 64;
export const DEFAULT_CONFIDENCE = 1;

// Letters, digits, space, _ and -: no quantifier nesting, linear on any input.
const RELATION_TYPE = /^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u;

export function checkNamespace(namespace: string): string {
  if (!namespaceSchema.safeParse(namespace).success) {
    throw new ValidationError(
      `namespace "${namespace.slice(0, 80)}" is invalid: use 1–64 letters, digits, _ . - starting with a letter or digit`,
      { field: 'namespace' },
    );
  }
  return namespace;
}

/** Well-formed (src/text), trimmed, non-blank, bounded and redacted. */
export function storedText(value: string, field: string, maxChars: number, redaction: RedactionOptions): string {
  const trimmed = cleanText(value).normalize('NFC').trim();
  if (trimmed === '') throw new ValidationError(`${field} must not be blank`, { field });
  if (trimmed.length > maxChars) throw new ValidationError(`${field} is longer than ${maxChars} characters`, { field, maxChars });
  return redactSecrets(trimmed, redaction).text;
}

export function optionalStoredText(
  value: string | null | undefined,
  field: string,
  maxChars: number,
  redaction: RedactionOptions,
): string | null {
  if (value === null || value === undefined || cleanText(value).trim() === '') return null;
  return storedText(value, field, maxChars, redaction);
}

/** A name and the canonical form it is matched on. */
export function entityName(value: string, field: string, redaction: RedactionOptions): { name: string; canonicalName: string } {
  const name = storedText(value, field, MAX_NAME_CHARS, redaction).replace(/\s+/g, ' ');
  return { name, canonicalName: canonicalName(name) };
}

export function entityType(value: string | null | undefined): EntityType {
  const type = value ?? 'unknown';
  if (!(ENTITY_TYPES as readonly string[]).includes(type)) {
    throw new ValidationError(`type must be one of ${ENTITY_TYPES.join(', ')}`, { field: 'type' });
  }
  return type as EntityType;
}

export function factKind(value: string | null | undefined): FactKind {
  const kind = value ?? 'attribute';
  if (!(FACT_KINDS as readonly string[]).includes(kind))
    throw new ValidationError(`kind must be one of ${FACT_KINDS.join(', ')}`, { field: 'kind' });
  return kind as FactKind;
}

/** Stored as a property value, never as a relationship type: canonical and from a small alphabet. */
export function relationType(value: string, redaction: RedactionOptions): string {
  const canonical = canonicalName(storedText(value, 'type', MAX_RELATION_TYPE_CHARS, redaction));
  if (!RELATION_TYPE.test(canonical)) {
    throw new ValidationError('relation type must start with a letter or digit and use only letters, digits, spaces, _ and -', {
      field: 'type',
    });
  }
  return canonical;
}

export function confidence(value: number | null | undefined): number {
  const c = value ?? DEFAULT_CONFIDENCE;
  if (!Number.isFinite(c) || c < 0 || c > 1) throw new ValidationError('confidence must be between 0 and 1', { field: 'confidence' });
  return c;
}
