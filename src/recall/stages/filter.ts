import type { z } from 'zod/v3';
import { fraction, section } from '../settings/fields.js';
import type { RecallMemory } from '../types.js';

export const filterSettings = section({
  minImportance: fraction().default(0).describe('memories below this importance are left out'),
});
export type FilterSettings = z.output<typeof filterSettings>;

/**
 * The filter stage (pure): filters on memory fields, applied after ranking so every leg is held
 * to the same rules. Graph state — deleted, superseded, compressed,
 * namespace, session — is filtered in Cypher by the legs.
 */
export interface MemoryFilters {
  /** Drop memories below this importance — except constraints (invariant 4) and pinned memories. */
  minImportance?: number | null;
  /** Keep only these memory types; empty or absent keeps all. */
  types?: readonly string[] | null;
  /** Keep memories carrying all of these tags. */
  tags?: readonly string[] | null;
  /** Bounds (inclusive, ISO 8601) on occurredAt, else createdAt. */
  occurredAfter?: string | null;
  occurredBefore?: string | null;
}

/** A request's filters: the memory fields above, and the graph state the legs filter in Cypher. */
export interface RecallFilters extends MemoryFilters {
  sessionId?: string | null;
  includeSuperseded?: boolean | null;
  includeDeleted?: boolean | null;
  /** Memories summarized by compressSessions (compressedAt) are left out unless this is true. */
  includeCompressed?: boolean | null;
}

export function passesFilters(memory: RecallMemory, filters: MemoryFilters): boolean {
  if (filters.types && filters.types.length > 0 && !filters.types.includes(memory.type)) return false;
  if (filters.tags && !filters.tags.every((tag) => memory.tags.includes(tag))) return false;
  if (filters.occurredAfter || filters.occurredBefore) {
    const time = Date.parse(memory.occurredAt ?? memory.createdAt);
    if (!Number.isFinite(time)) return false;
    if (filters.occurredAfter && time < Date.parse(filters.occurredAfter)) return false;
    if (filters.occurredBefore && time > Date.parse(filters.occurredBefore)) return false;
  }
  const minImportance = filters.minImportance ?? 0;
  return memory.isConstraint || memory.pinned === true || memory.importance >= minImportance;
}

/** Keeps the items that pass, in order. */
export function applyFilters<T extends { candidate: RecallMemory }>(items: readonly T[], filters: MemoryFilters): T[] {
  return items.filter((item) => passesFilters(item.candidate, filters));
}
