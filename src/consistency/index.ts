export { ConsistencyScope, currentScope, outsideConsistency, withConsistency } from './bookmark-scope.js';
export { BOOKMARK_HEADER, decodeBookmarkToken, encodeBookmarkToken } from './token.js';
