/**
 * The Cypher plan tier. Every statement under src/db/ (test/support/cypher-statements.ts finds
 * them: exported string constants, plus the variants of the builders it lists) is EXPLAINed by the
 * integration tier's global setup on the freshly migrated, still empty database, before any test
 * writes (a store with data gets plans that depend on that data; test/support/cypher-plans.ts).
 * Pinned in __snapshots__/cypher-plans.int.test.ts.snap, per statement: its text and how its
 * plan finds rows (`>` lines: seeks, scans, procedure calls; the whole tree is not pinned because
 * Neo4j breaks ties between equal-cost plans differently from run to run), and the notices Neo4j
 * gives about it (`!` lines). The schema the migrations leave (SHOW INDEXES, SHOW CONSTRAINTS) is
 * pinned beside them, in cypher/schema.snapshot.txt.
 *
 * A plan that scans (every node, a whole label, relationship type or index) fails unless
 * ACCEPTED_SCANS or MISSING_INDEXES below names that scan with its reason.
 *
 * After an intended change (a statement added or edited, a migration), update both snapshots and
 * review their diff like code:
 *   npx vitest run --project integration test/integration/cypher-plans.int.test.ts -u
 * (Against TEST_NEO4J_URI with data in it, plans may differ from the pinned ones.)
 */
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessPaths, SCAN } from '../support/cypher-plans.js';
import { normalizeCypher } from '../support/cypher-statements.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from '../support/test-neo4j.js';

type Scans = Record<string, ReadonlyArray<{ scan: string; reason: string }>>;

const ERASE = 'tenant erasure: a rare admin pass in batches (IN TRANSACTIONS); a pass over the whole label or type is its accepted cost';

const MAINTENANCE = 'maintenance diagnostics count the whole store (or one scope) on purpose, every 30 minutes';

/** Scans that are right where they are (`<operator> :<label or type>` as in the snapshot), and why. */
const ACCEPTED_SCANS: Scans = {
  'db/jobs/last-errors#LAST_ERRORS': [
    { scan: 'NodeIndexScan RANGE :Job(failedAt)', reason: 'the newest failures first: the failedAt index read in order, $limit entries' },
  ],
  'db/jobs/queue-depth#QUEUE_DEPTH': [
    { scan: 'NodeByLabelScan :Job', reason: 'the queue gauge counts every job by status, cached between scrapes' },
  ],
  'db/queries/maintenance#MAINTENANCE_CHUNK_COUNTS': [{ scan: 'DirectedRelationshipTypeScan :HAS_CHUNK', reason: MAINTENANCE }],
  'db/queries/maintenance#MAINTENANCE_JOB_COUNTS': [{ scan: 'NodeByLabelScan :Job', reason: MAINTENANCE }],
  'db/queries/maintenance#MAINTENANCE_MEMORY_COUNTS': [{ scan: 'NodeByLabelScan :Memory', reason: MAINTENANCE }],
  'db/queries/decay#FLAG_UNRETRIEVED': [
    {
      scan: 'NodeByLabelScan :Memory',
      reason: 'decay sweep: "unretrieved since" is coalesce(lastAccessed, createdAt), which no index answers; $limit per batch',
    },
  ],
  'db/queries/warm-up#CHUNK_RANGE': [
    {
      scan: 'NodeIndexScan RANGE :Chunk(namespace)',
      reason: 'start-up warm-up reads the chunk_namespace index on purpose, $limit entries',
    },
  ],
  ...Object.fromEntries(
    [
      ['0:Chunk', 'DirectedRelationshipTypeScan :HAS_CHUNK'],
      ['1:Attribute', 'DirectedRelationshipTypeScan :HAS_ASPECT'],
      ['2:Aspect', 'DirectedRelationshipTypeScan :HAS_ASPECT'],
      ['3:Hint', 'DirectedRelationshipTypeScan :HINT_OF'],
      ['4:Job', 'DirectedRelationshipTypeScan :FOR'],
      ['5:HistoryEvent', 'DirectedRelationshipTypeScan :ABOUT'],
      ['6:HistoryEvent', 'DirectedRelationshipTypeScan :ABOUT'],
      ['7:Memory', 'NodeByLabelScan :Memory'],
      ['8:Entity', 'NodeByLabelScan :Entity'],
      ['10:Attribute', 'NodeByLabelScan :Attribute'],
      ['11:Aspect', 'NodeByLabelScan :Aspect'],
      ['12:Hint', 'NodeByLabelScan :Hint'],
      ['13:Job', 'NodeByLabelScan :Job'],
      ['14:HistoryEvent', 'NodeByLabelScan :HistoryEvent'],
      ['15:Document', 'NodeByLabelScan :Document'],
      ['16:Transcript', 'NodeByLabelScan :Transcript'],
      ['17:Checkpoint', 'NodeByLabelScan :Checkpoint'],
      ['18:Session', 'NodeByLabelScan :Session'],
    ].map(([step, scan]) => [`db/queries/namespace-erase#ERASE_STEPS[${step}]`, [{ scan: scan!, reason: ERASE }]]),
  ),
};

// A composite range index serves a statement only when it names every one of its properties:
// `{namespace: $namespace}` alone cannot use memory_namespace_created(namespace, createdAt).
const NAMESPACE_ONLY = 'no index on the namespace alone (the composite ones need a predicate on their second property too)';

const NO_CHECKPOINT_INDEX = 'no index on Checkpoint at all (one on namespace and sessionId would serve these)';

/** Scans an index should serve, kept here until a statement or migration fixes them (then delete the entry). */
const MISSING_INDEXES: Scans = {
  'db/queries/checkpoint-store#CHECKPOINT_ALREADY': [{ scan: 'NodeByLabelScan :Checkpoint', reason: NO_CHECKPOINT_INDEX }],
  'db/queries/checkpoint-store#CHECKPOINT_CAP': [{ scan: 'NodeByLabelScan :Checkpoint', reason: NO_CHECKPOINT_INDEX }],
  'db/queries/checkpoint-store#CHECKPOINT_LATEST': [{ scan: 'NodeByLabelScan :Checkpoint', reason: NO_CHECKPOINT_INDEX }],
  'db/queries/checkpoint-store#CHECKPOINT_MERGE_RECENT': [{ scan: 'NodeByLabelScan :Checkpoint', reason: NO_CHECKPOINT_INDEX }],
  'db/queries/checkpoint-store#CHECKPOINT_PRUNE': [{ scan: 'NodeByLabelScan :Checkpoint', reason: NO_CHECKPOINT_INDEX }],
  'db/queries/aspect-feedback#DECAY_ASPECTS': [{ scan: 'NodeByLabelScan :Aspect', reason: 'no index on Aspect.namespace' }],
  'db/queries/maintenance#MAINTENANCE_REQUEUE_DEAD': [
    { scan: 'NodeByLabelScan :Job', reason: 'status alone: job_status_available(status, availableAt) needs availableAt too' },
  ],
  'db/queries/compression-threshold#OVER_THRESHOLD': [
    { scan: 'NodeByLabelScan :Memory', reason: 'each compression check reads every memory; nothing indexes type (episodic)' },
  ],
  'db/queries/decay#EXPIRY_CANDIDATES': [
    {
      scan: 'NodeByLabelScan :Memory',
      reason: 'each decay pass reads every memory to find unchecked temporal ones; nothing indexes temporal',
    },
  ],
  'db/queries/document-store#COUNT': [{ scan: 'NodeByLabelScan :Document', reason: NAMESPACE_ONLY }],
  'db/queries/document-store#PAGE': [{ scan: 'NodeByLabelScan :Document', reason: NAMESPACE_ONLY }],
  'db/queries/document-store#LEASE': [
    {
      scan: 'NodeByLabelScan :Document',
      reason: 'the ingest poll: document_status_created(status, createdAt) needs a createdAt predicate',
    },
  ],
  'db/queries/document-store#LEASED_BY_CALL': [
    {
      scan: 'NodeByLabelScan :Document',
      reason: 'document_status_created(status, createdAt) needs a createdAt predicate; leaseId is not indexed',
    },
  ],
  'db/queries/entity-page#PAGE_ENTITIES': [{ scan: 'NodeByLabelScan :Entity', reason: NAMESPACE_ONLY }],
  'db/queries/explorer-reads#NAMESPACES': [
    { scan: 'NodeByLabelScan :Memory', reason: 'meant to read memory_namespace_created, which needs createdAt IS NOT NULL as well' },
  ],
  'db/queries/memory-page#COUNT_MEMORIES': [{ scan: 'NodeByLabelScan :Memory', reason: NAMESPACE_ONLY }],
  'db/queries/memory-page#PAGE_MEMORIES': [{ scan: 'NodeByLabelScan :Memory', reason: NAMESPACE_ONLY }],
  'db/queries/sessions#BEST': [{ scan: 'NodeByLabelScan :Memory', reason: NAMESPACE_ONLY }],
  'db/queries/sessions#LATEST_CHECKPOINT': [{ scan: 'NodeByLabelScan :Checkpoint', reason: 'no index on Checkpoint at all' }],
  'db/queries/sessions#PINNED_AND_CONSTRAINTS': [{ scan: 'NodeByLabelScan :Memory', reason: NAMESPACE_ONLY }],
  'db/queries/sessions#PREFERENCES': [{ scan: 'NodeByLabelScan :Memory', reason: NAMESPACE_ONLY }],
  'db/queries/sessions#STATS': [
    { scan: 'NodeByLabelScan :Session', reason: `${NAMESPACE_ONLY} (session_key needs sessionId)` },
    { scan: 'NodeByLabelScan :Job', reason: `${NAMESPACE_ONLY} (the Job ones need status or a time; kind is not indexed)` },
  ],
};

/**
 * Statements whose `ORDER BY … LIMIT` the index must serve, by the sort key that gives it away:
 * a Top or Sort over it means Neo4j reads every row on that side (a whole session, a whole
 * namespace) to keep a few. Ordering by every property of the composite index, equal as the
 * leading ones are, lets the seek stop at the limit.
 */
const INDEX_ORDERED: Record<string, string> = {
  'db/search/load-memories#RECALL_CONTEXT': 'timelineKey',
  'db/queries/timeline-window#TIMELINE': 'timelineKey',
};

const { plans, unregistered, missingBuilders } = inject('cypherPlans');
const scansOf = new Map(plans.map((p) => [p.name, accessPaths(p.operators).filter((path) => SCAN.test(path.split(' ')[0]!))]));

describe('cypher plans', () => {
  const driver = neo4j.driver(
    process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
    neo4j.auth.basic('neo4j', process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password),
    { disableLosslessIntegers: true },
  );
  const rows = async <T>(cypher: string) =>
    (await driver.executeQuery(cypher, {}, { database: 'neo4j' })).records.map((r) => r.toObject() as T);
  let indexes: IndexRow[] = [];
  beforeAll(async () => {
    indexes = await rows<IndexRow>('SHOW INDEXES YIELD * RETURN *');
  });
  afterAll(() => driver.close());

  it('every exported value holding Cypher is a registered statement', () => {
    expect(plans.length).toBeGreaterThan(100);
    expect(unregistered, 'export each statement as a string constant, or list its builder in test/support/cypher-statements.ts').toEqual(
      [],
    );
    expect(missingBuilders, 'a builder listed in test/support/cypher-statements.ts moved or was renamed').toEqual([]);
  });

  for (const { name, cypher, operators, notices, error } of plans) {
    it(name, () => {
      expect(error, 'EXPLAIN refused the statement').toBeNull();
      const paths = accessPaths(operators);
      expect([normalizeCypher(cypher), '', ...paths.map((p) => `> ${p}`), ...notices.map((n) => `! ${n}`)].join('\n')).toMatchSnapshot();

      const scans = scansOf.get(name)!;
      const known = new Set([...(ACCEPTED_SCANS[name] ?? []), ...(MISSING_INDEXES[name] ?? [])].map((a) => a.scan));
      const tree = operators.map((op) => `${'  '.repeat(op.depth)}${op.name} ${op.details ?? ''}`.trimEnd()).join('\n');
      expect(
        scans.filter((scan) => !known.has(scan)).map((scan) => `${scan} (${indexesOf(scan, indexes)})`),
        `${name} scans instead of seeking: use an index, or name the scan in ACCEPTED_SCANS with its reason. Its plan:\n${tree}\n`,
      ).toEqual([]);
    });
  }

  for (const [name, key] of Object.entries(INDEX_ORDERED)) {
    it(`${name} reads ${key} in index order (no sort)`, () => {
      const operators = plans.find((p) => p.name === name)?.operators;
      expect(operators, `${name} is not a registered statement`).toBeDefined();
      const sorts = operators!.filter((op) => /^(?:Partial)?(?:Top|Sort)$/.test(op.name) && op.details?.includes(key));
      expect(sorts.map((op) => `${op.name} ${op.details}`)).toEqual([]);
    });
  }

  it('every accepted or missing-index scan is still in its plan', () => {
    const stale = [...Object.entries(ACCEPTED_SCANS), ...Object.entries(MISSING_INDEXES)].flatMap(([name, list]) =>
      list.filter((a) => !scansOf.get(name)?.includes(a.scan)).map((a) => `${name}: ${a.scan}`),
    );
    expect(stale, 'remove these entries: the plan no longer scans').toEqual([]);
  });

  it('the migrations leave the schema in cypher/schema.snapshot.txt', async () => {
    const text = schemaText(indexes, await rows<ConstraintRow>('SHOW CONSTRAINTS YIELD * RETURN *'));
    await expect(text).toMatchFileSnapshot('../../cypher/schema.snapshot.txt');
  });
});

/** The property indexes of a scanned label or type, for the failure message. */
function indexesOf(scan: string, indexes: readonly IndexRow[]): string {
  const token = /:(\w+)/.exec(scan)?.[1];
  if (!token) return 'it reads every node or relationship of the store';
  const list = indexes.filter((i) => ['RANGE', 'TEXT', 'POINT'].includes(i.type) && i.labelsOrTypes?.includes(token));
  return list.length
    ? `indexes of ${token}: ${list.map((i) => `${i.name}(${i.properties!.join(', ')})`).join(', ')}`
    : `no index of ${token}`;
}

interface IndexRow {
  name: string;
  type: string;
  entityType: string;
  labelsOrTypes: string[] | null;
  properties: string[] | null;
  owningConstraint: string | null;
  options: { indexConfig?: Record<string, unknown> } | null;
}

interface ConstraintRow {
  name: string;
  type: string;
  entityType: string;
  labelsOrTypes: string[] | null;
  properties: string[] | null;
  ownedIndex: string | null;
  propertyType: string | null;
}

/** One line per index and constraint, by name: what a migration changed shows in the diff. */
function schemaText(indexes: readonly IndexRow[], constraints: readonly ConstraintRow[]): string {
  const target = (entityType: string, labels: string[] | null, properties: string[] | null) =>
    `${entityType} ${labels?.join('|') ?? (entityType === 'NODE' ? 'any label' : 'any type')}${properties ? `(${properties.join(', ')})` : ''}`;
  const byName = <T extends { name: string }>(list: readonly T[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : 1));
  const config = (c: Record<string, unknown> | undefined) => {
    const keys = Object.keys(c ?? {}).sort();
    return keys.length ? ` {${keys.map((k) => `${k}: ${JSON.stringify(c![k])}`).join(', ')}}` : '';
  };
  return [
    '// The schema the migrations in this folder leave on a fresh database: SHOW INDEXES and SHOW CONSTRAINTS,',
    '// stable columns only. Written and checked by test/integration/cypher-plans.int.test.ts (update with -u).',
    '',
    'INDEXES',
    ...byName(indexes).map(
      (i) =>
        `${i.name}: ${i.type} ${target(i.entityType, i.labelsOrTypes, i.properties)}` +
        (i.owningConstraint ? ` (constraint ${i.owningConstraint})` : '') +
        (['VECTOR', 'FULLTEXT'].includes(i.type) ? config(i.options?.indexConfig) : ''),
    ),
    '',
    'CONSTRAINTS',
    ...byName(constraints).map(
      (c) =>
        `${c.name}: ${c.type} ${target(c.entityType, c.labelsOrTypes, c.properties)}` +
        (c.propertyType ? ` :: ${c.propertyType}` : '') +
        (c.ownedIndex && c.ownedIndex !== c.name ? ` (index ${c.ownedIndex})` : ''),
    ),
    '',
  ].join('\n');
}
