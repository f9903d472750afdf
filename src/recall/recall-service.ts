import type { Executor } from '../db/index.js';
import type { MemoryRecord } from '../db/index.js';
import type { Logger } from '../logger.js';
import { namespaceToken } from '../text/index.js';
import type { AccessTracker } from './access-tracker.js';
import { applyTokenBudget } from './budget.js';
import { assembleCandidates, candidateIds, type LegHit } from './candidates.js';
import { collapseDuplicates } from './collapse-duplicates.js';
import { applyContextBoost, contextNewcomerIds } from './context.js';
import { applyFilters } from './filters.js';
import { sessionNeighbours } from './legs/context-leg.js';
import { duplicateGroups } from './legs/duplicate-groups.js';
import { entityLeg } from './legs/entity-leg.js';
import { graphBoost, type GraphBoostResult } from './legs/graph-boost.js';
import { queryEntities, type QueryEntity } from './legs/query-entities.js';
import { HubThresholds } from './legs/hub-threshold.js';
import { hintLeg, keywordLeg } from './legs/keyword-leg.js';
import { vectorLeg } from './legs/vector-leg.js';
import { loadRecallMemories, type LoadedMemory } from './load-memories.js';
import { queryTokens, toLuceneQuery } from '../text/index.js';
import { applyLearnedRank } from './learned-rank.js';
import { LEARNED_RANK_MODEL } from './learned-rank-weights.js';
import { formatMemoryPrompt } from './prompt.js';
import { rankCandidates } from './rank.js';
import { filterScope, SCOPED_KEYWORD_BOUND, shouldWiden, widen } from './scope.js';
import { planRecall, StageTimer, type RecallFilters, type RecallPlan } from './recall-request.js';
import { createSimilarityReranker, rerankWithTimeout } from './rerank.js';
import {
  recallSettingsFromEnv,
  resolveRecallSettings,
  type RecallEnvironment,
  type RecallRecipeName,
  type RecallSettings,
  type RecallSettingsOverrides,
} from './settings/index.js';
import type { RankedCandidate, ScoreExplanation } from './types.js';

export type { RecallFilters } from './recall-request.js';

export interface RecallRequest {
  query: string;
  namespace: string;
  limit?: number | null;
  /** Omitted: the recipe's budget (2,000 tokens by default); null: no token budget. */
  tokenBudget?: number | null;
  filters?: RecallFilters | null;
  /** Benchmarks compare recipes; the API uses the configured default. */
  recipe?: RecallRecipeName;
  overrides?: RecallSettingsOverrides;
  /**
   * The time the question is asked (ISO 8601 or Date); default now. Given explicitly, memories
   * whose event time is after it are left out and validity is judged at that time.
   */
  asOf?: string | Date | null;
  /** Skip access tracking (benchmarks, previews). */
  trackAccess?: boolean;
  /** Only rank (search's compact index): no token budget, no prompt, no access tracking. */
  rankOnly?: boolean;
}

export interface RecallItemView {
  memory: MemoryRecord;
  score: number;
  tokens: number;
  explanation: ScoreExplanation;
}

export interface RecallOutcome {
  items: RecallItemView[];
  /** Every ranked candidate after filters, before the budget (search pages through these). */
  ranked: RankedCandidate[];
  totalTokens: number;
  budgetUsed: number;
  prompt: string;
  boostTimedOut: boolean;
  rerankApplied: boolean;
  timings: Record<string, number>;
  tookMs: number;
}

interface TextEmbedder {
  /** `query` picks the model's query prefix (e5's "query: "); stored texts are embedded as passages. */
  embed(texts: string[], purpose?: 'query' | 'passage'): Promise<Float32Array[]>;
  countTokens(text: string): number;
}

interface Retrieved {
  legs: { vector: LegHit[]; keyword: LegHit[]; hints: LegHit[]; entity: LegHit[]; graph: ReadonlyMap<string, number> };
  boost: GraphBoostResult | null;
  hubThreshold: number;
}

/**
 * The recall orchestrator: a list of stages, each with its own failure rule. It decides what
 * runs (from settings resolved once per request) and hands data from stage to stage; the work is
 * in the legs (Cypher) and the pure ranking modules.
 *
 *   plan → embed → retrieve (legs, boost, hub threshold; concurrent) → hydrate → rank →
 *   context → filter → rerank → collapse near-duplicates → learned ranking (off by default) → budget → prompt
 *
 * Failure rules: a leg that fails counts as empty unless every leg failed; an embedding failure
 * leaves the keyword legs; boost, context, rerank and the near-duplicate collapse keep what came in
 * when they fail or time out (invariant 3); hydration failing fails the recall (nothing to rank).
 */
export class RecallService {
  private readonly hubThresholds: HubThresholds;
  private readonly defaultSettings: RecallSettings;

  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    private readonly config: RecallEnvironment,
    private readonly logger: Logger,
    private readonly accessTracker?: AccessTracker,
  ) {
    this.hubThresholds = new HubThresholds(executor);
    this.defaultSettings = resolveRecallSettings('default', recallSettingsFromEnv(config, 'default'));
  }

  /** The recipe with the service's configuration (recallSettingsFromEnv), then the request's overrides. */
  settingsFor(recipe: RecallRecipeName = 'default', overrides: RecallSettingsOverrides = {}): RecallSettings {
    if (recipe === 'default' && Object.keys(overrides).length === 0) return this.defaultSettings;
    return resolveRecallSettings(recipe, recallSettingsFromEnv(this.config, recipe), overrides);
  }

  async recall(request: RecallRequest): Promise<RecallOutcome> {
    const timer = new StageTimer();
    const plan = planRecall(request, this.settingsFor(request.recipe, request.overrides));
    const vector = await this.embedQuery(plan, timer);
    const scope = await this.scope(plan, timer);
    // Retrieve → hydrate → rank → context → filter, wider while the filters leave fewer than the
    // limit and a leg has more to give (recall/scope.ts).
    let fetch = plan.fetch;
    let retrieved: Retrieved;
    let memories: Map<string, LoadedMemory>;
    let ranked: RankedCandidate[];
    for (;;) {
      retrieved = await this.retrieve(plan, vector, timer, fetch, scope);
      memories = await timer.run('load', () =>
        loadRecallMemories(this.executor, candidateIds(retrieved.legs), { namespace: plan.namespace, ...plan.include, vector }),
      );
      const assembled = assembleCandidates(retrieved.legs, memories);
      ranked = timer.runSync('rank', () =>
        rankCandidates(assembled, plan.settings, {
          query: plan.query,
          now: plan.asOf.time,
          hubThreshold: retrieved.hubThreshold,
          timeWindow: plan.timeWindow,
        }),
      );
      ranked = await this.context(plan, ranked, memories, vector, timer);
      const loaded = memories;
      ranked = applyFilters(
        ranked.filter((r) => !plan.filters.sessionId || loaded.get(r.candidate.memoryId)?.record.sessionId === plan.filters.sessionId),
        plan.memoryFilters,
      );
      if (!shouldWiden(ranked.length, plan.limit, retrieved.legs, fetch)) break;
      fetch = widen(fetch);
    }
    const reranked = vector ? await this.rerank(plan, ranked, memories, timer) : { items: ranked, applied: false };
    reranked.items = await this.collapse(plan, reranked.items, timer);
    if (plan.settings.learnedRank.enabled) {
      const { topN } = plan.settings.learnedRank;
      reranked.items = timer.runSync('learned', () => applyLearnedRank(reranked.items, LEARNED_RANK_MODEL, topN));
    }
    const boostTimedOut = retrieved.boost?.timedOut ?? false;
    if (request.rankOnly) {
      return {
        items: [],
        ranked: reranked.items,
        totalTokens: 0,
        budgetUsed: 0,
        prompt: '',
        boostTimedOut,
        rerankApplied: reranked.applied,
        timings: timer.timings,
        tookMs: timer.elapsed(),
      };
    }

    const budget = timer.runSync('budget', () =>
      applyTokenBudget(reranked.items, {
        limit: plan.limit,
        tokenBudget: plan.tokenBudget,
        countTokens: (text) => this.embedder.countTokens(text),
        priorityTypes: plan.settings.budget.priorityTypes,
      }),
    );
    const record = (id: string) => memories.get(id)!.record;
    const items = budget.selected.map((s) => ({
      memory: record(s.candidate.memoryId),
      score: s.score,
      tokens: s.tokens,
      explanation: s.explanation,
    }));
    if (request.trackAccess !== false && items.length > 0) this.accessTracker?.record(items.map((i) => i.memory.id));
    return {
      items,
      ranked: reranked.items,
      totalTokens: budget.totalTokens,
      budgetUsed: budget.budgetUsed,
      prompt: formatMemoryPrompt(budget.promptOrder.map((s) => record(s.candidate.memoryId))),
      boostTimedOut,
      rerankApplied: reranked.applied,
      timings: timer.timings,
      tookMs: timer.elapsed(),
    };
  }

  /** The query vector, or null when no stage needs it or the embedder failed (keyword legs remain). */
  private async embedQuery(plan: RecallPlan, timer: StageTimer): Promise<number[] | null> {
    const { legs, rerank } = plan.settings;
    if (!legs.vector && !rerank.enabled) return null;
    try {
      const [vector] = await timer.run('embed', () => this.embedder.embed([plan.query], 'query'));
      return vector ? Array.from(vector) : null;
    } catch (error) {
      if (!legs.keyword && !legs.hints) throw error;
      this.logger.warn({ error }, 'query embedding failed; recall continues with the keyword legs');
      return null;
    }
  }

  /** The memories that pass the request's filters, when it has some and they are few enough to list; else null. */
  private async scope(plan: RecallPlan, timer: StageTimer): Promise<string[] | null> {
    if (!plan.scoped) return null;
    try {
      return await timer.run('scope', () => filterScope(this.executor, plan));
    } catch (error) {
      this.logger.warn({ error }, 'filter scope unavailable; recall widens the legs instead');
      return null;
    }
  }

  /** The legs (confined to the scope when there is one), the graph boost and the hub threshold, concurrently. */
  private async retrieve(
    plan: RecallPlan,
    vector: number[] | null,
    timer: StageTimer,
    fetch: number,
    scope: string[] | null,
  ): Promise<Retrieved> {
    const { settings, namespace } = plan;
    const token = namespaceToken(namespace);
    const luceneQuery = toLuceneQuery(plan.query);
    const { includeDeleted } = plan.include;
    const scopeBound = SCOPED_KEYWORD_BOUND;
    const failures: unknown[] = [];
    let attempted = 0;
    const leg = (enabled: boolean, stage: string, run: () => Promise<LegHit[]>): Promise<LegHit[]> => {
      if (!enabled) return Promise.resolve([]);
      attempted++;
      return timer.run(stage, run).catch((error: unknown) => {
        failures.push(error);
        this.logger.warn({ error, leg: stage }, 'recall leg failed; recall continues without it');
        return [];
      });
    };
    // The entities the question names, once, for the entity leg and the graph boost; a failure
    // leaves both empty (the leg counts as failed, the boost as absent).
    const named: Promise<QueryEntity[] | Error> =
      settings.graph.enabled || settings.legs.entity
        ? timer
            .run('entities', () =>
              queryEntities(this.executor, {
                namespaceToken: token,
                tokens: queryTokens(plan.query).filter((t) => t.length >= 2),
                maxEntities: settings.graph.maxEntities,
              }),
            )
            .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
        : Promise.resolve([]);
    const entitiesOrThrow = async () => {
      const found = await named;
      if (found instanceof Error) throw found;
      return found;
    };
    const [vectorHits, keyword, hints, entity, boost, hubThreshold] = await Promise.all([
      leg(settings.legs.vector && vector !== null, 'vector', () =>
        vectorLeg(this.executor, { namespace, vector: vector!, limit: fetch, includeDeleted, scope }),
      ),
      leg(settings.legs.keyword, 'keyword', () =>
        keywordLeg(
          this.executor,
          { namespaceToken: token, luceneQuery, limit: fetch, includeDeleted, scope, scopeBound },
          settings.keywordContext,
        ),
      ),
      leg(settings.legs.hints, 'hints', () =>
        hintLeg(this.executor, { namespaceToken: token, luceneQuery, limit: fetch, includeDeleted, scope, scopeBound }),
      ),
      leg(settings.legs.entity, 'entity', async () =>
        entityLeg(this.executor, { entities: await entitiesOrThrow(), limit: fetch, ...settings.entityLeg, includeDeleted, scope }),
      ),
      settings.graph.enabled
        ? named.then((found) =>
            found instanceof Error
              ? { strengths: new Map<string, number>(), timedOut: false, error: found.message }
              : timer.run('boost', () =>
                  graphBoost(this.executor, {
                    entities: found,
                    maxNeighbours: settings.graph.maxNeighbours,
                    maxMemories: settings.graph.maxMemories,
                  }),
                ),
          )
        : Promise.resolve(null),
      settings.dampening.hub.enabled
        ? timer
            .run('hubs', () => this.hubThresholds.get(namespace, settings.dampening.hub.percentile))
            .catch((error: unknown) => {
              this.logger.warn({ error }, 'hub threshold unavailable; recall continues without hub dampening');
              return Number.POSITIVE_INFINITY;
            })
        : Promise.resolve(Number.POSITIVE_INFINITY),
    ]);
    if (attempted > 0 && failures.length === attempted) throw failures[0];
    if (boost?.error) this.logger.warn({ error: boost.error }, 'graph boost failed; recall continues without it');
    return {
      legs: { vector: vectorHits, keyword, hints, entity, graph: boost?.strengths ?? new Map<string, number>() },
      boost,
      hubThreshold,
    };
  }

  /** Session neighbours of the top results gain part of their anchor's score; additive only. */
  private async context(
    plan: RecallPlan,
    ranked: RankedCandidate[],
    memories: Map<string, LoadedMemory>,
    vector: number[] | null,
    timer: StageTimer,
  ): Promise<RankedCandidate[]> {
    const { context } = plan.settings;
    if (!context.enabled || context.weight <= 0 || ranked.length === 0) return ranked;
    try {
      return await timer.run('context', async () => {
        const anchors = ranked.slice(0, context.anchors).map((r) => r.candidate.memoryId);
        const neighbours = await sessionNeighbours(this.executor, anchors, context.window);
        const newcomers = await loadRecallMemories(this.executor, contextNewcomerIds(ranked, neighbours), {
          namespace: plan.namespace,
          ...plan.include,
          vector,
        });
        for (const [id, memory] of newcomers) memories.set(id, memory);
        const candidates = new Map([...newcomers].map(([id, m]) => [id, { ...m, graphBoost: 0 }]));
        return applyContextBoost(ranked, neighbours, candidates, context, (id) => memories.get(id)?.similarity);
      });
    } catch (error) {
      this.logger.warn({ error }, 'context stage failed; recall continues without it');
      return ranked;
    }
  }

  /**
   * Open near-duplicate groups (linked DUPLICATE_OF by the write path, not yet decided by the deep
   * path) show only their best-ranked member; constraints and pinned memories are never hidden.
   * A failure keeps every result.
   */
  private async collapse(plan: RecallPlan, ranked: RankedCandidate[], timer: StageTimer): Promise<RankedCandidate[]> {
    const ids = ranked.filter((r) => !r.candidate.isConstraint && !r.candidate.pinned).map((r) => r.candidate.memoryId);
    if (ids.length < 2) return ranked;
    try {
      const groups = await timer.run('duplicates', () => duplicateGroups(this.executor, plan.namespace, ids));
      return groups.size === 0 ? ranked : collapseDuplicates(ranked, groups, (r) => r.candidate.memoryId).items;
    } catch (error) {
      this.logger.warn({ error }, 'near-duplicate groups unavailable; recall continues without collapsing them');
      return ranked;
    }
  }

  /** Reorders the head by stored similarity (computed while hydrating: no I/O here); a timeout keeps the order. */
  private async rerank(
    plan: RecallPlan,
    ranked: RankedCandidate[],
    memories: Map<string, LoadedMemory>,
    timer: StageTimer,
  ): Promise<{ items: RankedCandidate[]; applied: boolean }> {
    const { rerank } = plan.settings;
    if (!rerank.enabled || ranked.length < 2) return { items: ranked, applied: false };
    const provider = createSimilarityReranker((id) => memories.get(id)?.similarity, rerank);
    const outcome = await timer.run('rerank', () => rerankWithTimeout(plan.query, ranked, provider, rerank));
    return { items: outcome.items, applied: outcome.rerankApplied };
  }
}
