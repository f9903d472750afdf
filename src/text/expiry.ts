import * as chrono from 'chrono-node';

/**
 * When a time-bound memory stops being true, read from its own words against the time it
 * happened: "tomorrow" (the end of the day after), "at 3pm" (that instant), "through Friday"
 * (the end of that Friday), "until 2026-12-01", "next Monday"… A phrase with a clock time ends at
 * that time; a phrase naming only a day ends at the end of that day (UTC). When a memory names
 * several times, the latest wins. "now" alone ends nothing.
 */

// Where an end of validity may be named: phrases that point forward from when the memory was
// written ("tomorrow", "until…", "through…", "next…", "at 3pm"). "Today" or "this week" name when
// something happened as often as when it ends, so they end nothing. chrono reads only a short
// window around each cue (hostile input: at most MAX_WINDOWS windows of about 100 characters).
const CUE = /\b(?:tonight|tomorrow|until|till|through|thru|by|before|between|next|at|end of|expires?|due)\b/gi;
const WINDOW_BEFORE = 24;
const WINDOW_AFTER = 72;
const MAX_WINDOWS = 8;

export function parseExpiry(text: string, reference: Date): string | null {
  if (Number.isNaN(reference.getTime())) return null;
  const ref = { instant: reference, timezone: 'UTC' };
  let latest: number | null = null;
  let windows = 0;
  let coveredTo = -1;
  for (const match of text.matchAll(CUE)) {
    // A cue inside the previous window was read with it.
    if (match.index < coveredTo) continue;
    if (windows >= MAX_WINDOWS) break;
    windows += 1;
    coveredTo = Math.min(text.length, match.index + match[0].length + WINDOW_AFTER);
    for (const result of chrono.parse(text.slice(Math.max(0, match.index - WINDOW_BEFORE), coveredTo), ref, { forwardDate: true })) {
      if (/^now$/i.test(result.text.trim())) continue;
      const component = result.end ?? result.start;
      const at = component.date();
      const until = component.isCertain('hour')
        ? at.getTime()
        : Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), 23, 59, 59);
      if (Number.isFinite(until) && (latest === null || until > latest)) latest = until;
    }
  }
  return latest === null ? null : new Date(latest).toISOString();
}
