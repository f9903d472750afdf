import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestHandler } from 'express';
import type { MnemographError } from '../errors.js';
import { ConsistencyScope, currentScope, withConsistency } from './bookmark-scope.js';
import { BOOKMARK_HEADER, decodeBookmarkToken, encodeBookmarkToken } from './token.js';

/**
 * Gives each request its own bookmark chain, started from the token the client sent back (if
 * any). Mount after the body parser: the parser's stream callbacks would lose the scope.
 */
export function bookmarkScopeMiddleware(): RequestHandler {
  return (req, res, next) => {
    const raw = req.headers[BOOKMARK_HEADER];
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    let initial: string[] = [];
    try {
      if (value !== undefined) initial = decodeBookmarkToken(value.trim());
    } catch (error) {
      const { code, message } = error as MnemographError;
      res.status(400).json({ errors: [{ message, extensions: { code } }] });
      return;
    }
    withConsistency(new ConsistencyScope(initial), () => next());
  };
}

/** Every response carries the chain's bookmark: in a header and in `extensions.bookmark`. */
export function bookmarkPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          const scope = currentScope();
          if (!scope) return;
          const bookmarks = await scope.bookmarks();
          if (bookmarks.length === 0) return;
          const token = encodeBookmarkToken(bookmarks);
          response.http.headers.set(BOOKMARK_HEADER, token);
          if (response.body.kind === 'single') {
            const result = response.body.singleResult;
            result.extensions = { ...result.extensions, bookmark: token };
          }
        },
      };
    },
  };
}
