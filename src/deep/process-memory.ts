import { randomUUID } from 'node:crypto';
import { ConflictError } from '../errors.js';
import type { DeepPathDeps } from './deps.js';
import { writeFacts, type FactWrite, type SourceMemory } from './fact-writes.js';
import { OUTCOME } from './gates.js';
import { buildGraphPlan } from './graph-plan.js';
import { persistGraph, type GraphWriteResult } from './graph-write.js';
import { HISTORY_EVENT, historyId, recordHistory, type HistoryEventInput } from './pipeline-provenance.js';
import { writesAllowed } from './mode.js';
import { planMemory, type MemoryPlan, type Proposal } from './plan.js';

export interface ExtractionSummary {
  mode: string;
  facts: number;
  entities: number;
  outcomes: Record<string, number>;
  supersededAttributes: number;
  graphError: string | null;
  /** Set when the memory was forgotten or rewritten while it was processed: the rest was discarded. */
  discarded: string | null;
  warnings: string[];
}

const MAX_SUMMARY_WARNINGS = 20;

/**
 * The deep path for one memory: plan (all model calls), then — only in a writing mode — the
 * facts through the write path and the knowledge graph in its own non-fatal transaction, which
 * also records the audit trail (one event per proposal with its outcome, one summary event), so
 * the graph's writes never commit without their events. Without a graph write (shadow, frozen,
 * or a failed graph transaction) the audit is a transaction of its own.
 * Each write re-checks, inside its transaction, that the memory is still the version planned
 * on; when it is not, the rest of the plan is discarded and a `pipeline.stale` event says so.
 */
export async function processMemory(deps: DeepPathDeps, memory: SourceMemory): Promise<ExtractionSummary> {
  const { settings, provider } = deps;
  const plan = await planMemory(deps, memory);
  const writes = new Map<number, FactWrite>();
  // Made before any transaction: a re-run of the one that records them records them once.
  const eventIds = { proposals: plan.proposals.map(() => historyId()), summary: historyId() };
  let graph: GraphWriteResult | null = null;
  let graphError: string | null = null;

  if (writesAllowed(settings.mode)) {
    const toWrite = plan.proposals.filter((p) => p.verdict.apply === 'add' || p.verdict.apply === 'update');
    try {
      const results = await writeFacts(
        deps.writer,
        memory,
        toWrite.map((p) => p.fact),
        provider.model,
        deps.embedder,
      );
      toWrite.forEach((p, i) => writes.set(p.index, results[i]!));
    } catch (error) {
      if (error instanceof ConflictError) return discardStale(deps, memory, plan, 'facts');
      throw error;
    }
    try {
      const graphPlan = buildGraphPlan(memory.namespace, memory.id, plan, writes);
      if (settings.classify?.enabled) {
        const maxAttempts = settings.classify.maxAttempts;
        graphPlan.classifyJobs = [...new Set(graphPlan.attributes.map((a) => a.entityCanonicalName))].map((entityCanonicalName) => ({
          id: randomUUID(),
          entityCanonicalName,
          maxAttempts,
        }));
      }
      graph = await persistGraph(deps.executor, graphPlan, {
        now: new Date().toISOString(),
        model: provider.model,
        sourceContentHash: memory.contentHash,
        audit: (result) => auditOf(deps, memory, plan, writes, result, null, eventIds).events,
      });
    } catch (error) {
      // The facts already written follow their source: forget/update retires them.
      if (error instanceof ConflictError) return discardStale(deps, memory, plan, 'graph');
      // Graph persistence never reverts the facts (they are already durable); the failure is audited instead.
      graphError = (error as Error).message;
      deps.logger.warn({ err: error, memoryId: memory.id }, 'knowledge-graph persistence failed');
    }
  }

  const { events, summary } = auditOf(deps, memory, plan, writes, graph, graphError, eventIds);
  if (!graph) {
    const now = new Date().toISOString();
    await deps.executor.writeTx('extraction.audit', (tx) => recordHistory(tx, events, { now, model: provider.model }));
  }
  return summary;
}

/** The memory changed under the job: nothing more of its plan is applied; one event records why. */
async function discardStale(
  deps: DeepPathDeps,
  memory: SourceMemory,
  plan: MemoryPlan,
  stage: 'facts' | 'graph',
): Promise<ExtractionSummary> {
  const discarded = `the memory was forgotten or rewritten during extraction; ${stage === 'facts' ? 'no fact was written' : 'facts written, graph discarded'}`;
  const summary: ExtractionSummary = {
    mode: deps.settings.mode,
    facts: plan.extraction.facts.length,
    entities: plan.extraction.entities.length,
    outcomes: {},
    supersededAttributes: 0,
    graphError: null,
    discarded,
    warnings: allWarnings(plan).slice(0, MAX_SUMMARY_WARNINGS),
  };
  const event: HistoryEventInput = {
    id: historyId(),
    memoryId: memory.id,
    event: HISTORY_EVENT.stale,
    outcome: 'discarded',
    reason: discarded,
    confidence: null,
    details: { ...summary, readContentHash: memory.contentHash },
  };
  const now = new Date().toISOString();
  await deps.executor.writeTx('extraction.stale', (tx) => recordHistory(tx, [event], { now, model: deps.provider.model }));
  deps.logger.info({ memoryId: memory.id, stage }, 'memory changed during extraction; result discarded');
  return summary;
}

function outcomeOf(p: Proposal, write: FactWrite | undefined, graphError: string | null): string {
  const v = p.verdict;
  if (v.apply === 'none') return v.outcome;
  if (v.apply === 'add') return write?.outcome ?? 'skipped:not_written';
  if (graphError) return 'failed:graph_write';
  if (v.apply === 'delete') return OUTCOME.appliedDelete;
  return write?.memoryId ? OUTCOME.appliedUpdate : (write?.outcome ?? 'skipped:not_written');
}

/** The proposal events and the summary event of one run; pure, so the graph transaction can build them from its result. */
function auditOf(
  deps: DeepPathDeps,
  memory: SourceMemory,
  plan: MemoryPlan,
  writes: ReadonlyMap<number, FactWrite>,
  graph: GraphWriteResult | null,
  graphError: string | null,
  ids: { proposals: string[]; summary: string },
): { events: HistoryEventInput[]; summary: ExtractionSummary } {
  const { settings, provider } = deps;
  const outcomes = plan.proposals.map((p) => outcomeOf(p, writes.get(p.index), graphError));
  const summary: ExtractionSummary = {
    mode: settings.mode,
    facts: plan.extraction.facts.length,
    entities: plan.extraction.entities.length,
    outcomes: countBy(outcomes),
    supersededAttributes: graph?.superseded.length ?? 0,
    graphError,
    discarded: null,
    warnings: allWarnings(plan).slice(0, MAX_SUMMARY_WARNINGS),
  };
  const events: HistoryEventInput[] = plan.proposals.map((p, i) => {
    const write = writes.get(p.index);
    return {
      id: ids.proposals[i]!,
      memoryId: memory.id,
      event: HISTORY_EVENT.proposal,
      outcome: outcomes[i]!,
      reason: p.decision?.reason ?? p.warnings[0] ?? null,
      confidence: p.decision?.confidence ?? p.fact.confidence,
      details: {
        mode: settings.mode,
        action: p.decision?.action ?? null,
        decidedByModel: p.decision?.byModel ?? null,
        factContent: p.fact.content,
        factType: p.fact.type,
        factConfidence: p.fact.confidence,
        targetId: p.decision?.targetId ?? null,
        factMemoryId: write?.memoryId ?? null,
        writeError: write?.error ?? null,
        candidateIds: p.candidates.map((c) => c.id),
        reviewNeeded: p.contradiction?.contradicts ?? false,
        contradiction: p.contradiction,
        attribute: p.attribute
          ? { id: p.attribute.id, entity: p.attribute.plan.entityName, aspect: p.attribute.plan.aspect, kind: p.attribute.plan.kind }
          : null,
        warnings: p.warnings,
        sourceMemoryId: memory.id,
        extractionModel: provider.model,
        factCount: plan.extraction.facts.length,
        entityCount: plan.extraction.entities.length,
      },
    };
  });
  events.push({
    id: ids.summary,
    memoryId: memory.id,
    event: HISTORY_EVENT.extraction,
    outcome: summary.facts === 0 ? 'empty' : 'ok',
    reason: null,
    confidence: null,
    details: { ...summary },
  });
  return { events, summary };
}

function allWarnings(plan: MemoryPlan): string[] {
  return [...plan.extraction.warnings, ...plan.proposals.flatMap((p) => p.warnings.map((w) => `fact ${p.index}: ${w}`))];
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
