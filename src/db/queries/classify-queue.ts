import type { TxRunner } from '../executor.js';
import { enqueue, jobName } from '../jobs/index.js';

/**
 * `classify` jobs for the entities that got attributes (src/deep/graph-write.ts), inside its
 * transaction: one open classify job per entity.
 */

// An entity with an open classify job gets no second one: a leased one is asked to run again (it
// may have read its batch already), a pending one will see the new attributes. A re-run of the
// transaction does not count the jobs it queued itself as open.
export const CLASSIFY_TARGETS = `
UNWIND $jobs AS j
MATCH (e:Entity {namespace: $namespace, canonicalName: j.entityCanonicalName})
OPTIONAL MATCH (o:Job {kind: 'classify'})-[:FOR]->(e)
  WHERE o.status IN ['pending', 'leased'] AND o.id <> j.id
WITH j, e, collect(o) AS open
FOREACH (l IN [x IN open WHERE x.status = 'leased'] | SET l.rerunRequested = $now)
WITH j, e, open WHERE size(open) = 0
RETURN j.id AS id, e.id AS entityId, e.name AS entityName`;

export interface ClassifyJobRequest {
  /** Made before the transaction. */
  id: string;
  entityCanonicalName: string;
  maxAttempts: number;
}

export async function queueClassifyJobs(
  tx: TxRunner,
  p: { namespace: string; now: string; jobs: readonly ClassifyJobRequest[] },
): Promise<void> {
  if (p.jobs.length === 0) return;
  const targets = await tx.run<{ id: string; entityId: string; entityName: string }>(CLASSIFY_TARGETS, {
    namespace: p.namespace,
    now: p.now,
    jobs: p.jobs.map((j) => ({ id: j.id, entityCanonicalName: j.entityCanonicalName })),
  });
  const maxAttempts = new Map(p.jobs.map((j) => [j.id, j.maxAttempts]));
  await enqueue(
    tx,
    targets.map((t) => ({
      id: t.id,
      kind: 'classify',
      namespace: p.namespace,
      name: jobName('classify', t.entityName, 40),
      maxAttempts: maxAttempts.get(t.id)!,
      target: { entityId: t.entityId },
    })),
    p.now,
  );
}
