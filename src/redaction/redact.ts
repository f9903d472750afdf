/**
 * PII and secret redaction (masked where a span is found, rejected where only a keyword is) before anything is stored,
 * hashed or embedded. Secrets are replaced by `[KIND]` placeholders; only kinds and counts come
 * back, never the secret text, so nothing downstream (responses, logs, history) can leak it.
 * Output is stable under a second pass: placeholders are never matched again.
 */
import { LinearRegExp } from './extra-patterns.js';
import { ValidationError } from '../errors.js';
import { EMAIL_PATTERN, POST_ASSIGNMENT_PATTERNS, PRE_ASSIGNMENT_PATTERNS, type SpanPattern } from './redact-patterns.js';
import { redactAssignments } from './secret-assignments.js';
import { codeSecrets } from './secret-codes.js';

export interface ExtraRedactionPattern {
  /** UPPER_SNAKE; the placeholder becomes `[KIND]`. */
  kind: string;
  /** Regex source, e.g. "ACME-[0-9]{6}". */
  pattern: string;
  /** Regex flags; "g" is always added. */
  flags?: string;
}

export interface RedactionOptions {
  enabled?: boolean;
  redactEmails?: boolean;
  extraPatterns?: readonly ExtraRedactionPattern[];
  /** Refuse text that announces a secret without its value (PiiRejectedError); default true. */
  rejectUnmaskable?: boolean;
}

export interface Redaction {
  kind: string;
  count: number;
}

export interface RedactionResult {
  text: string;
  /** One entry per kind that was found, in pipeline order. */
  redactions: Redaction[];
}

export const DEFAULT_REDACTION_ENABLED = true;
export const DEFAULT_REDACT_EMAILS = true;

const KIND = /^[A-Z][A-Z0-9_]*$/;
/** Characters before a match a pattern's `accept` may read (bounded, so every pattern stays linear). */
const BEFORE_WINDOW = 300;

/**
 * Masks secrets in `text`. Throws PiiRejectedError when a secret is announced but its value
 * cannot be found to mask, and ValidationError for a bad extra pattern. With `enabled: false`
 * the text is returned untouched and nothing is rejected.
 */
export function redactSecrets(text: string, options: RedactionOptions = {}): RedactionResult {
  const extras = compiledExtras(options.extraPatterns ?? []);
  if (!(options.enabled ?? DEFAULT_REDACTION_ENABLED)) return { text, redactions: [] };
  const redactEmails = options.redactEmails ?? DEFAULT_REDACT_EMAILS;
  const counts = new Map<string, number>();
  const add = (kind: string, n: number) => {
    if (n > 0) counts.set(kind, (counts.get(kind) ?? 0) + n);
  };

  let out = text;
  for (const p of PRE_ASSIGNMENT_PATTERNS) out = applyPattern(out, p, add);
  // Codes before key=value: a numbered seed phrase ("1. legal 2. winner …") is the code rules' whole.
  out = maskSpans(out, codeSecrets(out), add);
  const assigned = redactAssignments(out, options.rejectUnmaskable ?? true);
  out = assigned.text;
  for (const [kind, n] of assigned.counts) add(kind, n);
  for (const p of POST_ASSIGNMENT_PATTERNS) {
    if (p === EMAIL_PATTERN && !redactEmails) continue;
    out = applyPattern(out, p, add);
  }
  for (const p of extras) out = applyPattern(out, p, add);
  return { text: out, redactions: [...counts].map(([kind, count]) => ({ kind, count })) };
}

/** Masks spans in text order, the later of two overlapping ones left as it is. */
function maskSpans(text: string, spans: ReturnType<typeof codeSecrets>, add: (kind: string, n: number) => void): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    out += `${text.slice(at, s.start)}[${s.kind}]`;
    at = s.end;
    add(s.kind, 1);
  }
  return out + text.slice(at);
}

function applyPattern(text: string, p: SpanPattern, add: (kind: string, n: number) => void): string {
  let n = 0;
  const out = text.replace(p.regex, (match: string, ...groups: unknown[]) => {
    if (match.length === 0) return match;
    const prefix = p.keepPrefix ? String(groups[0] ?? '') : '';
    const secret = match.slice(prefix.length);
    const offset = groups.find((g) => typeof g === 'number') as number;
    if (p.accept && !p.accept(secret, prefix, text.slice(Math.max(0, offset - BEFORE_WINDOW), offset))) return match;
    n += 1;
    return `${prefix}[${p.kind}]`;
  });
  add(p.kind, n);
  return out;
}

const compiled = new WeakMap<readonly ExtraRedactionPattern[], SpanPattern[]>();

/** Configured patterns are compiled once per list, not on every call. */
function compiledExtras(extras: readonly ExtraRedactionPattern[]): SpanPattern[] {
  if (extras.length === 0) return [];
  let patterns = compiled.get(extras);
  if (!patterns) compiled.set(extras, (patterns = compileExtraPatterns(extras)));
  return patterns;
}

/** Validates and compiles configured patterns; the error names the offending pattern. */
export function compileExtraPatterns(extras: readonly ExtraRedactionPattern[]): SpanPattern[] {
  return extras.map(({ kind, pattern, flags }) => {
    if (!KIND.test(kind)) {
      throw new ValidationError(`redaction pattern kind "${kind}" must be UPPER_SNAKE (e.g. EMPLOYEE_ID)`, { kind, pattern });
    }
    const allFlags = [...new Set(`${flags ?? ''}g`)].join('');
    try {
      // Operators' patterns run on RE2 (linear time), never on the backtracking engine.
      return { kind, regex: new LinearRegExp(pattern, allFlags) };
    } catch (error) {
      throw new ValidationError(
        `redaction pattern for ${kind} is not a valid regular expression: /${pattern}/${flags ?? ''} (${(error as Error).message})`,
        {
          kind,
          pattern,
          flags,
        },
      );
    }
  });
}
