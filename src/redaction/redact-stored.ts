/**
 * The one place every stored string other than a memory's content passes the redactor: short
 * fields (tags, source, externalId, sessionId, who, why), metadata (every key and string leaf),
 * audit reasons and details, and text a model derives (facts, entity names, reasons, hints).
 * These never refuse a write: what can be masked is masked, an announced secret without a value
 * has nothing to leak. The process-wide settings are those of `remember` (configured at start-up).
 */
import { compileExtraPatterns, redactSecrets, type Redaction, type RedactionOptions } from './redact.js';
import { classifyStructuredKey } from './secret-keys.js';

let settings: RedactionOptions = {};

/** Sets the redaction settings for stored fields; validates the extra patterns (throws on a bad one). */
export function configureStoredRedaction(options: RedactionOptions): void {
  compileExtraPatterns(options.extraPatterns ?? []);
  settings = options;
}

/** Counts the kinds found while redacting several fields. */
export class RedactionTally {
  private readonly counts = new Map<string, number>();

  add(redactions: readonly Redaction[]): void {
    for (const r of redactions) this.counts.set(r.kind, (this.counts.get(r.kind) ?? 0) + r.count);
  }

  list(): Redaction[] {
    return [...this.counts].map(([kind, count]) => ({ kind, count }));
  }
}

/** `text` with its secrets masked; never throws PiiRejectedError. */
export function redactStored(text: string, options: RedactionOptions = settings, tally?: RedactionTally): string {
  const result = redactSecrets(text, { ...options, rejectUnmaskable: false });
  tally?.add(result.redactions);
  return result.text;
}

export function redactStoredOrNull(
  text: string | null | undefined,
  options: RedactionOptions = settings,
  tally?: RedactionTally,
): string | null {
  return text == null ? null : redactStored(text, options, tally);
}

/**
 * A JSON value with every object key and string leaf redacted; numbers, booleans and null unchanged.
 * A value under a key that names a secret (`db_password`, `apiKey`, `token`, `auth`, `credentials`…,
 * at any depth) is masked whole, whatever it looks like: each leaf alone would not say it is one.
 */
export function redactJsonValue(value: unknown, options: RedactionOptions = settings, tally?: RedactionTally): unknown {
  if (typeof value === 'string') return redactStored(value, options, tally);
  if (Array.isArray(value)) return value.map((v) => redactJsonValue(v, options, tally));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const enabled = options.enabled ?? true;
    for (const [k, v] of Object.entries(value)) {
      const named = enabled ? classifyStructuredKey(k) : null;
      out[redactStored(k, options, tally)] = named ? maskWhole(v, named.kind, tally) : redactJsonValue(v, options, tally);
    }
    return out;
  }
  return value;
}

/** Every string and number leaf of `value` replaced by `[KIND]`. */
function maskWhole(value: unknown, kind: string, tally?: RedactionTally): unknown {
  if (typeof value === 'string') {
    if (value === '' || /^\[[A-Z][A-Z0-9_]*\]$/.test(value)) return value;
    tally?.add([{ kind, count: 1 }]);
    return `[${kind}]`;
  }
  // Numbers too (a PIN), except under a token name, where they are counts or ids (`tokens: 512`).
  if (typeof value === 'number' && kind !== 'TOKEN') {
    tally?.add([{ kind, count: 1 }]);
    return `[${kind}]`;
  }
  if (Array.isArray(value)) return value.map((v) => maskWhole(v, kind, tally));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskWhole(v, kind, tally)]));
  return value;
}

/** A serialized JSON object (as stored in `metadata`) with its keys and string leaves redacted. */
export function redactJsonString(json: string | null, options: RedactionOptions = settings, tally?: RedactionTally): string | null {
  if (json === null) return null;
  return JSON.stringify(redactJsonValue(JSON.parse(json), options, tally));
}
