/**
 * The server shell every transport shares: what one HTTP request carries in and out — its id,
 * the principal admission found, a header's value, its bookmark chain — and the chain itself.
 */
export { headerValue, principalOf, setPrincipal } from './principal.js';
export { requestIdMiddleware, requestIdOf } from './request-id.js';
export { bookmarkChainOf, bookmarkPlugin, bookmarkScopeMiddleware, bookmarkTokenOf } from './bookmarks.js';
export { BOOKMARK_HEADER, ConsistencyScope, withConsistency } from '../consistency/index.js';
