import type { Executor } from '../../db/index.js';
import { hintMatches } from '../../db/search/index.js';
import type { LegHit } from '../candidates.js';
import { inScope, namespacedQuery, type FullTextLegOptions } from './keyword-leg.js';

/**
 * The hints leg: BM25 over the hypothetical questions the deep path wrote for each memory, best
 * hint per memory (off unless HINTS_ENABLED: no hints are written without it). Explains `hint`.
 * Failure rule (retrieve.ts): a failed leg counts as empty.
 */
export async function hintLeg(executor: Executor, options: FullTextLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  if (options.scope) return inScope(executor, options, 'hints');
  return hintMatches(executor, { query: namespacedQuery(options), limit: options.limit, includeDeleted: options.includeDeleted });
}
