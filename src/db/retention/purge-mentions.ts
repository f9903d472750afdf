import type { TxRunner } from '../executor.js';
import { counts, IN_SCOPE, type PurgeScope, type PurgeStep } from './purge-step.js';

// Step 1, graph links: mentions still held by expired tombstones go, entity counters follow
// them down (forget unlinks at once today; tombstones written before that still hold theirs).
export const PURGE_EXPIRED_MENTIONS = `
MATCH (m:Memory)-[r:MENTIONS]->(e:Entity)
WHERE m.deletedAt < $cutoff AND ${IN_SCOPE('m')}
WITH r, e LIMIT $limit
DELETE r
WITH e, count(*) AS n
SET e.mentions = CASE WHEN coalesce(e.mentions, 0) > n THEN e.mentions - n ELSE 0 END
RETURN e.id AS id, n`;

// An orphan: no mention left and no active attribute. An entity an agent created on purpose
// (createEntity's `entity.created` event) is not an orphan of retention.
const IS_ORPHAN = `e.mentions <= 0
  AND NOT EXISTS { (:Memory)-[:MENTIONS]->(e) }
  AND NOT EXISTS { (e)-[:HAS_ASPECT]->(:Aspect)-[:HAS_ATTRIBUTE]->(a:Attribute) WHERE a.status = 'active' }
  AND NOT EXISTS { (h:HistoryEvent)-[:ABOUT]->(e) WHERE h.event = 'entity.created' }`;

// Those this step just emptied, and those forget emptied (forget unlinks at once) and nothing
// touched since the tombstone window: the forget is as old as an expired tombstone. One
// statement (a UNION), so no candidate is read after an earlier statement deleted it.
const ORPHANS = (scope: 'one' | 'all') => `
CALL () {
  UNWIND $ids AS id
  MATCH (e:Entity {id: id})
  RETURN e
  UNION
  MATCH (e:Entity)
  WHERE ${scope === 'one' ? 'e.namespace = $namespace AND ' : ''}e.mentions <= 0 AND e.updatedAt < $cutoff
  RETURN e
}
WITH e WHERE ${IS_ORPHAN}
WITH e LIMIT $limit`;

// Aspects and their (inactive) attributes go with the entities, relations with DETACH. All counted
// first, then deleted together: two related orphans must not see each other half-deleted.
const DELETE_TAIL = `
WITH collect(e) AS es
CALL (es) {
  UNWIND es AS e
  OPTIONAL MATCH (e)-[rel:RELATES_TO]-()
  RETURN count(DISTINCT rel) AS relations
}
CALL (es) {
  UNWIND es AS e
  MATCH (e)-[:HAS_ASPECT]->(asp:Aspect)
  OPTIONAL MATCH (asp)-[:HAS_ATTRIBUTE]->(attr:Attribute)
  WITH collect(DISTINCT asp) AS asps, collect(DISTINCT attr) AS attrs
  FOREACH (x IN attrs | DETACH DELETE x)
  FOREACH (x IN asps | DETACH DELETE x)
}
FOREACH (x IN es | DETACH DELETE x)
RETURN size(es) AS entities, relations`;

export const PREVIEW_EXPIRED_MENTIONS = `
MATCH (m:Memory)-[r:MENTIONS]->(:Entity)
WHERE m.deletedAt < $cutoff AND ${IN_SCOPE('m')}
WITH r LIMIT $limit
RETURN count(*) AS links`;

export const PREVIEW_ORPHANS = (scope: 'one' | 'all') => `${ORPHANS(scope)}
RETURN count(*) AS entities, sum(COUNT { (e)-[:RELATES_TO]-() }) AS relations`;

/** The orphans found, then deleted with their aspects, attributes and relations. */
export const PURGE_ORPHANS = (scope: 'one' | 'all') => ORPHANS(scope) + DELETE_TAIL;

const which = (scope: PurgeScope) => (scope.namespace === null ? 'all' : 'one');

async function orphans(
  tx: TxRunner,
  cypher: string,
  scope: PurgeScope & { ids?: string[] },
): Promise<{ entities: number; relations: number }> {
  const [row] = await tx.run<{ entities: number; relations: number | null }>(cypher, { ...scope });
  return { entities: Number(row?.entities ?? 0), relations: Number(row?.relations ?? 0) };
}

export const purgeMentions: PurgeStep = {
  name: 'graphLinks',
  window: 'tombstone',
  async purge(tx, scope) {
    const touched = await tx.run<{ id: string; n: number }>(PURGE_EXPIRED_MENTIONS, { ...scope });
    const links = touched.reduce((sum, r) => sum + Number(r.n), 0);
    const o = await orphans(tx, PURGE_ORPHANS(which(scope)), { ...scope, ids: touched.map((r) => r.id) });
    return counts(links, o.entities, o.relations);
  },
  async preview(tx, scope) {
    const [row] = await tx.run<{ links: number }>(PREVIEW_EXPIRED_MENTIONS, { ...scope });
    // Orphans known now (entities the links above would empty are found by the next run).
    const o = await orphans(tx, PREVIEW_ORPHANS(which(scope)), { ...scope, ids: [] });
    return counts(Number(row?.links ?? 0), o.entities, o.relations);
  },
};
