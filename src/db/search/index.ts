export { openDuplicateLinks } from './duplicate-groups.js';
export { namedEntityMemories, type NamedEntityRow } from './entity.js';
export { entityNeighbours, memoriesLinkedToEntities } from './graph-boost.js';
export { hintMatches, keywordMatches } from './keyword.js';
export { recallCandidateRows, recallContextRows, recallMemoryRows, type RecallLoadOptions } from './load-memories.js';
export { namespaceSize, termDocumentFrequencies, type NamespaceSize } from './namespace-stats.js';
export { filteredMemoryIds, scopedKeywordMatches, scopedVectorMatches } from './scope.js';
export { nearestInNamespace } from './vector.js';
