import type { ComponentChildren } from 'preact';
import type { ApiError } from './api';
import { MEMORY_TYPES } from './queries';

export function ErrorBox({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      <code>{error.code}</code> {error.message}
    </p>
  );
}

/** A lookup by id: its error, that it is loading, or that no readable record has that id. */
export function LookupState({
  error,
  loading,
  missing,
  what,
  id,
}: {
  error: ApiError | null;
  loading: boolean;
  missing: boolean;
  what: string;
  id: string;
}) {
  return (
    <>
      <ErrorBox error={error} />
      <Loading when={loading} />
      {missing ? (
        <p data-testid="not-found">
          No {what} {id} in a namespace this key can read.
        </p>
      ) : null}
    </>
  );
}

export function Tags({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <div class="tags">
      {tags.map((t) => (
        <Chip>{t}</Chip>
      ))}
    </div>
  );
}

export function Loading({ when }: { when: boolean }) {
  return when ? (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  ) : null;
}

/** `2026-11-24 18:43` (UTC): sortable, and the same for every viewer. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  return <time dateTime={at}>{at.slice(0, 16).replace('T', ' ')}</time>;
}

export function Chip({ children, kind }: { children: ComponentChildren; kind?: string }) {
  return <span class={`chip${kind ? ` chip-${kind}` : ''}`}>{children}</span>;
}

/** A horizontal bar for a value in [0, max]; the number is always printed beside it. */
export function Bar({ label, value, max = 1, kind }: { label: string; value: number | null | undefined; max?: number; kind?: string }) {
  const shown = value ?? 0;
  const width = Math.max(0, Math.min(1, max > 0 ? shown / max : 0)) * 100;
  return (
    <div class="bar-row">
      <span class="bar-label">{label}</span>
      <span class="bar-track" aria-hidden="true">
        <span class={`bar-fill${kind ? ` bar-${kind}` : ''}`} style={{ width: `${width}%` }} />
      </span>
      <span class="bar-value">{value === null || value === undefined ? '—' : shown.toFixed(3)}</span>
    </div>
  );
}

// Redaction leaves `[KIND]` (UPPER_SNAKE) where a secret was; one bounded, linear pattern. The
// <memory> block marks each memory's type the same way ([DECISION]): those are not redactions.
const PLACEHOLDER = /\[([A-Z][A-Z0-9_]{1,39})\]/g;
const TYPE_MARKERS = new Set(MEMORY_TYPES.map((t) => t.toUpperCase()));
const placeholders = (text: string) => [...text.matchAll(PLACEHOLDER)].filter((m) => !TYPE_MARKERS.has(m[1]!));

/** The kinds of secret redacted from a text, with how often each appears. */
export function redactionKinds(text: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const match of placeholders(text)) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Stored text with its redaction placeholders marked; the text is never parsed as HTML. */
export function StoredText({ text }: { text: string }) {
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of placeholders(text)) {
    parts.push(text.slice(last, match.index));
    parts.push(
      <mark class="redacted" title={`redacted ${match[1]}`}>
        {match[0]}
      </mark>,
    );
    last = match.index! + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

export function Section({ title, children, count }: { title: string; children: ComponentChildren; count?: number }) {
  return (
    <section class="panel" aria-label={title}>
      <h2>
        {title}
        {count !== undefined ? <span class="count"> ({count})</span> : null}
      </h2>
      {children}
    </section>
  );
}
