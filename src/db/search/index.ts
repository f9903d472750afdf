export { SESSION_NEIGHBOURS, sessionNeighbourRows } from './context.js';
export { DUPLICATE_LINKS, openDuplicateLinks } from './duplicate-groups.js';
export { ENTITY_LEG, entityMentionMatches, type EntityMentionSearch } from './entity.js';
export { EXPAND_NEIGHBOURS, LINKED_MEMORIES, entityNeighbours, memoriesLinkedToEntities } from './graph-boost.js';
export {
  HINT_LEG,
  KEYWORD_LEG,
  hintMatches,
  keywordMatches,
  type FullTextSearch,
  type ScoredMemory,
} from './keyword.js';
export { LOAD_RECALL_MEMORIES, recallMemoryRows, type RecallLoadOptions, type RecallMemoryRow } from './load-memories.js';
export {
  NAMESPACE_SCOPE,
  SCOPED_HINTS,
  SCOPED_KEYWORD,
  SCOPED_VECTOR,
  SESSION_SCOPE,
  filteredMemoryIds,
  scopedKeywordMatches,
  scopedVectorMatches,
  type ScopeFilters,
} from './scope.js';
export { MATCH_ALIASES, MATCH_NAMES, entityNameMatches, type EntityNameMatch } from './query-entities.js';
export {
  MAX_INDEX_K,
  VECTOR_SEARCH,
  firstK,
  nearestInNamespace,
  type VectorHit,
  type VectorSearchOptions,
  type VectorSearchPath,
  type VectorSearchResult,
} from './vector.js';
