import { z } from 'zod';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from './budget.js';

/** Arguments every tool shares. */
export const namespace = z
  .string()
  .optional()
  .describe('Tenant scope; the server default when absent. Your API key decides which you may use.');
export const maxTokensWithDefault = (byDefault: number) =>
  z
    .number()
    .int()
    .min(MIN_MAX_TOKENS)
    .max(MAX_MAX_TOKENS)
    .default(byDefault)
    .describe(`Upper bound on the answer's size in tokens (default ${byDefault}).`);
export const maxTokens = maxTokensWithDefault(DEFAULT_MAX_TOKENS);
