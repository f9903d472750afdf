import type { Config } from '../config/index.js';
import type { Executor } from '../db/index.js';
import type { MemoryRecord } from '../db/records.js';
import { ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { namespaceToken } from '../pipeline/remember-service.js';
import type { AccessTracker } from './access-tracker.js';
import { applyTokenBudget } from './budget.js';
import { assembleCandidates, candidateIds } from './candidates.js';
import type { RecallSettings, RecallSettingsOverrides } from './config.js';
import { applyFilters, type MemoryFilters } from './filters.js';
import { applyContextBoost, contextNewcomerIds } from './context.js';
import { sessionNeighbours } from './legs/context-leg.js';
import { graphBoost } from './legs/graph-boost.js';
import { HubThresholds } from './legs/hub-threshold.js';
import { hintLeg, keywordLeg } from './legs/keyword-leg.js';
import { memoryVectors } from './legs/memory-vectors.js';
import { vectorLeg } from './legs/vector-leg.js';
import { loadRecallMemories } from './load-memories.js';
import { queryTokens, toLuceneQuery } from './lucene.js';
import { resolveRecallSettings, type RecallPresetName } from './presets.js';
import { formatMemoryPrompt } from './prompt.js';
import { rankCandidates } from './rank.js';
import { createEmbeddingReranker, rerankWithTimeout } from './rerank.js';
import type { RankedCandidate, ScoreExplanation } from './types.js';

const MAX_QUERY_CHARS = 4_000;
const MAX_TOKEN_BUDGET = 100_000;
/** How far after `asOf` a memory's event time may lie and still count (time zones). */
export const AS_OF_GRACE_MS = 24 * 3_600_000;

export interface RecallFilters extends MemoryFilters {
  sessionId?: string | null;
  includeSuperseded?: boolean | null;
  includeDeleted?: boolean | null;
  /** Accepted for compatibility; this service never compresses memories. */
  includeCompressed?: boolean | null;
}

export interface RecallRequest {
  query: string;
  namespace: string;
  limit?: number | null;
  /** Omitted: the preset's budget (2,000 tokens by default); null: no token budget. */
  tokenBudget?: number | null;
  filters?: RecallFilters | null;
  /** Benchmarks compare presets; the API uses the configured default. */
  preset?: RecallPresetName;
  overrides?: RecallSettingsOverrides;
  /**
   * The time the question is asked (ISO 8601 or Date); default now. Given explicitly, memories
   * whose event time is after it are left out, and relative times in the query resolve against it.
   */
  asOf?: string | Date | null;
  /** Skip access tracking (benchmarks, previews). */
  trackAccess?: boolean;
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
  embed(texts: string[]): Promise<Float32Array[]>;
  countTokens(text: string): number;
}

/**
 * The recall orchestrator: decides which legs run, runs them concurrently, and hands the
 * results to the pure ranking pipeline (rank.ts), then rerank, filters and the token budget.
 */
export class RecallService {
  private readonly baseOverrides: RecallSettingsOverrides;
  private readonly hubThresholds: HubThresholds;

  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    config: Config,
    private readonly logger: Logger,
    private readonly accessTracker?: AccessTracker,
  ) {
    this.hubThresholds = new HubThresholds(executor);
    this.baseOverrides = {
      legs: { hints: config.HINTS_ENABLED },
      graph: { enabled: config.GRAPH_BOOST_ENABLED, boostWeight: config.GRAPH_BOOST_WEIGHT, timeoutMs: config.GRAPH_BOOST_TIMEOUT_MS },
      rerank: { enabled: config.RERANK_ENABLED, topN: config.RERANK_TOP_N, timeoutMs: config.RERANK_TIMEOUT_MS },
    };
  }

  /** The preset with the service's configuration; hints stay off in every preset unless HINTS_ENABLED. */
  settingsFor(preset: RecallPresetName = 'default', overrides: RecallSettingsOverrides = {}): RecallSettings {
    const base = resolveRecallSettings(preset, preset === 'default' ? this.baseOverrides : {});
    if (!this.baseOverrides.legs?.hints) base.legs.hints = false;
    return resolveRecallSettings('default', mergeDeep(base, overrides) as RecallSettingsOverrides);
  }

  async recall(request: RecallRequest): Promise<RecallOutcome> {
    const started = performance.now();
    const timings: Record<string, number> = {};
    const time = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        timings[stage] = round(performance.now() - t0);
      }
    };

    const query = request.query.trim();
    if (!query) throw new ValidationError('query must not be empty', { field: 'query' });
    if (query.length > MAX_QUERY_CHARS) throw new ValidationError(`query is longer than ${MAX_QUERY_CHARS} characters`, { field: 'query' });
    const settings = this.settingsFor(request.preset, request.overrides);
    const limit = request.limit ?? settings.budget.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > settings.budget.maxLimit) {
      throw new ValidationError(`limit must be between 1 and ${settings.budget.maxLimit}`, { field: 'limit' });
    }
    const tokenBudget = request.tokenBudget === undefined ? settings.budget.tokenBudget : request.tokenBudget;
    if (tokenBudget !== null && (!Number.isInteger(tokenBudget) || tokenBudget < 1 || tokenBudget > MAX_TOKEN_BUDGET)) {
      throw new ValidationError(`tokenBudget must be between 1 and ${MAX_TOKEN_BUDGET}`, { field: 'tokenBudget' });
    }
    const asOf = parseAsOf(request.asOf);
    const filters = asOf.explicit ? capOccurredBefore(request.filters ?? {}, asOf.time) : (request.filters ?? {});
    const include = { includeDeleted: !!filters.includeDeleted, includeSuperseded: !!filters.includeSuperseded };
    const fetch = limit * settings.overFetchFactor;
    const { namespace } = request;
    const token = namespaceToken(namespace);
    const luceneQuery = toLuceneQuery(query);

    const [queryVector] = settings.legs.vector || settings.rerank.enabled ? await time('embed', () => this.embedder.embed([query])) : [];
    const vectorArray = queryVector ? Array.from(queryVector) : null;
    const [vector, keyword, hints, boost, hubThreshold] = await Promise.all([
      settings.legs.vector && vectorArray ? time('vector', () => vectorLeg(this.executor, { namespace, vector: vectorArray, limit: fetch, includeDeleted: include.includeDeleted })) : [],
      settings.legs.keyword ? time('keyword', () => keywordLeg(this.executor, { namespaceToken: token, luceneQuery, limit: fetch, includeDeleted: include.includeDeleted })) : [],
      settings.legs.hints ? time('hints', () => hintLeg(this.executor, { namespaceToken: token, luceneQuery, limit: fetch, includeDeleted: include.includeDeleted })) : [],
      settings.graph.enabled
        ? time('boost', () =>
            graphBoost(this.executor, {
              namespace,
              namespaceToken: token,
              tokens: queryTokens(query).filter((t) => t.length >= 2),
              timeoutMs: settings.graph.timeoutMs,
              maxEntities: settings.graph.maxEntities,
              maxNeighbours: settings.graph.maxNeighbours,
              maxMemories: settings.graph.maxMemories,
            }),
          )
        : null,
      settings.dampening.hub.enabled ? time('hubs', () => this.hubThresholds.get(namespace, settings.dampening.hub.percentile)) : Number.POSITIVE_INFINITY,
    ]);
    if (boost?.error) this.logger.warn({ error: boost.error }, 'graph boost failed; recall continues without it');

    const legs = { vector, keyword, hints, graph: boost?.strengths ?? new Map<string, number>() };
    const memories = await time('load', () => loadRecallMemories(this.executor, candidateIds(legs), { namespace, ...include }));
    const sessionFiltered = new Map(filters.sessionId ? [...memories].filter(([, m]) => m.record.sessionId === filters.sessionId) : memories);

    const t0 = performance.now();
    const memoryFilters = { ...filters, minImportance: filters.minImportance ?? settings.filters.minImportance };
    let ranked = rankCandidates(assembleCandidates(legs, sessionFiltered), settings, { query, now: asOf.time, hubThreshold });
    timings.rank = round(performance.now() - t0);

    if (settings.context.enabled && settings.context.weight > 0 && ranked.length > 0) {
      ranked = await time('context', async () => {
        const anchors = ranked.slice(0, settings.context.anchors).map((r) => r.candidate.memoryId);
        const neighbours = await sessionNeighbours(this.executor, anchors, settings.context.window);
        const newcomers = await loadRecallMemories(this.executor, contextNewcomerIds(ranked, neighbours), { namespace, ...include });
        for (const [id, memory] of newcomers) sessionFiltered.set(id, memory);
        const candidates = new Map([...newcomers].map(([id, m]) => [id, { ...m, graphBoost: 0 }]));
        return applyContextBoost(ranked, neighbours, candidates, settings.context);
      });
    }
    ranked = applyFilters(
      ranked.filter((r) => !filters.sessionId || sessionFiltered.get(r.candidate.memoryId)?.record.sessionId === filters.sessionId),
      memoryFilters,
    );

    let reranked = ranked;
    let rerankApplied = false;
    if (settings.rerank.enabled && vectorArray && ranked.length > 1) {
      const head = ranked.slice(0, settings.rerank.topN).map((r) => r.candidate.memoryId);
      const outcome = await time('rerank', async () => {
        const vectors = await memoryVectors(this.executor, head);
        const provider = createEmbeddingReranker(vectorArray, (id) => vectors.get(id), settings.rerank);
        return rerankWithTimeout(query, ranked, provider, settings.rerank);
      });
      reranked = outcome.items;
      rerankApplied = outcome.rerankApplied;
    }

    const t1 = performance.now();
    const budget = applyTokenBudget(reranked, {
      limit,
      tokenBudget,
      countTokens: (text) => this.embedder.countTokens(text),
      priorityTypes: settings.budget.priorityTypes,
    });
    timings.budget = round(performance.now() - t1);

    const items = budget.selected.map((s) => ({
      memory: sessionFiltered.get(s.candidate.memoryId)!.record,
      score: s.score,
      tokens: s.tokens,
      explanation: s.explanation,
    }));
    if (request.trackAccess !== false) this.trackAccess(items.map((i) => i.memory.id));
    return {
      items,
      ranked: reranked,
      totalTokens: budget.totalTokens,
      budgetUsed: budget.budgetUsed,
      prompt: formatMemoryPrompt(budget.promptOrder.map((s) => sessionFiltered.get(s.candidate.memoryId)!.record)),
      boostTimedOut: boost?.timedOut ?? false,
      rerankApplied,
      timings,
      tookMs: round(performance.now() - started),
    };
  }

  /** Recall writes nothing itself: counts go to the tracker, which flushes in the background. */
  private trackAccess(ids: string[]): void {
    if (ids.length === 0) return;
    this.accessTracker?.record(ids);
  }
}

function parseAsOf(value: string | Date | null | undefined): { time: Date; explicit: boolean } {
  if (value === null || value === undefined) return { time: new Date(), explicit: false };
  const time = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(time.getTime())) throw new ValidationError('asOf must be an ISO 8601 date-time', { field: 'asOf' });
  return { time, explicit: true };
}

/**
 * A question asked at `asOf` cannot be answered by what happened after it. Times often come
 * without a zone (clients, imports), so the cut is a day after asOf: a memory of the same
 * local day is never lost to a time-zone shift.
 */
function capOccurredBefore(filters: RecallFilters, asOf: Date): RecallFilters {
  const cut = asOf.getTime() + AS_OF_GRACE_MS;
  const before = filters.occurredBefore ? Date.parse(filters.occurredBefore) : Number.POSITIVE_INFINITY;
  return before <= cut ? filters : { ...filters, occurredBefore: new Date(cut).toISOString() };
}

function mergeDeep(base: object, overrides: object): object {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) {
    const current = out[key];
    out[key] = value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' ? mergeDeep(current, value) : value;
  }
  return out;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
