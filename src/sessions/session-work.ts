import type { Executor } from '../db/index.js';
import { sessionTagged } from '../db/index.js';
import { redactStored } from '../redaction/index.js';
import { clipLine } from './digest.js';
import { latestCheckpoints } from './session-checkpoints.js';

/**
 * What a session did, read from what it stored rather than from a model: the files it changed
 * (its `file-edit` memories, which the agent hooks write for each Edit / Write / MultiEdit /
 * NotebookEdit) and its last report (the agent's last answer of the stored transcript, or of a
 * turn-end checkpoint for a session that died before its end).
 */
export interface SessionWork {
  /** Distinct paths, most recently changed first, at most MAX_SUMMARY_FILES. */
  files: string[];
  /** Distinct paths changed beyond those listed. */
  moreFiles: number;
  /** The agent's last answer of the session, cut to COMPLETED_CHARS; '' when none was stored. */
  completed: string;
}

/** The tag the agent hooks give a file edit's record. */
const FILE_EDIT_TAG = 'file-edit';
/** Files the summary lists by name (the rest are counted). */
const MAX_SUMMARY_FILES = 50;
/** File-edit records read per session at most (newest first); a longer session's count is a floor. */
const MAX_FILE_EDIT_RECORDS = 1_000;
/** Characters of the agent's last answer kept as what was completed. */
const COMPLETED_CHARS = 400;
const MAX_PATH_CHARS = 300;

const RECORD_PREFIX = 'File changed: ';
// The kinds editRecord (integrations/claude-code/hooks) writes after the path.
const KINDS = [': edited', ': created', ': written', ': notebook cell'];

/** A file-edit record's path: its metadata's `file`, else the first line of its text, before the kind. */
export function editedPath(record: { metadata: string | null; content: string }): string | null {
  try {
    const file = record.metadata ? (JSON.parse(record.metadata) as { file?: unknown }).file : undefined;
    if (typeof file === 'string' && file.trim()) return file.trim();
  } catch {
    // not JSON: the text says it
  }
  const head = record.content.split('\n', 1)[0] ?? '';
  if (!head.startsWith(RECORD_PREFIX)) return null;
  const cut = Math.max(...KINDS.map((k) => head.lastIndexOf(k)));
  const path = (cut > RECORD_PREFIX.length ? head.slice(RECORD_PREFIX.length, cut) : '').trim();
  return path || null;
}

/** The distinct paths of file-edit records given newest first, the first `limit` by name and the rest counted. */
export function changedFiles(
  records: ReadonlyArray<{ metadata: string | null; content: string }>,
  limit = MAX_SUMMARY_FILES,
): Pick<SessionWork, 'files' | 'moreFiles'> {
  const seen = new Set<string>();
  for (const r of records) {
    const path = editedPath(r);
    if (path) seen.add(redactStored(clipLine(path, MAX_PATH_CHARS)));
  }
  const all = [...seen];
  return { files: all.slice(0, limit), moreFiles: Math.max(0, all.length - limit) };
}

const TURN = /^(User|Assistant): /;
const TOOL_MARKER = /^\[used [^\]\n]*\]$/;

/**
 * The last answer of a conversation written as `User:` / `Assistant:` turns (the form the agent
 * hooks store transcripts and turn-end checkpoints in), without its tool-use markers; '' when the
 * text has no answer in that form.
 */
export function lastAnswer(text: string | null | undefined): string {
  if (!text) return '';
  let current: { role: string; lines: string[] } | null = null;
  let last = '';
  const close = () => {
    if (current?.role !== 'Assistant') return;
    const said = current.lines.filter((l) => l.trim() && !TOOL_MARKER.test(l.trim())).join(' ');
    if (said.trim()) last = said;
  };
  for (const line of text.split('\n')) {
    const turn = TURN.exec(line);
    if (turn) {
      close();
      current = { role: turn[1]!, lines: [line.slice(turn[0].length)] };
    } else if (line.startsWith('## ') && current?.role !== 'Assistant') {
      // A digest's own heading (before its turns); inside an answer, a heading is the answer's.
      close();
      current = null;
    } else current?.lines.push(line);
  }
  close();
  return last ? redactStored(clipLine(last, COMPLETED_CHARS)) : '';
}

/** The files line of a summary: the names, then how many more. */
export function filesText(work: Pick<SessionWork, 'files' | 'moreFiles'>): string {
  if (work.files.length === 0) return '';
  return `${work.files.join(', ')}${work.moreFiles > 0 ? ` (+${work.moreFiles} more)` : ''}`;
}

/** Turn-end checkpoints read, newest first, for the last answer of a session stored without a transcript. */
const CHECKPOINTS_READ = 5;

/**
 * A session's work from the store: its file-edit records, and its last answer from `transcript`
 * or, without one there (a session that died, ended by the idle sweep), from its newest
 * checkpoints (an agent's turn-end checkpoint carries the turn's tail).
 */
export async function readSessionWork(
  executor: Executor,
  namespace: string,
  sessionId: string,
  transcript: string | null,
): Promise<SessionWork> {
  const files = await readChangedFiles(executor, namespace, sessionId);
  let completed = lastAnswer(transcript);
  if (!completed)
    for (const c of await latestCheckpoints(executor, namespace, sessionId, CHECKPOINTS_READ)) {
      completed = lastAnswer(c.digest);
      if (completed) break;
    }
  return { ...files, completed };
}

/** The files a session changed, from its file-edit records (newest first, MAX_SUMMARY_FILES by name). */
export async function readChangedFiles(
  executor: Executor,
  namespace: string,
  sessionId: string,
): Promise<Pick<SessionWork, 'files' | 'moreFiles'>> {
  return changedFiles(await sessionTagged(executor, { namespace, sessionId, tag: FILE_EDIT_TAG, limit: MAX_FILE_EDIT_RECORDS }));
}
