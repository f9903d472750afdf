/**
 * The kinds of entity: the one list the linker names, the deep path's classifier offers the model
 * and the structured writes accept from a caller (`extracted` stays the deep path's own marker).
 */
export const ENTITY_TYPES = [
  'person',
  'organization',
  'place',
  'project',
  'system',
  'tool',
  'concept',
  'skill',
  'task',
  'unknown',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
