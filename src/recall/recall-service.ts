import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import type { MemoryRecord } from '../db/index.js';
import type { Logger } from '../logger.js';
import type { AccessTracker } from './access-tracker.js';
import { assembleCandidates, candidateIds } from './candidates.js';
import { planRecall, type RecallFilters, type RecallPlan } from './plan.js';
import {
  recallSettingsFromEnv,
  resolveRecallSettings,
  type RecallEnvironment,
  type RecallRecipeName,
  type RecallSettings,
  type RecallSettingsOverrides,
} from './settings/index.js';
import { StageTimer } from './stage-timer.js';
import { applyTokenBudget } from './stages/budget.js';
import { collapseStage } from './stages/collapse-duplicates.js';
import { contextStage, contextWindow, sessionNeighbours } from './stages/context.js';
import { embedQuery, type QueryEmbedder } from './stages/embed-query.js';
import { applyFilters } from './stages/filter.js';
import { hydrate } from './stages/hydrate.js';
import { formatMemoryPrompt } from './stages/prompt.js';
import { rescoreKeywordHits } from './stages/keyword-rescore.js';
import { rankCandidates } from './stages/rank.js';
import { rerankStage } from './stages/rerank.js';
import { retrieve } from './stages/retrieve.js';
import { filterScope, shouldWiden, widen } from './stages/scope.js';
import { needsStoreSize, readStoreSize } from './stages/store-size.js';
import { runRankedStage, type RankedStage, type RecallRun } from './stages/stage.js';
import type { RankedCandidate, ScoreExplanation } from './types.js';

export type { RecallFilters } from './plan.js';

/** A question that reaches every leg (words for the keyword and entity legs). */
const WARM_UP_QUESTION = 'What did we decide about the project plan last week?';

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
   * whose event time is after it are left out.
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
  /** Whether the rerank stage ran on this request. */
  rerankApplied: boolean;
  timings: Record<string, number>;
  tookMs: number;
}

interface TextEmbedder extends QueryEmbedder {
  countTokens(text: string): number;
}

/**
 * The stages that take the ranking and hand one on, after the candidates are ranked, in the
 * order they run (src/recall/stages/, one file each: its settings section, its statement, its
 * explanation field and its failure rule).
 */
const HEAD_STAGES: readonly BoundStage[] = [bind(rerankStage, (s) => s.rerank), bind(collapseStage, () => null)];

interface BoundStage {
  name: string;
  run(ranked: RankedCandidate[], run: RecallRun, settings: RecallSettings): Promise<RankedCandidate[]>;
}

/** A stage with the settings section it reads. */
function bind<S>(stage: RankedStage<S>, section: (settings: RecallSettings) => S): BoundStage {
  return { name: stage.name, run: (ranked, run, settings) => runRankedStage(stage, section(settings), ranked, run) };
}

/**
 * The recall orchestrator: it decides what runs (from settings resolved once per request) and
 * hands data from stage to stage; the work is in the stages. In order:
 *
 *   plan → embed-query → scope → [retrieve (legs + graph boost; the store's size beside them) → hydrate →
 *   keyword re-scoring → rank → sessions → context → filter]
 *   (again, wider, while the filters leave fewer than the limit: stages/scope.ts) → rerank →
 *   collapse near-duplicates → budget → prompt
 *
 * Failure rules (each stage's file says its own): a leg that fails counts as empty unless every
 * leg failed; an embedding failure leaves the keyword legs; a failed scope widens instead; the
 * graph boost, context, rerank and the near-duplicate collapse keep what came in (invariant 3);
 * hydration failing fails the recall (nothing to rank).
 */
export class RecallService {
  private readonly defaultSettings: RecallSettings;

  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    private readonly config: RecallEnvironment,
    private readonly logger: Logger,
    private readonly accessTracker?: AccessTracker,
  ) {
    this.defaultSettings = resolveRecallSettings('default', recallSettingsFromEnv(config, 'default'));
  }

  /** The recipe with the service's configuration (recallSettingsFromEnv), then the request's overrides. */
  settingsFor(recipe: RecallRecipeName = 'default', overrides: RecallSettingsOverrides = {}): RecallSettings {
    if (recipe === 'default' && Object.keys(overrides).length === 0) return this.defaultSettings;
    return resolveRecallSettings(recipe, recallSettingsFromEnv(this.config, recipe), overrides);
  }

  /**
   * Start-up warm-up, writing nothing: one recall on `namespace` (no access tracking), then
   * hydration and the context stage's read for an id that does not exist (an empty namespace gives
   * the recall no candidate), so the model has run and every statement of the default path is
   * planned before the first request.
   */
  async warmUp(namespace: string): Promise<void> {
    await this.recall({ query: WARM_UP_QUESTION, namespace, trackAccess: false });
    const [vector] = await this.embedder.embed([WARM_UP_QUESTION]);
    const include = { includeDeleted: false, includeSuperseded: false, includeCompressed: false };
    const run = { executor: this.executor, logger: this.logger, namespace, include, vector: vector ? Array.from(vector) : null };
    const id = randomUUID();
    await hydrate(run, [id]);
    await sessionNeighbours({ ...run, memories: new Map() }, [id], Math.max(1, contextWindow(this.defaultSettings.context)));
  }

  async recall(request: RecallRequest): Promise<RecallOutcome> {
    const timer = new StageTimer();
    const plan = planRecall(request, this.settingsFor(request.recipe, request.overrides));
    const { settings } = plan;
    const vector = await embedQuery(
      this.embedder,
      plan.query,
      { vector: settings.legs.vector || settings.rerank.enabled, keywordLegs: settings.legs.keyword || settings.legs.hints },
      timer,
      this.logger,
    );
    const run: RecallRun = {
      executor: this.executor,
      logger: this.logger,
      timer,
      query: plan.query,
      namespace: plan.namespace,
      include: plan.include,
      vector,
      memories: new Map(),
    };
    let ranked = await this.rankedCandidates(plan, run);
    const rerankApplied = rerankStage.enabled(settings.rerank, ranked, run);
    for (const stage of HEAD_STAGES) ranked = await stage.run(ranked, run, settings);
    if (request.rankOnly) {
      return {
        items: [],
        ranked,
        totalTokens: 0,
        budgetUsed: 0,
        prompt: '',
        rerankApplied,
        timings: timer.timings,
        tookMs: timer.elapsed(),
      };
    }

    const budget = timer.runSync('budget', () =>
      applyTokenBudget(ranked, {
        limit: plan.limit,
        tokenBudget: plan.tokenBudget,
        countTokens: (text) => this.embedder.countTokens(text),
        priorityTypes: settings.budget.priorityTypes,
        preferenceSlots: settings.budget.preferenceSlots,
      }),
    );
    const record = (id: string) => run.memories.get(id)!.record;
    const items = budget.selected.map((s) => ({
      memory: record(s.candidate.memoryId),
      score: s.score,
      tokens: s.tokens,
      explanation: s.explanation,
    }));
    if (request.trackAccess !== false && items.length > 0) this.accessTracker?.record(items.map((i) => i.memory.id));
    return {
      items,
      ranked,
      totalTokens: budget.totalTokens,
      budgetUsed: budget.budgetUsed,
      prompt: formatMemoryPrompt(budget.promptOrder.map((s) => record(s.candidate.memoryId))),
      rerankApplied,
      timings: timer.timings,
      tookMs: timer.elapsed(),
    };
  }

  /**
   * Retrieve → hydrate → rank → context → filter, wider while the filters leave fewer than the
   * limit and a leg has more to give (stages/scope.ts).
   */
  private async rankedCandidates(plan: RecallPlan, run: RecallRun): Promise<RankedCandidate[]> {
    const { settings, filters } = plan;
    // The namespace's size, read beside the legs when the ranking uses it (stages/store-size.ts).
    const size = needsStoreSize(settings) ? readStoreSize(run) : Promise.resolve(null);
    const scope = plan.scoped ? await this.scope(plan, run) : null;
    let fetch = plan.fetch;
    for (;;) {
      const legs = await retrieve(run, settings, { fetch, scope });
      run.memories = await run.timer.run('load', () => hydrate(run, candidateIds(legs)));
      const store = await size;
      legs.keyword = await rescoreKeywordHits(run, legs.keyword, store, settings.keywordStats);
      const assembled = assembleCandidates(legs, run.memories);
      const context = { timeWindow: plan.timeWindow };
      let ranked = run.timer.runSync('rank', () => rankCandidates(assembled, settings, context));
      ranked = await runRankedStage(contextStage, settings.context, ranked, run);
      const inSession = filters.sessionId
        ? ranked.filter((r) => run.memories.get(r.candidate.memoryId)?.record.sessionId === filters.sessionId)
        : ranked;
      ranked = applyFilters(inSession, plan.memoryFilters);
      if (!shouldWiden(ranked.length, plan.limit, legs, fetch)) return ranked;
      fetch = widen(fetch);
    }
  }

  /** The memories that pass the request's filters when they are few enough to list; else null (widening instead). */
  private async scope(plan: RecallPlan, run: RecallRun): Promise<string[] | null> {
    try {
      return await run.timer.run('scope', () => filterScope(this.executor, plan));
    } catch (error) {
      this.logger.warn({ error }, 'filter scope unavailable; recall widens the legs instead');
      return null;
    }
  }
}
