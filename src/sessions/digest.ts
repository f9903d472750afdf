import type { SessionRecord } from '../db/index.js';

/** A titled list of lines; sections are written in order and cut, line by line, at the budget. */
export interface DigestSection {
  title: string;
  lines: string[];
  /** The id each line stands for (a memory's), when it stands for one. */
  ids?: ReadonlyArray<string | null>;
}

export interface FittedText {
  text: string;
  /** Lines left out because the budget ran out. */
  omitted: number;
  /** Lines written, per section. */
  written: number[];
  /** The ids of the lines written. */
  keptIds: string[];
}

/** A line longer than this is clipped (ending in …) so one long memory cannot take the budget. */
export const MAX_LINE_CHARS = 500;
const ELLIPSIS = '…';

export function clipLine(text: string, max = MAX_LINE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (max <= 0) return '';
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}${ELLIPSIS}`;
}

/**
 * `header` then each section's title and lines, never longer than `budget` characters: a line
 * that does not fit is left out (and counted), a section with no line that fits is left out
 * whole. A header longer than the budget is clipped.
 */
export function fitSections(header: string, sections: readonly DigestSection[], budget: number): FittedText {
  let text = header.length <= budget ? header : clipLine(header, budget);
  let omitted = 0;
  const written: number[] = [];
  const keptIds: string[] = [];
  for (const section of sections) {
    const title = `\n\n${section.title}`;
    let block = '';
    let count = 0;
    section.lines.forEach((raw, i) => {
      const line = `\n- ${clipLine(raw)}`;
      if (text.length + title.length + block.length + line.length > budget) {
        omitted += 1;
        return;
      }
      block += line;
      count += 1;
      const id = section.ids?.[i];
      if (id) keptIds.push(id);
    });
    if (block) text += title + block;
    written.push(count);
  }
  return { text, omitted, written, keptIds };
}

const minutes = (fromIso: string, to: Date) => Math.max(0, Math.round((to.getTime() - Date.parse(fromIso)) / 60_000));

export type CheckpointReason =
  | { kind: 'prompts'; prompts: number }
  | { kind: 'elapsed'; minutes: number }
  | { kind: 'session_end'; reason: string };

function reasonText(reason: CheckpointReason): string {
  switch (reason.kind) {
    case 'prompts':
      return `periodic: ${reason.prompts} prompts since the last checkpoint`;
    case 'elapsed':
      return `periodic: ${reason.minutes} min since the last checkpoint`;
    case 'session_end':
      return `session end (${reason.reason})`;
  }
}

/**
 * The digest a checkpoint stores, one format per trigger: the periodic one says which threshold
 * fired it; the session-end one carries the total prompt count. Both list the project, duration,
 * recent prompts and the memory activity, within `budget` characters.
 */
export function checkpointDigest(session: SessionRecord, reason: CheckpointReason, now: Date, budget: number): string {
  const where = [session.project ? `project ${session.project}` : null, session.harness ? `harness ${session.harness}` : null]
    .filter(Boolean)
    .join(', ');
  const totals =
    reason.kind === 'session_end'
      ? `${session.prompts} prompts in total, ${session.toolResults} tool results`
      : `${session.prompts} prompts, ${session.toolResults} tool results`;
  const header = `## Checkpoint — ${reasonText(reason)}\nsession ${session.sessionId}${where ? ` (${where})` : ''}: ${totals}, ${minutes(session.startedAt, now)} min`;
  return fitSections(
    header,
    [
      { title: '### Recent prompts', lines: [...session.recentQueries].reverse() },
      { title: '### Memory activity', lines: [...session.recentRemembers].reverse().map((r) => `remembered: ${r}`) },
    ],
    budget,
  ).text;
}

/**
 * What an agent needs to pick a crashed or compacted session back up: where it stood (counts,
 * last checkpoint), its summary once it has one, the files it changed (`files`, most recent
 * first), the latest prompts and tool results (newest
 * first: the checkpoint may be older than the crash), then the last checkpoint's digest — cut
 * to `budget` characters.
 */
export function recoveryDigest(
  session: SessionRecord,
  latest: { digest: string; updatedAt: string; trigger: string } | null,
  now: Date,
  budget: number,
  files: readonly string[] = [],
): FittedText {
  const header = `# Recovering session ${session.sessionId} (${session.status})\n${session.prompts} prompts, ${session.toolResults} tool results, ${minutes(session.startedAt, now)} min; ${session.checkpoints} checkpoints${latest ? `, the last ${minutes(latest.updatedAt, now)} min ago (${latest.trigger})` : ''}`;
  const sections: DigestSection[] = [];
  if (session.summaryLearned || session.summaryNextSteps) {
    sections.push({
      title: '## Summary',
      lines: [`learned: ${session.summaryLearned ?? ''}`, `next steps: ${session.summaryNextSteps ?? ''}`],
    });
  }
  sections.push({ title: '## Files changed', lines: [...files] });
  sections.push({ title: '## Recent prompts', lines: [...session.recentQueries].reverse() });
  sections.push({ title: '## Recent memories and tool results', lines: [...session.recentRemembers].reverse() });
  if (latest)
    sections.push({
      title: '## Last checkpoint',
      lines: latest.digest
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('## Checkpoint'))
        .map((l) => l.replace(/^[-#\s]+/, '')),
    });
  return fitSections(header, sections, budget);
}
