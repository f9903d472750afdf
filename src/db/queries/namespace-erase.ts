import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * A tenant's right to erasure: every node of one namespace, deleted in batches of auto-commit
 * transactions (`CALL { … } IN TRANSACTIONS`), so no single transaction grows with the tenant.
 * Steps go from the leaves (chunks, attributes, audit) to the roots (memories, entities); each
 * step deletes what is left, so a run interrupted anywhere is finished by running it again.
 */

export interface EraseStep {
  /** What the step deletes, e.g. "Chunk". */
  label: string;
  cypher: string;
}

// A batch that meets a deadlock (the worker writing the namespace meanwhile) is retried by Neo4j
// itself, with growing waits, for up to 10 s, instead of failing the whole erase as UNAVAILABLE.
const batched = (match: string) => `
${match}
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF $batchSize ROWS ON ERROR RETRY FOR 10 SECONDS THEN FAIL
RETURN count(*) AS deleted`;

// Labels come from this fixed list, never from input. Nodes found through their memory or entity
// are caught even where an older write left their own `namespace` property unset.
export const ERASE_STEPS: readonly EraseStep[] = [
  { label: 'Chunk', cypher: batched('MATCH (:Memory {namespace: $namespace})-[:HAS_CHUNK]->(n:Chunk)') },
  {
    label: 'Attribute',
    cypher: batched('MATCH (:Entity {namespace: $namespace})-[:HAS_ASPECT]->(:Aspect)-[:HAS_ATTRIBUTE]->(n:Attribute)'),
  },
  { label: 'Aspect', cypher: batched('MATCH (:Entity {namespace: $namespace})-[:HAS_ASPECT]->(n:Aspect)') },
  { label: 'Hint', cypher: batched('MATCH (n:Hint)-[:HINT_OF]->(:Memory {namespace: $namespace})') },
  { label: 'Job', cypher: batched('MATCH (n:Job)-[:FOR]->(:Memory {namespace: $namespace})') },
  { label: 'HistoryEvent', cypher: batched('MATCH (n:HistoryEvent)-[:ABOUT]->(:Memory {namespace: $namespace})') },
  { label: 'HistoryEvent', cypher: batched('MATCH (n:HistoryEvent)-[:ABOUT]->(:Entity {namespace: $namespace})') },
  { label: 'Memory', cypher: batched('MATCH (n:Memory {namespace: $namespace})') },
  { label: 'Entity', cypher: batched('MATCH (n:Entity {namespace: $namespace})') },
  // Whatever still carries the namespace (jobs or events whose memory is gone, documents, transcripts,
  // sessions and their checkpoints, the namespace's upkeep state).
  ...['Chunk', 'Attribute', 'Aspect', 'Hint', 'Job', 'HistoryEvent', 'Document', 'Transcript', 'Checkpoint', 'Session', 'UpkeepState'].map(
    (label) => ({
      label,
      cypher: batched(`MATCH (n:${label} {namespace: $namespace})`),
    }),
  ),
];

export async function eraseStep(executor: Executor, step: EraseStep, namespace: string, batchSize: number): Promise<number> {
  const [row] = await executor.autoCommit<{ deleted: number }>(`namespace.erase.${step.label.toLowerCase()}`, step.cypher, {
    namespace,
    batchSize: neo4j.int(batchSize),
  });
  return row?.deleted ?? 0;
}
