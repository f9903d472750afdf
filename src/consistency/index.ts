export { ConsistencyScope, currentScope, outsideConsistency, withConsistency } from './scope.js';
export { BOOKMARK_HEADER, decodeBookmarkToken, encodeBookmarkToken, MAX_BOOKMARK_TOKEN_CHARS } from './token.js';
