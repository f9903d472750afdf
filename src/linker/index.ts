/**
 * The inline entity linker: pure, synchronous, rule-based extraction of entities,
 * aspects and attributes that the write transaction stores with the memory. No LLM, no I/O.
 */
import { isDecisionContent } from './decision-patterns.js';
import { aliasAttributes, extractAttributes, type ExtractedAttribute } from './extract-attributes.js';
import { extractEntities, type ExtractedEntity } from './extract-entities.js';

export { isDecisionContent } from './decision-patterns.js';
export { ENTITY_TYPES, type EntityType } from './entity-type.js';

interface LinkOptions {
  maxEntities?: number;
  maxAttributes?: number;
  maxAttributeChars?: number;
}

export interface LinkResult {
  /** One per canonical name, in order of first mention; `weak` ones link only to existing entities. */
  entities: ExtractedEntity[];
  /**
   * Attributes of strong entities; all `constraint` (importance 0.85) when `isDecision`. Then one
   * of kind `alias` per other name the text gives an entity, which the write stores on the entity.
   */
  attributes: ExtractedAttribute[];
  /** Whether the memory contains decision language (the 14-pattern battery of decision-patterns.ts). */
  isDecision: boolean;
}

export function linkMemory(text: string, options: LinkOptions = {}): LinkResult {
  const isDecision = isDecisionContent(text);
  const entities = extractEntities(text, { maxEntities: options.maxEntities });
  const attributes = [
    ...extractAttributes(text, entities, { isDecision, maxAttributes: options.maxAttributes, maxContentChars: options.maxAttributeChars }),
    ...aliasAttributes(entities),
  ];
  return { entities, attributes, isDecision };
}
