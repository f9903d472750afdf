import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  type CheckpointRecord,
  type SessionRecord,
  endSession,
  limitsOf,
  recoverSession,
  session,
  sessionPrompt,
  sessionToolResult,
  startSession,
} from '../api/index.js';
import { clipText, fitJson } from './budget.js';
import { runTool } from './errors.js';
import { maxTokens, namespace } from './schemas.js';
import type { ToolContext } from './tool-context.js';

const sessionId = z.string().min(1).max(256).describe("The session id session_start answered (or the harness's own).");

const sessionView = (s: SessionRecord) => ({
  session_id: s.sessionId,
  status: s.status,
  prompts: s.prompts,
  tool_results: s.toolResults,
  checkpoints: s.checkpoints,
  last_checkpoint_at: s.lastCheckpointAt,
  ...(s.endReason ? { end_reason: s.endReason } : {}),
});

const checkpointView = (c: CheckpointRecord | null | undefined) =>
  c ? { id: c.id, trigger: c.trigger, prompt_count: c.promptCount, created_at: c.createdAt } : null;

/**
 * Sessions for agents and their harness hooks: session_start (the context to inject),
 * session_prompt and session_tool_result (counted; they fire periodic checkpoints),
 * session_recover (the recovery digest within a budget), session_end (summary job queued).
 */
export function registerSessionTools(server: McpServer, ctx: ToolContext): void {
  const limits = limitsOf(ctx.services);

  server.registerTool(
    'session_start',
    {
      description:
        "Open a session and get the context to inject at its start: pinned memories and constraints, where the last session stood, the project's best memories, then the global namespace's — at most max_chars characters. Pass the same session_id to resume an open session.",
      inputSchema: z.object({
        session_id: sessionId.optional(),
        query: z.string().optional().describe('What the session is about (e.g. the first prompt).'),
        max_chars: z.number().int().min(200).max(40_000).optional(),
        harness: z.string().optional(),
        project: z.string().optional(),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'session_start', args.max_tokens, async (caller) => {
        const r = await startSession(caller, {
          namespace: args.namespace,
          sessionId: args.session_id ?? null,
          query: args.query ?? null,
          maxChars: args.max_chars ?? null,
          harness: args.harness ?? null,
          project: args.project ?? null,
        });
        // The session id and counts always fit; the context gets what is left of the budget.
        const meta = { session_id: r.session.sessionId, chars: r.chars, omitted: r.omitted, sections: r.sections };
        const room = Math.max(0, args.max_tokens - ctx.count(JSON.stringify({ ...meta, context: '' })) - 2);
        return JSON.stringify({ ...meta, context: clipText(r.context, room, ctx.count) });
      }),
  );

  server.registerTool(
    'session_prompt',
    {
      description:
        'Count a user prompt of an open session (every 10 prompts, or 15 minutes, a checkpoint is written). With recall (default true) it also answers the <memory> block for the prompt.',
      inputSchema: z.object({
        session_id: sessionId,
        prompt: z.string().min(1),
        recall: z.boolean().optional(),
        limit: z.number().int().min(1).optional().describe(`At most ${limits.maxRecallLimit} (default 10).`),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false },
    },
    (args) =>
      runTool(ctx, 'session_prompt', args.max_tokens, async (caller) => {
        const { observed, recalled } = await sessionPrompt(caller, {
          namespace: args.namespace,
          sessionId: args.session_id,
          prompt: args.prompt,
          recall: args.recall !== false,
          limit: args.limit,
          // The <memory> block gets most of the budget; the session's counts always fit in the rest.
          tokenBudget: Math.max(1, Math.floor(args.max_tokens * 0.6)),
        });
        const answer = {
          session: observed ? sessionView(observed.session) : null,
          checkpoint: checkpointView(observed?.checkpoint),
          ...(recalled ? { memory: recalled.prompt } : {}),
        };
        return fitJson(answer, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'session_tool_result',
    {
      description:
        'Count a tool result of an open session (its text kept, cut, for checkpoints and the end-of-session summary). May fire a checkpoint after 15 minutes.',
      inputSchema: z.object({ session_id: sessionId, text: z.string().min(1), namespace, max_tokens: maxTokens }),
      annotations: { readOnlyHint: false },
    },
    (args) =>
      runTool(ctx, 'session_tool_result', args.max_tokens, async (caller) => {
        const observed = await sessionToolResult(caller, { namespace: args.namespace, sessionId: args.session_id, text: args.text });
        return fitJson(
          { session: observed ? sessionView(observed.session) : null, checkpoint: checkpointView(observed?.checkpoint) },
          args.max_tokens,
          ctx.count,
        );
      }),
  );

  server.registerTool(
    'session_recover',
    {
      description:
        "After a crash or a context compaction: where the session stood, its last checkpoint's digest, its recent prompts and memories, at most budget_chars characters (default 2,000).",
      inputSchema: z.object({
        session_id: sessionId,
        budget_chars: z.number().int().min(200).max(10_000).optional(),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'session_recover', args.max_tokens, async (caller) => {
        const r = await recoverSession(caller, {
          namespace: args.namespace,
          sessionId: args.session_id,
          budgetChars: args.budget_chars ?? null,
        });
        const meta = {
          ...sessionView(r.session),
          chars: r.chars,
          budget_chars: r.budget,
          omitted: r.omitted,
          checkpoint_id: r.checkpointId,
        };
        const room = Math.max(0, args.max_tokens - ctx.count(JSON.stringify({ ...meta, digest: '' })) - 2);
        return JSON.stringify({ ...meta, digest: clipText(r.digest, room, ctx.count) });
      }),
  );

  server.registerTool(
    'session_end',
    {
      description:
        'Close a session: a final checkpoint, then in the background a summary (request, investigated, learned, next steps), the continuity score of what was injected, and aspect feedback. Safe to repeat.',
      inputSchema: z.object({
        session_id: sessionId,
        transcript: z.string().optional().describe('The raw conversation, stored once per session.'),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'session_end', args.max_tokens, async (caller) => {
        const r = await endSession(caller, { namespace: args.namespace, sessionId: args.session_id, transcript: args.transcript ?? null });
        return fitJson({ ...sessionView(r.session), ended_now: r.ended, summary_job_id: r.session.jobId }, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'session_status',
    {
      description: 'A session as it stands; once its end job ran, its summary and continuity score.',
      inputSchema: z.object({ session_id: sessionId, namespace, max_tokens: maxTokens }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'session_status', args.max_tokens, async (caller) => {
        const s = await session(caller, { namespace: args.namespace, sessionId: args.session_id });
        if (!s) return JSON.stringify({ session: null });
        const summary = s.summarizedAt
          ? {
              request: s.summaryRequest,
              investigated: s.summaryInvestigated,
              learned: s.summaryLearned,
              next_steps: s.summaryNextSteps,
              summarizer: s.summarizer,
              continuity: s.continuityScore,
              injected: s.injectedIds.length,
              used: s.continuityUsed,
            }
          : null;
        return fitJson({ ...sessionView(s), summary_job_id: s.jobId, summary }, args.max_tokens, ctx.count);
      }),
  );
}
