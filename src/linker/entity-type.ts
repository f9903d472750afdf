/** The kinds of entity the linker gives a name. */
export type EntityType = 'person' | 'organization' | 'place' | 'project' | 'system' | 'tool' | 'concept' | 'skill' | 'task' | 'unknown';
