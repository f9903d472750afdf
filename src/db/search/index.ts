export { sessionNeighbourRows } from './context.js';
export { openDuplicateLinks } from './duplicate-groups.js';
export { entityMentionMatches } from './entity.js';
export { entityNeighbours, memoriesLinkedToEntities } from './graph-boost.js';
export { hintMatches, keywordMatches } from './keyword.js';
export { recallMemoryRows, type RecallLoadOptions } from './load-memories.js';
export { filteredMemoryIds, scopedKeywordMatches, scopedVectorMatches } from './scope.js';
export { entityNameMatches } from './query-entities.js';
export { nearestInNamespace } from './vector.js';
