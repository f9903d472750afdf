import type { Executor } from '../db/index.js';
import { derivedId } from '../db/index.js';
import { getSession, jobSession, memoryTexts, saveSummary, sessionMemories, type SessionRecord } from '../db/index.js';
import { transcriptsBySessions } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import type { Logger } from '../logger.js';
import type { RememberService } from '../write/index.js';
import { scoreContinuity } from './continuity.js';
import { SESSION_SUMMARY_TAG } from './session-service.js';
import { deterministicSummary, llmSummary, sessionText, type SessionMaterial, type SessionSummary } from './summary.js';
import { filesText, readSessionWork, type SessionWork } from './session-work.js';

/** Memories of the session the summary reads at most. */
export const MAX_SESSION_MEMORIES = 200;
export const SESSION_END_ACTOR = 'session-end';
const SUMMARY_EVENT_BASE = '9e47b0d1-2c3a-4f58-b6e1-sessionsumm0';

/** Aspect feedback (src/upkeep/aspect-feedback-service.ts): once per session, safe to repeat. */
export interface FeedbackSink {
  apply(input: {
    namespace: string;
    sessionId: string;
    memoryIds: readonly string[];
    actor: string;
  }): Promise<{ applied: boolean; aspectsUpdated: number }>;
}

export interface SessionEndDeps {
  executor: Executor;
  /** Stores the summary as a memory of the session's namespace (the write path: redacted, deduplicated). */
  writer: Pick<RememberService, 'rememberBatch'>;
  provider: LlmProvider;
  feedback: FeedbackSink;
  logger: Logger;
  settings: { llmTimeoutMs: number };
}

export interface SessionEndResult {
  sessionId: string | null;
  outcome: string;
  summarizer?: string;
  continuityScore?: number;
  /** The summary's memory (null when it held nothing to store). */
  summaryMemoryId?: string | null;
  /** Distinct files the session changed (listed and counted). */
  filesChanged?: number;
  injected?: number;
  used?: number;
  feedback?: { applied: boolean; aspectsUpdated: number };
}

/**
 * The session-end job: the transcript (or, without one, the prompts and memories of the session)
 * summarized into request / investigated / learned / next steps — by the model when one answers,
 * deterministically otherwise; the continuity of the memories injected at start scored; aspect
 * feedback recorded from the memories the session's recalls found by keyword. Every step is safe
 * to repeat: the summary is SET, the audit event MERGEd on the session's id, feedback once.
 */
export async function runSessionEnd(deps: SessionEndDeps, jobId: string): Promise<SessionEndResult> {
  const { executor } = deps;
  const job = await jobSession(executor, jobId);
  if (!job?.sessionId) return { sessionId: null, outcome: 'skipped:no_session' };
  const session = await getSession(executor, job.namespace, job.sessionId);
  if (!session) return { sessionId: job.sessionId, outcome: 'skipped:no_session' };

  const [transcript] = await transcriptsBySessions(executor, [{ namespace: job.namespace, sessionId: job.sessionId }], 1);
  const memories = await sessionMemories(executor, job.namespace, job.sessionId, MAX_SESSION_MEMORIES);
  // Tool results count with the memories written, unless they are one of them (remember with the sessionId).
  const contents = memories.map((m) => m.content);
  const toolResults = session.recentRemembers.filter((r) => !contents.some((c) => c.startsWith(r.replace(/…$/, ''))));
  const material: SessionMaterial = {
    transcript: transcript?.content ?? null,
    prompts: session.recentQueries,
    memories: [...contents, ...toolResults],
  };
  // Summarized once: a re-run (a lost reply, a retry) stores the same summary again, which the write path finds a duplicate of.
  const summary = storedSummary(session) ?? (await summarize(deps, material));
  // Read from the store (no model) once, like the summary: a re-run after late edit records, a
  // forgotten one or an expired checkpoint keeps what was saved, so it stores the same summary again.
  const work = storedWork(session) ?? (await readSessionWork(executor, job.namespace, job.sessionId, material.transcript));

  const injected = await memoryTexts(executor, job.namespace, session.injectedIds);
  const byId = new Map(injected.map((m) => [m.id, m]));
  const ordered = session.injectedIds.map((id) => byId.get(id) ?? { id, content: '' });
  const continuity = scoreContinuity(ordered, sessionText(material), session.keywordHits);
  const feedback = await deps.feedback.apply({
    namespace: job.namespace,
    sessionId: job.sessionId,
    memoryIds: session.keywordHits,
    actor: SESSION_END_ACTOR,
  });

  await saveSummary(executor, {
    namespace: job.namespace,
    sessionId: job.sessionId,
    eventId: derivedId(SUMMARY_EVENT_BASE, JSON.stringify([job.namespace, job.sessionId])),
    actor: SESSION_END_ACTOR,
    summary,
    work,
    continuity,
    // Recorded now or by an earlier run of this job: either way the session's feedback is in.
    feedbackApplied: true,
    details: {
      summarizer: summary.summarizer,
      continuity: continuity.score,
      injected: ordered.length,
      used: continuity.used,
      keywordHits: session.keywordHits.length,
      filesChanged: work.files.length + work.moreFiles,
    },
    now: new Date().toISOString(),
  });
  const summaryMemoryId = await storeSummaryMemory(deps, session, summary, work);
  return {
    sessionId: job.sessionId,
    outcome: 'summarized',
    summarizer: summary.summarizer,
    summaryMemoryId,
    filesChanged: work.files.length + work.moreFiles,
    continuityScore: continuity.score,
    injected: ordered.length,
    used: continuity.used,
    feedback: { applied: feedback.applied, aspectsUpdated: feedback.aspectsUpdated },
  };
}

function storedSummary(s: SessionRecord): SessionSummary | null {
  if (!s.summarizedAt) return null;
  return {
    request: s.summaryRequest ?? '',
    investigated: s.summaryInvestigated ?? '',
    learned: s.summaryLearned ?? '',
    nextSteps: s.summaryNextSteps ?? '',
    summarizer: s.summarizer ?? 'deterministic',
  };
}

function storedWork(s: SessionRecord): SessionWork | null {
  if (!s.summarizedAt) return null;
  return { files: s.summaryFiles, moreFiles: s.summaryFilesMore, completed: s.summaryCompleted ?? '' };
}

/**
 * The summary as a memory's text: which session, then its four fields, the files it changed and
 * its last report (the empty ones left out); null when all are empty.
 */
export function summaryMemoryText(
  s: Pick<SessionRecord, 'sessionId' | 'project' | 'endedAt'>,
  summary: SessionSummary,
  work: SessionWork,
): string | null {
  const fields: Array<[string, string]> = [
    ['Request', summary.request],
    ['Investigated', summary.investigated],
    ['Learned', summary.learned],
    ['Next steps', summary.nextSteps],
    ['Files changed', filesText(work)],
    ["Completed (the agent's last report)", work.completed],
  ];
  const lines = fields.filter(([, v]) => v.trim()).map(([k, v]) => `${k}: ${v.trim()}`);
  if (lines.length === 0) return null;
  const where = s.project ? ` in ${s.project}` : '';
  const when = s.endedAt ? `, ended ${s.endedAt.slice(0, 10)}` : '';
  return [`Summary of session ${s.sessionId}${where}${when}.`, ...lines].join('\n');
}

/**
 * The summary stored as an episodic memory of the session's namespace, carrying the session's
 * id and the session-summary tag, so recall and search find it and the next session's start
 * context leads with it.
 */
async function storeSummaryMemory(
  deps: SessionEndDeps,
  session: SessionRecord,
  summary: SessionSummary,
  work: SessionWork,
): Promise<string | null> {
  const content = summaryMemoryText(session, summary, work);
  if (!content) return null;
  const [outcome] = await deps.writer.rememberBatch(
    [
      {
        namespace: session.namespace,
        content,
        type: 'episodic',
        sessionId: session.sessionId,
        source: SESSION_END_ACTOR,
        tags: [SESSION_SUMMARY_TAG],
        occurredAt: session.endedAt ?? null,
      },
    ],
    { actor: SESSION_END_ACTOR },
  );
  if (outcome?.error) throw outcome.error;
  return outcome?.result?.memory.id ?? null;
}

/** The model's summary when it is reachable and answers the four fields; the deterministic one otherwise. */
async function summarize(deps: SessionEndDeps, material: SessionMaterial): Promise<SessionSummary> {
  const fallback = deterministicSummary(material);
  if (!(await deps.provider.available().catch(() => false))) return fallback;
  try {
    return (await llmSummary(deps.provider, material, deps.settings.llmTimeoutMs)) ?? fallback;
  } catch (error) {
    deps.logger.warn({ err: error }, 'session summary: model call failed; deterministic summary kept');
    return fallback;
  }
}
