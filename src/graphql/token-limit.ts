import type { RequestHandler } from 'express';
import { assertTokenLimit } from './query-limits.js';

/**
 * MAX_QUERY_TOKENS before Apollo parses the document (GET query string or JSON body), so a
 * document of millions of tokens costs the lexer only up to the limit.
 */
export function tokenLimit(maxTokens: number): RequestHandler {
  return (req, _res, next) => {
    const body: unknown = req.body;
    const fromBody = typeof body === 'object' && body !== null ? (body as { query?: unknown }).query : undefined;
    const source = typeof fromBody === 'string' ? fromBody : typeof req.query.query === 'string' ? req.query.query : undefined;
    if (source === undefined) return next();
    try {
      assertTokenLimit(source, maxTokens);
      next();
    } catch (error) {
      next(error);
    }
  };
}
