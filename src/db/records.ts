/**
 * Row shapes returned by the query modules, and the one RETURN fragment per node type that
 * every read reuses. Embeddings never appear in a default projection.
 */
export interface MemoryRecord {
  id: string;
  namespace: string;
  content: string;
  contentHash: string;
  type: string;
  importance: number;
  tags: string[];
  source: string | null;
  externalId: string | null;
  sessionId: string | null;
  who: string | null;
  /** The authenticated writer (API key name, pipeline); null on memories written before it was kept. */
  actor: string | null;
  why: string | null;
  occurredAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastAccessed: string | null;
  lastSeenAt: string | null;
  accessCount: number;
  temporal: string;
  validUntil: string | null;
  pinned: boolean;
  deletedAt: string | null;
  supersededAt: string | null;
  supersededBy: string | null;
  embeddingModel: string | null;
  metadata: string | null;
  /** Set by the decay pass (src/sessions/decay-pass.ts): expired, or not retrieved within the window. */
  stale?: boolean | null;
  staleReason?: string | null;
  staleAt?: string | null;
}

export interface ChunkRecord {
  id: string;
  memoryId: string;
  index: number;
  text: string;
  startChar: number;
  endChar: number;
  contentHash: string;
}

export interface EntityRecord {
  id: string;
  namespace: string;
  name: string;
  canonicalName: string;
  type: string;
  description: string | null;
  aliases: string[];
  mentions: number;
  createdAt: string;
}

export interface AspectRecord {
  id: string;
  entityId: string;
  namespace: string;
  name: string;
  canonicalName: string;
  weight: number;
}

export interface AttributeRecord {
  id: string;
  namespace: string;
  aspectId: string;
  memoryId: string | null;
  content: string;
  kind: string;
  importance: number;
  confidence: number;
  status: string;
  validFrom: string;
  validTo: string | null;
  supersedesId: string | null;
  supersededById: string | null;
}

export interface RelationRecord {
  id?: string | null;
  sourceId: string;
  targetId: string;
  type: string;
  strength: number;
  confidence: number;
  mentions: number;
}

export interface JobRecord {
  id: string;
  namespace: string;
  kind: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  leasedAt: string | null;
  leaseOwner: string | null;
  memoryId: string | null;
}

export interface HistoryRecord {
  id: string;
  event: string;
  memoryId: string | null;
  reason: string | null;
  actor: string | null;
  model: string | null;
  confidence: number | null;
  outcome: string | null;
  at: string;
  /** Event-specific data as a JSON string (e.g. the previous content of an update). */
  details: string | null;
}

export const MEMORY_RETURN = (m: string) => `${m} {
  .id, .namespace, .content, .contentHash, .type, .importance, tags: coalesce(${m}.tags, []),
  .source, .externalId, .sessionId, .who, .actor, .why, .occurredAt, .createdAt, .updatedAt,
  .lastAccessed, .lastSeenAt, accessCount: coalesce(${m}.accessCount, 0),
  temporal: coalesce(${m}.temporal, 'persistent'), .validUntil, pinned: coalesce(${m}.pinned, false),
  .deletedAt, .supersededAt, .supersededBy, .embeddingModel, .metadata, .stale, .staleReason, .staleAt }`;

export const CHUNK_RETURN = (c: string, m: string) => `${c} { .id, memoryId: ${m}.id, .index, .text, .startChar, .endChar, .contentHash }`;

export const ENTITY_RETURN = (e: string) =>
  `${e} { .id, .namespace, .name, .canonicalName, .type, .description, aliases: coalesce(${e}.aliases, []), mentions: coalesce(${e}.mentions, 0), .createdAt }`;

export const ASPECT_RETURN = (a: string, e: string) =>
  `${a} { .id, entityId: ${e}.id, namespace: ${e}.namespace, .name, .canonicalName, weight: coalesce(${a}.weight, 1.0) }`;

export const JOB_RETURN = (j: string, m: string) => `${j} {
  .id, .namespace, .kind, .status, .attempts, .maxAttempts, .error, .createdAt, .updatedAt,
  .leasedAt, .leaseOwner, memoryId: ${m}.id }`;

/** A relation as seen from one entity: `direction` says which end that entity is. */
export interface RelationView extends RelationRecord {
  direction: 'OUT' | 'IN';
}
