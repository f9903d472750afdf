import type { MemoryRecord, SessionRecord } from '../db/index.js';
import { redactStored } from '../redaction/index.js';
import { clipLine, type DigestSection } from './digest.js';

export type ContextSectionName = 'previous' | 'files' | 'pinned' | 'preferences' | 'checkpoint' | 'project' | 'global';

export interface ContextSection {
  name: ContextSectionName;
  items: number;
}

/** Characters of each tool result the previous session taught, as the start context shows it. */
const LESSON_CHARS = 300;
/** Files of the last session the start context names (the rest are counted on one line). */
const START_FILES = 15;

/** What a start context is made of, gathered by SessionService.start. */
export interface StartMaterial {
  previous: { session: SessionRecord; lessons: MemoryRecord[] } | null;
  pinned: MemoryRecord[];
  preferences: MemoryRecord[];
  /** The checkpoint to show, if any. */
  checkpoint: { digest: string } | null;
  /** Whether the newest checkpoint is this session's own (a resumed session). */
  ownCheckpoint: boolean;
  project: { name: string; memories: MemoryRecord[] };
  global: { name: string | null; memories: MemoryRecord[] };
}

/** The summary's fields as context lines (the empty ones left out). */
function summaryLines(s: SessionRecord): string[] {
  const fields: Array<[string, string | null]> = [
    ['request', s.summaryRequest],
    ['learned', s.summaryLearned],
    ['next steps', s.summaryNextSteps],
    ["completed (the agent's last report)", s.summaryCompleted],
  ];
  return fields.filter(([, v]) => v?.trim()).map(([k, v]) => `${k}: ${v}`);
}

function previousLabel(s: SessionRecord): string {
  const ended = s.endedAt ? `, ended ${s.endedAt.slice(0, 10)}` : '';
  return `session ${s.sessionId}${s.project ? ` in ${s.project}` : ''}${ended}`;
}

/** The files the last session changed, most recent first: the first START_FILES by name, then how many more. */
export function filesLines(w: { files: readonly string[]; moreFiles: number }, max = START_FILES): string[] {
  const files = w.files.map((f) => redactStored(f));
  const more = Math.max(0, files.length - max) + w.moreFiles;
  return [...files.slice(0, max), ...(more > 0 ? [`… and ${more} more`] : [])];
}

const memoryLine = (m: MemoryRecord) => `[${m.type}${m.pinned ? ', pinned' : ''}] ${m.content}`;

/** The sections of a start context, in the order the budget serves them, and their names. */
export function startSections(m: StartMaterial): { names: ContextSectionName[]; sections: DigestSection[] } {
  const prev = m.previous;
  const summary = prev ? summaryLines(prev.session) : [];
  const names: ContextSectionName[] = ['previous', 'files', 'pinned', 'preferences', 'checkpoint', 'project', 'global'];
  const sections: DigestSection[] = [
    {
      title: prev ? `## What the last session learned (${previousLabel(prev.session)})` : '',
      lines: prev ? [...summary, ...prev.lessons.map((l) => `taught: ${clipLine(l.content, LESSON_CHARS)}`)] : [],
      ids: prev ? [...summary.map(() => ''), ...prev.lessons.map((l) => l.id)] : [],
    },
    {
      title: `## Files changed last session (session ${prev?.session.sessionId ?? ''})`,
      lines: prev ? filesLines({ files: prev.session.summaryFiles, moreFiles: prev.session.summaryFilesMore }) : [],
    },
    { title: '## Pinned memories and constraints', lines: m.pinned.map(memoryLine), ids: m.pinned.map((p) => p.id) },
    { title: '## Preferences and how to work', lines: m.preferences.map(memoryLine), ids: m.preferences.map((p) => p.id) },
    {
      title: `## Where the last session stood (${m.ownCheckpoint ? 'this session' : 'previous session'})`,
      lines: m.checkpoint
        ? m.checkpoint.digest
            .split('\n')
            .filter((l) => l.trim() && !l.startsWith('## Checkpoint'))
            .map((l) => l.replace(/^[-#\s]+/, ''))
        : [],
    },
    { title: `## Memories of ${m.project.name}`, lines: m.project.memories.map(memoryLine), ids: m.project.memories.map((p) => p.id) },
    // Another namespace's memories: shown, never recorded on this session (continuity reads its own namespace).
    { title: `## Memories of ${m.global.name ?? ''}`, lines: m.global.memories.map(memoryLine) },
  ];
  return { names, sections };
}
