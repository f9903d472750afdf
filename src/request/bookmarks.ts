import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestHandler } from 'express';
import {
  BOOKMARK_HEADER,
  ConsistencyScope,
  currentScope,
  decodeBookmarkToken,
  encodeBookmarkToken,
  withConsistency,
} from '../consistency/index.js';
import type { MnemographError } from '../errors.js';

/**
 * The bookmark chain a request names in its `x-mnemograph-bookmark` header (a new one without it);
 * BAD_USER_INPUT when the header is not a token this service made.
 */
export function bookmarkChainOf(req: { headers: Record<string, string | string[] | undefined> }): ConsistencyScope {
  const raw = req.headers[BOOKMARK_HEADER];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  return new ConsistencyScope(value === undefined ? [] : decodeBookmarkToken(value.trim()));
}

/** The token a response carries for its chain (header, `_meta` or `extensions`), or null before any write or read. */
export async function bookmarkTokenOf(scope: ConsistencyScope): Promise<string | null> {
  const bookmarks = await scope.bookmarks();
  return bookmarks.length === 0 ? null : encodeBookmarkToken(bookmarks);
}

/**
 * Gives each request its own bookmark chain, started from the token the client sent back (if
 * any). Mount after the body parser: the parser's stream callbacks would lose the scope.
 */
export function bookmarkScopeMiddleware(): RequestHandler {
  return (req, res, next) => {
    let scope: ConsistencyScope;
    try {
      scope = bookmarkChainOf(req);
    } catch (error) {
      const { code, message } = error as MnemographError;
      res.status(400).json({ errors: [{ message, extensions: { code } }] });
      return;
    }
    withConsistency(scope, () => next());
  };
}

/** Every response carries the chain's bookmark: in a header and in `extensions.bookmark`. */
export function bookmarkPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          const scope = currentScope();
          const token = scope ? await bookmarkTokenOf(scope) : null;
          if (!token) return;
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
