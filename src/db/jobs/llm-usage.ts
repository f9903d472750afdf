import type { Executor } from '../executor.js';

/** The model server's counts the job keeps (the llm module's LlmUsage carries these and more). */
export interface JobUsageCounts {
  calls: number;
  promptTokens: number;
  evalTokens: number;
  totalDurationMs: number;
}

/** What one job's attempts cost, as the model server reported it. */
export interface JobLlmUsage {
  model: string;
  usage: JobUsageCounts;
}

/** Adds an attempt's usage to the job; runs inside the complete/fail statement's own guard. */
export const ADD_JOB_USAGE = `
SET j.llmModel = CASE WHEN $llm IS NULL THEN j.llmModel ELSE $llm.model END,
    j.llmCalls = coalesce(j.llmCalls, 0) + coalesce($llm.calls, 0),
    j.llmPromptTokens = coalesce(j.llmPromptTokens, 0) + coalesce($llm.promptTokens, 0),
    j.llmEvalTokens = coalesce(j.llmEvalTokens, 0) + coalesce($llm.evalTokens, 0),
    j.llmDurationMs = coalesce(j.llmDurationMs, 0) + coalesce($llm.totalDurationMs, 0)`;

export function usageParam(llm: JobLlmUsage | undefined): Record<string, unknown> | null {
  if (!llm || llm.usage.calls === 0) return null;
  const { calls, promptTokens, evalTokens, totalDurationMs } = llm.usage;
  return { model: llm.model, calls, promptTokens, evalTokens, totalDurationMs };
}

export interface LlmUsageByKind {
  kind: string;
  jobs: number;
  memories: number;
  calls: number;
  promptTokens: number;
  evalTokens: number;
  durationMs: number;
}

export interface LlmUsageTotals {
  byKind: LlmUsageByKind[];
  /** Distinct memories whose jobs called the model. */
  memories: number;
}

// Only the jobs that called the model, through the (namespace, llmCalls) or (llmCalls) index
// (cypher/006-job-indexes.cypher); jobs removed by retention take their figures with them.
const meteredJobs = (byNamespace: boolean) => `
MATCH (j:Job)
WHERE ${byNamespace ? 'j.namespace = $namespace AND ' : ''}j.llmCalls > 0`;
const usageQuery = (byNamespace: boolean) => `
CALL () {
  ${meteredJobs(byNamespace)}
  MATCH (j)-[:FOR]->(m:Memory)
  RETURN count(DISTINCT m) AS memories
}
${meteredJobs(byNamespace)}
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
WITH memories, j.kind AS kind, count(j) AS jobs, count(DISTINCT m) AS kindMemories, sum(j.llmCalls) AS calls,
     sum(j.llmPromptTokens) AS promptTokens, sum(j.llmEvalTokens) AS evalTokens, sum(j.llmDurationMs) AS durationMs
ORDER BY kind
RETURN memories, collect({kind: kind, jobs: jobs, memories: kindMemories, calls: calls, promptTokens: promptTokens, evalTokens: evalTokens, durationMs: durationMs}) AS byKind`;
export const LLM_USAGE = usageQuery(false);
export const LLM_USAGE_IN_NAMESPACE = usageQuery(true);

/** Model usage summed per job kind, for pipelineStatus. */
export async function llmUsage(executor: Executor, namespace: string | null = null): Promise<LlmUsageTotals> {
  const rows = await executor.read<{ byKind: LlmUsageByKind[]; memories: number }>(
    'jobs.llm_usage',
    namespace === null ? LLM_USAGE : LLM_USAGE_IN_NAMESPACE,
    { namespace },
  );
  return rows[0] ?? { byKind: [], memories: 0 };
}
