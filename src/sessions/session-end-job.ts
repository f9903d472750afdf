import type { Executor } from '../db/index.js';
import { derivedId } from '../db/index.js';
import { getSession, jobSession, memoryTexts, saveSummary, sessionMemories } from '../db/index.js';
import { transcriptsBySessions } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import type { Logger } from '../logger.js';
import { scoreContinuity } from './continuity.js';
import { deterministicSummary, llmSummary, sessionText, type SessionMaterial, type SessionSummary } from './summary.js';

/** Memories of the session the summary reads at most. */
export const MAX_SESSION_MEMORIES = 200;
export const SESSION_END_ACTOR = 'session-end';
const SUMMARY_EVENT_BASE = '9e47b0d1-2c3a-4f58-b6e1-sessionsumm0';

/** Aspect feedback (src/upkeep/aspect-feedback.ts): once per session, safe to repeat. */
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
  const summary = await summarize(deps, material);

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
    continuity,
    // Recorded now or by an earlier run of this job: either way the session's feedback is in.
    feedbackApplied: true,
    details: {
      summarizer: summary.summarizer,
      continuity: continuity.score,
      injected: ordered.length,
      used: continuity.used,
      keywordHits: session.keywordHits.length,
    },
    now: new Date().toISOString(),
  });
  return {
    sessionId: job.sessionId,
    outcome: 'summarized',
    summarizer: summary.summarizer,
    continuityScore: continuity.score,
    injected: ordered.length,
    used: continuity.used,
    feedback: { applied: feedback.applied, aspectsUpdated: feedback.aspectsUpdated },
  };
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
