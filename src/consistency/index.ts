export { ConsistencyScope, currentScope, outsideConsistency, withConsistency } from './scope.js';
export { BOOKMARK_HEADER, decodeBookmarkToken, encodeBookmarkToken } from './token.js';
