import { randomUUID } from 'node:crypto';
import { normalizeContent } from '../write/index.js';
import { findCandidates } from './candidate-search.js';
import { classifyFact } from './classify-fact.js';
import { decide } from './decide.js';
import type { DeepPathDeps } from './deps.js';
import { extractFacts } from './extract-facts.js';
import type { SourceMemory } from './fact-writes.js';
import { gate, type GateVerdict } from './gates.js';
import {
  assessContradiction,
  planSupersessions,
  type ContradictionAssessment,
  type PlannedAttribute,
  type Supersession,
} from './supersession.js';
import type { Candidate, Decision, ExtractedFact, ExtractionResult } from './extraction-types.js';

export interface Proposal {
  index: number;
  fact: ExtractedFact;
  candidates: Candidate[];
  decision: Decision | null;
  warnings: string[];
  /** The fact against the UPDATE/DELETE target; a contradiction flags the proposal for review. */
  contradiction: ContradictionAssessment | null;
  verdict: GateVerdict;
  /** The attribute this fact becomes when it is written and names an extracted entity. */
  attribute: PlannedAttribute | null;
}

export interface MemoryPlan {
  extraction: ExtractionResult;
  proposals: Proposal[];
  supersessions: Supersession[];
}

/**
 * Every model and embedding call of one memory, before anything is written: extraction, the
 * decision per fact against its hybrid candidates, contradiction checks, and the supersessions
 * the new attributes will make. Reads only.
 */
export async function planMemory(deps: DeepPathDeps, memory: SourceMemory): Promise<MemoryPlan> {
  const { provider, settings } = deps;
  const extraction = await extractFacts(provider, memory.content, { timeoutMs: settings.llmTimeoutMs });
  // The text the write path will embed for a short fact (its one chunk), so the cache serves both.
  const vectors = await deps.embedder.embed(extraction.facts.map((f) => normalizeContent(f.content).storageContent));

  const proposals: Proposal[] = [];
  for (const [index, fact] of extraction.facts.entries()) {
    const candidates = await findCandidates(deps.executor, Array.from(vectors[index]!), {
      namespace: memory.namespace,
      text: fact.content,
      exclude: [memory.id],
    });
    const { decision, warnings } = await decide(provider, fact, candidates, { timeoutMs: settings.llmTimeoutMs });
    const target = decision?.targetId ? candidates.find((c) => c.id === decision.targetId) : undefined;
    const contradiction = target ? await assessContradiction(provider, fact.content, target.content, settings.semantic) : null;
    const verdict = gate(settings.mode, fact, decision, settings.minFactConfidence);
    const plan = verdict.apply === 'add' || verdict.apply === 'update' ? classifyFact(fact, extraction.entities) : null;
    proposals.push({
      index,
      fact,
      candidates,
      decision,
      warnings,
      contradiction,
      verdict,
      attribute: plan ? { id: randomUUID(), content: fact.content, plan } : null,
    });
  }

  const planned = proposals.flatMap((p) => (p.attribute ? [p.attribute] : []));
  const supersessions = await planSupersessions(deps.executor, provider, memory.namespace, planned, settings.semantic);
  return { extraction, proposals, supersessions };
}
