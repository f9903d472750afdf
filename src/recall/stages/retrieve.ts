import type { z } from 'zod/v3';
import { namespaceToken, queryTokens, toLuceneQuery } from '../../text/index.js';
import type { LegHit } from '../candidates.js';
import { flag, section } from '../settings/fields.js';
import { entityLeg, type EntityLegSettings } from './entity-leg.js';
import { graphBoost, type GraphSettings } from './graph-boost.js';
import { hintLeg } from './hint-leg.js';
import { keywordLeg, type FullTextLegOptions } from './keyword-leg.js';
import { queryEntities, type NamedEntity } from './query-entities.js';
import { SCOPED_KEYWORD_BOUND } from './scope.js';
import type { RecallRun } from './stage.js';
import { vectorLeg } from './vector-leg.js';

export const legsSettings = section({
  vector: flag().default(true).describe('vector leg: cosine similarity on the chunk vector index (stages/vector-leg.ts)'),
  keyword: flag().default(true).describe('keyword leg: Lucene BM25 on memory content (stages/keyword-leg.ts)'),
  hints: flag()
    .default(true)
    .describe('hints leg: Lucene BM25 on hypothetical questions (off unless HINTS_ENABLED, src/recall/settings/env.ts)'),
  entity: flag().default(true).describe('entity leg: memories that mention the entities the question names (stages/entity-leg.ts)'),
});
export type LegsSettings = z.output<typeof legsSettings>;

export interface RetrieveSettings {
  legs: LegsSettings;
  entityLeg: EntityLegSettings;
  graph: GraphSettings;
}

/** What one pass of the legs asks for: how many candidates each leg fetches, and the filter scope (null: the namespace). */
export interface RetrievePass {
  fetch: number;
  scope: string[] | null;
}

type LegName = 'vector' | 'keyword' | 'hints' | 'entity';

/** Each leg's hits (empty when off or failed), and the graph boost's strengths by memory. */
export type Retrieved = Record<LegName, LegHit[]> & { graph: ReadonlyMap<string, number> };

/**
 * Retrieval: the legs, in the order they are listed, run concurrently; the graph boost beside them.
 * The entities the question names are looked up once for the entity leg and the boost, with the
 * memories that mention them in the same statement (query-entities.ts).
 *
 * Failure rule: a leg that fails counts as empty unless every leg that ran failed (then the recall
 * fails); a failed entity lookup empties the entity leg and the boost; a failed boost is no boost.
 */
export async function retrieve(run: RecallRun, settings: RetrieveSettings, pass: RetrievePass): Promise<Retrieved> {
  const { timer, logger } = run;
  const named = questionEntities(run, settings, pass);
  const failures: unknown[] = [];
  const running = legsOf(run, settings, pass, named).filter((leg) => leg.on);
  const legHits = Promise.all(
    running.map((leg) =>
      timer.run(leg.name, leg.run).catch((error: unknown) => {
        failures.push(error);
        logger.warn({ error, leg: leg.name }, 'recall leg failed; recall continues without it');
        return [] as LegHit[];
      }),
    ),
  );
  const boost = settings.graph.enabled
    ? named.then((found) =>
        found instanceof Error
          ? { strengths: new Map<string, number>(), error: found.message }
          : timer.run('boost', () =>
              graphBoost(run.executor, {
                entities: found,
                maxNeighbours: settings.graph.maxNeighbours,
                maxMemories: settings.graph.maxMemories,
              }),
            ),
      )
    : Promise.resolve(null);
  const [hits, boosted] = await Promise.all([legHits, boost]);
  if (running.length > 0 && failures.length === running.length) throw failures[0];
  if (boosted?.error) logger.warn({ error: boosted.error }, 'graph boost failed; recall continues without it');
  const byLeg = new Map(running.map((leg, i) => [leg.name, hits[i]!]));
  return {
    vector: byLeg.get('vector') ?? [],
    keyword: byLeg.get('keyword') ?? [],
    hints: byLeg.get('hints') ?? [],
    entity: byLeg.get('entity') ?? [],
    graph: boosted?.strengths ?? new Map<string, number>(),
  };
}

/**
 * The entities the question names, once, for the entity leg and the boost, with the memories that
 * mention them when the leg is on; an Error when the lookup failed.
 */
function questionEntities(run: RecallRun, settings: RetrieveSettings, pass: RetrievePass): Promise<NamedEntity[] | Error> {
  if (!settings.graph.enabled && !settings.legs.entity) return Promise.resolve([]);
  const leg = settings.legs.entity ? { ...settings.entityLeg, includeDeleted: run.include.includeDeleted, scope: pass.scope } : null;
  return run.timer
    .run('entities', () =>
      queryEntities(run.executor, {
        namespaceToken: namespaceToken(run.namespace),
        tokens: queryTokens(run.query).filter((t) => t.length >= 2),
        maxEntities: settings.graph.maxEntities,
        leg,
      }),
    )
    .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
}

/** The legs, in order, each with whether this request runs it. */
function legsOf(
  run: RecallRun,
  settings: RetrieveSettings,
  pass: RetrievePass,
  named: Promise<NamedEntity[] | Error>,
): Array<{ name: LegName; on: boolean; run: () => Promise<LegHit[]> }> {
  const { executor, namespace, vector } = run;
  const { includeDeleted } = run.include;
  const fullText: FullTextLegOptions = {
    namespaceToken: namespaceToken(namespace),
    luceneQuery: toLuceneQuery(run.query),
    limit: pass.fetch,
    includeDeleted,
    scope: pass.scope,
    scopeBound: SCOPED_KEYWORD_BOUND,
  };
  const entities = async () => {
    const found = await named;
    if (found instanceof Error) throw found;
    return found;
  };
  return [
    {
      name: 'vector',
      on: settings.legs.vector && vector !== null,
      run: () => vectorLeg(executor, { namespace, vector: vector!, limit: pass.fetch, includeDeleted, scope: pass.scope }),
    },
    { name: 'keyword', on: settings.legs.keyword, run: () => keywordLeg(executor, fullText) },
    { name: 'hints', on: settings.legs.hints, run: () => hintLeg(executor, fullText) },
    {
      name: 'entity',
      on: settings.legs.entity,
      run: async () => entityLeg(await entities(), pass.fetch),
    },
  ];
}
