import { RE2JS } from 're2js';
import { z } from 'zod/v3';

/** Bounds on operator-supplied patterns: each runs over every stored string. */
export const MAX_EXTRA_PATTERNS = 50;
export const MAX_EXTRA_PATTERN_CHARS = 500;
/** `g` is always added by the redactor; `y` would anchor matches, `d` is of no use here. */
const ALLOWED_FLAGS = /^[imsu]*$/;

const pattern = z.object({
  kind: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'UPPER_SNAKE, at most 64 characters'),
  pattern: z.string().min(1).max(MAX_EXTRA_PATTERN_CHARS),
  flags: z.string().regex(ALLOWED_FLAGS, 'flags among i, m, s, u').optional(),
});

export type ExtraPatternConfig = z.output<typeof pattern>;

const RE2_FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, s: RE2JS.DOTALL, m: RE2JS.MULTILINE, u: 0, g: 0 };

/**
 * An operator's pattern, matched by RE2 (re2js, a pure-JavaScript port: time linear in the input
 * whatever the pattern, no backtracking). It is a RegExp for its source and flags, but replacing
 * with it (all the redactor does) runs RE2; exec/test are refused rather than left to backtrack.
 * Throws when the pattern uses what RE2 cannot run in linear time (backreferences, lookaround).
 */
export class LinearRegExp extends RegExp {
  private readonly re2: RE2JS;

  constructor(source: string, flags = 'g') {
    super(source, flags);
    this.re2 = RE2JS.compile(
      RE2JS.translateRegExp(source),
      [...flags].reduce((bits, f) => bits | (RE2_FLAGS[f] ?? 0), 0),
    );
  }

  override exec(): RegExpExecArray | null {
    throw new Error('LinearRegExp only replaces; exec would run the backtracking engine');
  }

  /** Every match (empty ones included, as String.prototype.replace with a global RegExp) goes to `replacer`. */
  override [Symbol.replace](input: string, replacer: string | ((match: string, ...rest: unknown[]) => string)): string {
    const matcher = this.re2.matcher(input);
    let out = '';
    let last = 0;
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      const match = input.slice(start, end);
      const groups = Array.from({ length: matcher.groupCount() }, (_, i) => matcher.group(i + 1) ?? undefined);
      out += input.slice(last, start) + (typeof replacer === 'function' ? replacer(match, ...groups, start, input) : replacer);
      last = end;
      if (!this.global) break;
    }
    return out + input.slice(last);
  }
}

/**
 * Why a pattern may not run on user input, or null when it may: it must compile as a JavaScript
 * regular expression and in RE2, which then matches it in linear time (so nested quantifiers
 * are harmless; backreferences and lookaround, which need backtracking, are refused).
 */
export function extraPatternProblem({ pattern: source, flags }: ExtraPatternConfig): string | null {
  try {
    new RegExp(source, `${flags ?? ''}g`);
  } catch {
    return 'is not a valid JavaScript regular expression';
  }
  try {
    new LinearRegExp(source, `${flags ?? ''}g`);
  } catch {
    return 'needs backtracking (a backreference or lookaround) that the linear-time engine (RE2) does not run; rewrite it without';
  }
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
      ctx.addIssue({
        code: 'custom',
        message: `a JSON array of at most ${MAX_EXTRA_PATTERNS} {"kind":"UPPER_SNAKE","pattern":"regex (≤ ${MAX_EXTRA_PATTERN_CHARS} chars)","flags":"imsu"}`,
      });
      return z.NEVER;
    }
    for (const [index, entry] of result.data.entries()) {
      const problem = extraPatternProblem(entry);
      // The pattern itself is not echoed: an invalid one can be huge, and it is the operator's own.
      if (problem) ctx.addIssue({ code: 'custom', message: `pattern ${index} (${entry.kind}) ${problem}` });
    }
    return result.data;
  });
