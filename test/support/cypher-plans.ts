import type { Driver, Plan } from 'neo4j-driver';
import { cypher25 } from '../../src/db/executor.js';
import { cypherStatements } from './cypher-statements.js';

/**
 * The plans of every registered statement (test/support/cypher-statements.ts), taken by the
 * integration tier's global setup right after the migrations, before any test writes: the
 * planner weighs its choices by what the store holds, so only a freshly migrated, empty database
 * gives the same plans on every run. test/integration/cypher-plans.int.test.ts checks them.
 */

export interface PlanOperator {
  depth: number;
  /** Without the runtime suffix (`NodeIndexSeek`, not `NodeIndexSeek@neo4j`). */
  name: string;
  /** The plan's `Details`: variables, label or type, index and predicate. */
  details: string | null;
}

export interface StatementPlan {
  name: string;
  cypher: string;
  operators: PlanOperator[];
  /** Notifications about the statement itself (deprecations, cartesian products…), as `code: title`. */
  notices: string[];
  /** Set when EXPLAIN refused the statement. */
  error: string | null;
}

export interface CypherPlans {
  plans: StatementPlan[];
  unregistered: string[];
  missingBuilders: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    cypherPlans: CypherPlans;
  }
}

/** Notices about what the store holds now (or the parameters left out), not about the statement. */
const DATA_NOTICES = /\.(?:UnknownPropertyKeyWarning|UnknownLabelWarning|UnknownRelationshipTypeWarning|ParameterNotProvided)$/;
/** EXPLAINs in flight at once: planning is CPU work on the server. */
const CONCURRENCY = 2;

export async function planCypherStatements(driver: Driver, database: string): Promise<CypherPlans> {
  const { statements, unregistered, missingBuilders } = await cypherStatements();
  // Index statistics are sampled in the background once an index is online: sample them now and
  // wait, so every run plans on the same statistics.
  await driver.executeQuery('CALL db.prepareForReplanning(300)', {}, { database });
  const plans: StatementPlan[] = new Array(statements.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < statements.length; i = next++) {
      const { name, cypher } = statements[i]!;
      plans[i] = { name, cypher, ...(await explain(driver, database, cypher)) };
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { plans, unregistered, missingBuilders };
}

async function explain(driver: Driver, database: string, cypher: string): Promise<Omit<StatementPlan, 'name' | 'cypher'>> {
  // Auto-commit, as `CALL { … } IN TRANSACTIONS` requires; Cypher 25, as the Executor runs it.
  // Neo4j plans a statement without its parameters (checked on 5.26: every statement got the same
  // plan as with a null for each of them).
  const session = driver.session({ database });
  try {
    const { summary } = await session.run(`EXPLAIN ${cypher25(cypher)}`);
    return {
      operators: operators(summary.plan as Plan),
      notices: summary.notifications.filter((n) => !DATA_NOTICES.test(n.code)).map((n) => `${n.code}: ${n.title}`),
      error: null,
    };
  } catch (error) {
    return { operators: [], notices: [], error: (error as Error).message };
  } finally {
    await session.close();
  }
}

/** Operators that read a whole label, relationship type, index or store instead of seeking. */
export const SCAN = /^(?:AllNodesScan|\w*NodeByLabels?Scan|\w*RelationshipTypes?Scan|\w*AllRelationshipsScan|\w*IndexScan)$/;

/**
 * How a plan finds its rows, stable across plans of equal cost: the planner breaks ties (which
 * end of a pattern to seek from, one seek or a union of two) differently from run to run, so the
 * whole tree cannot be pinned. Every leaf and procedure call, without variable names: a scan
 * with its label or type (and index), a seek with its kind of index, sorted and without repeats.
 */
/**
 * A node found by its id can be sought through the unique `id` index or the `(namespace, id)` range
 * index export paging reads; both are exact seeks of one node, and the planner breaks that tie
 * differently from one run to the next. Pinned as one name, so the tier shows scans, not coin tosses.
 */
const TIED_SEEK = /^Node(?:Unique)?IndexSeek(?:\(Locking\))?$/;

export function accessPaths(operators: readonly PlanOperator[]): string[] {
  const paths = operators.flatMap((op, i) => {
    const leaf = (operators[i + 1]?.depth ?? -1) <= op.depth;
    const details = op.details ?? '';
    const index = /\b(RANGE|TEXT|POINT) INDEX\b/.exec(details)?.[1];
    if (SCAN.test(op.name)) return [[op.name, index, /:\w+(?:\([^)]*\))?/.exec(details)?.[0]].filter(Boolean).join(' ')];
    if (op.name === 'ProcedureCall') return [`ProcedureCall ${details.replace(/\(.*$/s, '')}`];
    if (TIED_SEEK.test(op.name) && (index === undefined || index === 'RANGE')) return ['NodeIndexSeek'];
    if (/Seek|Index\w*Scan/.test(op.name)) return [[op.name, index].filter(Boolean).join(' ')];
    return leaf && op.name !== 'Argument' ? [op.name] : [];
  });
  return [...new Set(paths)].sort();
}

function operators(plan: Plan, depth = 0): PlanOperator[] {
  const details = plan.arguments.Details;
  return [
    { depth, name: plan.operatorType.replace(/@\w+$/, ''), details: typeof details === 'string' ? details : null },
    ...plan.children.flatMap((child) => operators(child, depth + 1)),
  ];
}
