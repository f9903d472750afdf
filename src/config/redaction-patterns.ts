import { createRequire } from 'node:module';
import { z } from 'zod';

const safeRegex = createRequire(import.meta.url)('safe-regex2') as (re: RegExp | string, opts?: { limit?: number }) => boolean;

/** Bounds on operator-supplied patterns: each runs over every stored string. */
export const MAX_EXTRA_PATTERNS = 50;
export const MAX_EXTRA_PATTERN_CHARS = 500;
/** Quantifiers per pattern that safe-regex2 accepts (its default is 25). */
const MAX_REPETITIONS = 25;
/** `g` is always added by the redactor; `y` would anchor matches, `d` is of no use here. */
const ALLOWED_FLAGS = /^[imsu]*$/;

const pattern = z.object({
  kind: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'UPPER_SNAKE, at most 64 characters'),
  pattern: z.string().min(1).max(MAX_EXTRA_PATTERN_CHARS),
  flags: z.string().regex(ALLOWED_FLAGS, 'flags among i, m, s, u').optional(),
});

export type ExtraPatternConfig = z.output<typeof pattern>;

/**
 * Why a pattern may not run on user input, or null when it may: it must compile, and
 * safe-regex2 must find no nested quantifier (star height above 1, the classic exponential
 * backtracking shape) and at most MAX_REPETITIONS quantifiers.
 */
export function extraPatternProblem({ pattern: source, flags }: ExtraPatternConfig): string | null {
  let regex: RegExp;
  try {
    regex = new RegExp(source, `${flags ?? ''}g`);
  } catch {
    return 'is not a valid JavaScript regular expression';
  }
  if (!safeRegex(regex, { limit: MAX_REPETITIONS })) return 'may take super-linear time (nested or too many quantifiers); rewrite it without a quantified group that itself repeats';
  return null;
}

/** REDACTION_EXTRA_PATTERNS: a JSON array, every pattern compiled and checked once, at start-up. */
export const extraPatternsSchema = z
  .string()
  .default('[]')
  .transform((s, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'a JSON array of {"kind":"UPPER_SNAKE","pattern":"regex","flags":"i"}' });
      return z.NEVER;
    }
    const result = z.array(pattern).max(MAX_EXTRA_PATTERNS).safeParse(parsed);
    if (!result.success) {
      ctx.addIssue({ code: 'custom', message: `a JSON array of at most ${MAX_EXTRA_PATTERNS} {"kind":"UPPER_SNAKE","pattern":"regex (≤ ${MAX_EXTRA_PATTERN_CHARS} chars)","flags":"imsu"}` });
      return z.NEVER;
    }
    for (const [index, entry] of result.data.entries()) {
      const problem = extraPatternProblem(entry);
      // The pattern itself is not echoed: an invalid one can be huge, and it is the operator's own.
      if (problem) ctx.addIssue({ code: 'custom', message: `pattern ${index} (${entry.kind}) ${problem}` });
    }
    return result.data;
  });
