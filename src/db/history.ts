import { redactJsonString, redactJsonValue, redactStoredOrNull } from '../redaction/index.js';
import type { TxRunner } from './executor.js';

/**
 * The audit trail's one writer: every HistoryEvent is recorded here, by `recordEvents`, inside
 * the transaction of the change it describes. An event is about a memory or an entity (linked
 * `(:HistoryEvent)-[:ABOUT]->`, and in that node's namespace) or, for a session's events, about
 * neither (then it names its namespace). Ids are made before the transaction and the node is
 * MERGEd on them, so a re-run of the transaction records each event once.
 */

/** Every event name the audit trail holds. */
export type HistoryEventName =
  // a memory's own life: the write path and the API's mutations
  | 'created'
  | 'updated'
  | 'echo'
  | 'forgotten'
  | 'pinned'
  | 'unpinned'
  // the knowledge graph's structured writes
  | 'entity.created'
  | 'entity.updated'
  | 'entity.merged'
  | 'fact.asserted'
  // the deep path
  | 'pipeline.extraction'
  | 'pipeline.proposal'
  | 'pipeline.target-retired'
  | 'pipeline.hints'
  | 'pipeline.stale'
  | 'pipeline.dedup'
  | 'pipeline.classify'
  | 'pipeline.compress'
  | 'pipeline.reverted'
  | 'attribute.superseded'
  // sessions and their upkeep
  | 'session.ended'
  | 'session.summarized'
  | 'aspect.feedback';

/** The API's own mutations of a memory. */
export const MEMORY_EVENT = {
  forgotten: 'forgotten',
  pinned: 'pinned',
  unpinned: 'unpinned',
  updated: 'updated',
} as const satisfies Record<string, HistoryEventName>;

/** What an event is about: a memory or an entity by id, or (a session's events) only a namespace. */
export type HistoryTarget = { memoryId: string } | { entityId: string } | { namespace: string };

export interface HistoryEventWrite {
  /** Made before the transaction, so a re-run of it records the event once. */
  id: string;
  event: HistoryEventName;
  about: HistoryTarget;
  /** The caption Neo4j Browser shows; the event name when absent. */
  name?: string;
  actor?: string | null;
  model?: string | null;
  outcome?: string | null;
  /** Redacted here, like every stored string. */
  reason?: string | null;
  confidence?: number | null;
  /** Serialized to the `details` JSON string, redacted here. */
  details?: Record<string, unknown> | null;
  /** An `entity.merged` event: the entity folded into the one it is about. */
  mergedEntityId?: string | null;
}

// An event whose memory or entity is gone records nothing. `_new` marks the events this run
// created (it is removed in the same statement), so a caller can make its change only once.
export const RECORD_EVENTS = `
UNWIND $events AS ev
OPTIONAL MATCH (m:Memory {id: ev.memoryId})
OPTIONAL MATCH (e:Entity {id: ev.entityId})
WITH ev, m, e
WHERE (ev.memoryId IS NULL OR m IS NOT NULL) AND (ev.entityId IS NULL OR e IS NOT NULL)
MERGE (h:HistoryEvent {id: ev.id})
  ON CREATE SET h.namespace = coalesce(m.namespace, e.namespace, ev.namespace), h.event = ev.event, h.name = ev.name,
    h.memoryId = m.id, h.entityId = e.id, h.mergedEntityId = ev.mergedEntityId, h.actor = ev.actor, h.model = ev.model,
    h.outcome = ev.outcome, h.reason = ev.reason, h.confidence = ev.confidence, h.at = $now, h.details = ev.details,
    h._new = true
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | MERGE (h)-[:ABOUT]->(m))
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (h)-[:ABOUT]->(e))
WITH h, coalesce(h._new, false) AS created
REMOVE h._new
RETURN h.id AS id, created`;

/**
 * Records the events inside the caller's transaction, so they commit with what they describe.
 * Returns the ids of the events this call created (not those an earlier run recorded already).
 */
export async function recordEvents(tx: TxRunner, events: readonly HistoryEventWrite[], now: string): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await tx.run<{ id: string; created: boolean }>(RECORD_EVENTS, { events: events.map(eventRow), now });
  return rows.filter((r) => r.created).map((r) => r.id);
}

function eventRow(e: HistoryEventWrite): Record<string, unknown> {
  return {
    id: e.id,
    event: e.event,
    name: e.name ?? e.event,
    memoryId: 'memoryId' in e.about ? e.about.memoryId : null,
    entityId: 'entityId' in e.about ? e.about.entityId : null,
    namespace: 'namespace' in e.about ? e.about.namespace : null,
    mergedEntityId: e.mergedEntityId ?? null,
    actor: e.actor ?? null,
    model: e.model ?? null,
    outcome: e.outcome ?? null,
    // Reasons and details carry model output, old content and callers' text: redacted like every stored string.
    reason: redactStoredOrNull(e.reason),
    confidence: e.confidence ?? null,
    details: e.details == null ? null : JSON.stringify(redactJsonValue(e.details)),
  };
}

export const SET_EVENT_OUTCOME = `
MATCH (h:HistoryEvent {id: $id})
SET h.outcome = $outcome, h.details = $details`;

/** The outcome of an event recorded before its change was made (aspect feedback records it first, as its guard). */
export async function settleEvent(tx: TxRunner, id: string, outcome: string, details: Record<string, unknown>): Promise<void> {
  await tx.run(SET_EVENT_OUTCOME, { id, outcome, details: JSON.stringify(redactJsonValue(details)) });
}

export const MARK_REVERTED = `
MATCH (h:HistoryEvent {id: $eventId})
SET h.revertedBy = $revertId, h.revertedAt = $now`;

/** A deep-path proposal undone: its event names the event of the revert. */
export async function markReverted(tx: TxRunner, eventId: string, revertId: string, now: string): Promise<void> {
  await tx.run(MARK_REVERTED, { eventId, revertId, now });
}

// An exported event written back as it was (importNamespace): MERGEd on its id, ON CREATE only;
// its ABOUT edge is imported with the other edges.
export const RESTORE_EVENTS = `
UNWIND $rows AS row
MERGE (h:HistoryEvent {id: row.id})
  ON CREATE SET h = row.props, h._new = true
WITH h, row, coalesce(h._new, false) AS created
REMOVE h._new
RETURN row.id AS id, created, h.namespace = $namespace AS ours`;

/**
 * Events from a namespace export, inside the import's transaction; their reasons and details are
 * redacted here like every event's. Returns per row whether this call created it and whether the
 * event with that id is in `namespace`.
 */
export async function restoreEvents(
  tx: TxRunner,
  namespace: string,
  rows: ReadonlyArray<{ id: string; props: Record<string, unknown> }>,
): Promise<Array<{ id: string; created: boolean; ours: boolean }>> {
  if (rows.length === 0) return [];
  const redacted = rows.map((r) => ({
    id: r.id,
    props: {
      ...r.props,
      ...(typeof r.props.reason === 'string' ? { reason: redactStoredOrNull(r.props.reason) } : {}),
      ...(typeof r.props.details === 'string' ? { details: redactDetails(r.props.details) } : {}),
    },
  }));
  return tx.run<{ id: string; created: boolean; ours: boolean }>(RESTORE_EVENTS, { rows: redacted, namespace });
}

/** Details are a JSON string; one that does not parse is redacted as text. */
function redactDetails(details: string): string | null {
  try {
    return redactJsonString(details);
  } catch {
    return redactStoredOrNull(details);
  }
}
