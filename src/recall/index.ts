export type {
  EntityMention,
  FusionMethod,
  LegExplanation,
  LegScore,
  RankedCandidate,
  RecallCandidate,
  RecallMemory,
  ScoreExplanation,
} from './types.js';
export {
  DEFAULT_RECALL_SETTINGS,
  isRecallRecipeName,
  parseRecallSettings,
  RECALL_RECIPE_NAMES,
  RECALL_RECIPES,
  recallSettingsFromEnv,
  recallSettingsSchema,
  resolveRecallSettings,
  type KeywordNormalization,
  type MissingLegPolicy,
  type RecallRecipeName,
  type RecallSettings,
  type RecallSettingsOverrides,
} from './settings/index.js';
export { escapeLuceneTerm, MAX_LUCENE_TERMS, queryTokens, STOP_WORDS, toLuceneQuery } from '../text/index.js';
export { assembleCandidates, candidateIds, type LegHit, type LegResults } from './candidates.js';
export { fuseScores, type FusedCandidate } from './fusion.js';
export { hubThreshold } from './dampening.js';
export { rankCandidates, type RankContext } from './rank.js';
export {
  applyLearnedRank,
  LEARNED_RANK_FEATURES,
  learnedLogit,
  learnedRankFeatures,
  type FeatureWeight,
  type LearnedRankFeature,
  type LearnedRankModel,
} from './learned-rank.js';
export { LEARNED_RANK_FITTED_ON, LEARNED_RANK_MODEL } from './learned-rank-weights.js';
export {
  cosineSimilarity,
  createEmbeddingReranker,
  rerankWithTimeout,
  type RerankInput,
  type RerankOptions,
  type RerankOutcome,
  type RerankProvider,
  type RerankScore,
} from './rerank.js';
export { applyFilters, passesFilters, type MemoryFilters } from './filters.js';
export { applyTokenBudget, type TokenBudgetOptions, type TokenBudgetResult } from './budget.js';
export { formatMemoryPrompt, type PromptMemory } from './prompt.js';
export { snippet, toIndexEntry, type IndexEntry } from './disclosure.js';
export { AccessTracker, type AccessTrackerSettings, type AccessTrackerStats } from './access-tracker.js';
export { DisclosureService } from './disclosure-service.js';
export { RecallService } from './recall-service.js';
export { type RecallItemView } from './recall-service.js';
