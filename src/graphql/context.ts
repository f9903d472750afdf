import type { Caller } from '../api/index.js';

/** One GraphQL request: the caller, resolved once when the request arrives (src/api). */
export interface GraphQLContext {
  caller: Caller;
}
