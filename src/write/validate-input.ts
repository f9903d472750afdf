import { namespaceSchema } from '../config/index.js';
import { LimitExceededError, ValidationError } from '../errors.js';
import { cleanJsonStrings, cleanText, CleanupTally, type TextCleanup } from '../text/index.js';

import { MEMORY_TYPES, type MemoryType } from './importance.js';

const MAX_TAGS = 32;
const MAX_TAG_CHARS = 64;
const MAX_SHORT_FIELD_CHARS = 256;

export interface RememberInput {
  content: string;
  namespace?: string | null;
  type?: string | null;
  occurredAt?: Date | string | null;
  sessionId?: string | null;
  source?: string | null;
  externalId?: string | null;
  tags?: readonly string[] | null;
  who?: string | null;
  why?: string | null;
  metadata?: unknown;
}

export interface ValidatedInput {
  content: string;
  namespace: string;
  type: MemoryType | null;
  occurredAt: string | null;
  sessionId: string | null;
  source: string | null;
  externalId: string | null;
  /** Trimmed, case kept; prepare.ts redacts and lowercases them. */
  tags: string[];
  who: string | null;
  why: string | null;
  metadata: string | null;
  /** What src/text/well-formed.ts removed or replaced in all of the fields above. */
  cleanup: TextCleanup;
}

export interface InputLimits {
  defaultNamespace: string;
  maxContentChars: number;
  maxMetadataBytes: number;
}

/**
 * Rejects bad input before anything is computed or written; messages name the field. Every text
 * field is made well-formed first (src/text): a stray control character is removed and counted,
 * never a reason to refuse; content left blank by it is.
 */
export function validateRememberInput(input: RememberInput, limits: InputLimits): ValidatedInput {
  if (input === null || typeof input !== 'object') throw new ValidationError('a memory to remember must be an object with content');
  if (typeof input.content !== 'string') throw new ValidationError('content must be a string', { field: 'content' });
  const tally = new CleanupTally();
  const content = cleanText(input.content, tally);
  if (content.trim() === '') {
    const why = content === input.content ? '' : ' (once control, bidi and invisible characters are removed)';
    throw new ValidationError(`content must not be empty or whitespace${why}`, { field: 'content' });
  }
  if (content.length > limits.maxContentChars) {
    throw new LimitExceededError(`content is ${content.length} characters; the maximum is ${limits.maxContentChars} (MAX_CONTENT_CHARS)`, {
      field: 'content',
      max: limits.maxContentChars,
    });
  }
  const namespace = input.namespace ?? limits.defaultNamespace;
  if (!namespaceSchema.safeParse(namespace).success) {
    throw new ValidationError(
      `namespace "${namespace.slice(0, 80)}" is invalid: use 1–64 letters, digits, _ . - starting with a letter or digit`,
      { field: 'namespace' },
    );
  }
  if (input.type != null && !(MEMORY_TYPES as readonly string[]).includes(input.type)) {
    throw new ValidationError(`type must be one of ${MEMORY_TYPES.join(', ')}`, { field: 'type' });
  }
  return {
    content,
    namespace,
    type: (input.type as MemoryType | null | undefined) ?? null,
    occurredAt: parseOccurredAt(input.occurredAt),
    sessionId: shortField('sessionId', input.sessionId, tally),
    source: shortField('source', input.source, tally),
    externalId: shortField('externalId', input.externalId, tally),
    who: shortField('who', input.who, tally),
    why: shortField('why', input.why, tally),
    tags: normalizeTags(input.tags, tally),
    metadata: serializeMetadata(input.metadata, limits.maxMetadataBytes, tally),
    cleanup: tally.list(),
  };
}

function parseOccurredAt(value: Date | string | null | undefined): string | null {
  if (value == null) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new ValidationError('occurredAt is not a valid ISO 8601 date-time', { field: 'occurredAt' });
  return date.toISOString();
}

function shortField(field: string, value: string | null | undefined, tally: CleanupTally): string | null {
  if (value == null) return null;
  if (typeof value !== 'string') throw new ValidationError(`${field} must be a string`, { field });
  if (value.length > MAX_SHORT_FIELD_CHARS)
    throw new ValidationError(`${field} is longer than ${MAX_SHORT_FIELD_CHARS} characters`, { field });
  return cleanText(value, tally).trim() || null;
}

function normalizeTags(tags: readonly string[] | null | undefined, tally: CleanupTally): string[] {
  if (tags == null) return [];
  if (tags.length > MAX_TAGS) throw new ValidationError(`at most ${MAX_TAGS} tags`, { field: 'tags' });
  if (tags.some((t) => typeof t !== 'string')) throw new ValidationError('tags must be strings', { field: 'tags' });
  // Lowercased only after redaction (prepare.ts): case-sensitive token formats must still match.
  const cleaned = tags.map((t) => cleanText(t, tally).trim()).filter(Boolean);
  const tooLong = cleaned.find((t) => t.length > MAX_TAG_CHARS);
  if (tooLong) throw new ValidationError(`tag "${tooLong.slice(0, 20)}…" is longer than ${MAX_TAG_CHARS} characters`, { field: 'tags' });
  return [...new Set(cleaned)];
}

function serializeMetadata(metadata: unknown, maxBytes: number, tally: CleanupTally): string | null {
  if (metadata == null) return null;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new ValidationError('metadata must be a JSON object', { field: 'metadata' });
  }
  const json = JSON.stringify(metadata);
  if (Buffer.byteLength(json) > maxBytes) {
    throw new LimitExceededError(`metadata is larger than ${maxBytes} bytes (MAX_METADATA_BYTES)`, { field: 'metadata', max: maxBytes });
  }
  if (depthOf(metadata) > MAX_METADATA_DEPTH) {
    throw new LimitExceededError(`metadata is nested deeper than ${MAX_METADATA_DEPTH} levels`, {
      field: 'metadata',
      max: MAX_METADATA_DEPTH,
    });
  }
  // JSON.stringify writes Infinity and NaN (a literal like 1e400) as null: what is stored would not be what was sent.
  if (!finiteNumbers(metadata))
    throw new ValidationError('metadata holds a number JSON cannot represent (Infinity or NaN)', { field: 'metadata' });
  // Keys and string values made well-formed only now that size and depth are known to be bounded.
  return JSON.stringify(cleanJsonStrings(metadata, tally));
}

function finiteNumbers(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return true;
  return Object.values(value).every(finiteNumbers);
}

/** Nesting a reader of the metadata can be expected to walk; checked after the size bound. */
const MAX_METADATA_DEPTH = 16;

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}
