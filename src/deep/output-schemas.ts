import { MAX_ENTITY_TRIPLES, MAX_FACTS } from './validate-extraction.js';
import { DECISION_ACTIONS, FACT_TYPES } from './extraction-types.js';

/**
 * JSON Schemas sent as Ollama's `format` (structured outputs): the server constrains decoding
 * to them, so small models stop breaking the JSON. Validation still runs on every answer.
 */
export type JsonSchema = Record<string, unknown>;

const confidence = { type: 'number', minimum: 0, maximum: 1 };
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties, required: Object.keys(properties) });

export const EXTRACTION_SCHEMA: JsonSchema = object({
  facts: {
    type: 'array',
    maxItems: MAX_FACTS,
    items: object({ content: { type: 'string' }, type: { type: 'string', enum: [...FACT_TYPES] }, confidence }),
  },
  entities: {
    type: 'array',
    maxItems: MAX_ENTITY_TRIPLES,
    items: object({ source: { type: 'string' }, relationship: { type: 'string' }, target: { type: 'string' }, confidence }),
  },
});

export const DECISION_SCHEMA: JsonSchema = object({
  action: { type: 'string', enum: [...DECISION_ACTIONS] },
  targetId: { type: ['string', 'null'] },
  confidence,
  reason: { type: 'string' },
});

export const CONTRADICTION_SCHEMA: JsonSchema = object({
  contradicts: { type: 'boolean' },
  confidence,
  reasoning: { type: 'string' },
});

export const hintsSchema = (max: number): JsonSchema => object({ questions: { type: 'array', maxItems: max, items: { type: 'string' } } });
