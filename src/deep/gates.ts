import { writesAllowed } from './mode.js';
import type { Decision, ExtractedFact, PipelineMode } from './extraction-types.js';

/**
 * What to do with one proposal: write the fact as a memory, supersede the target's attributes,
 * both (UPDATE), or nothing — with the audit outcome for the "nothing" cases. Pure: the safety
 * gates of controlled writes (confidence floor, frozen, update/delete allowed) in one place.
 */
export type GateVerdict =
  | { apply: 'none'; outcome: string }
  | { apply: 'add' }
  | { apply: 'update'; targetId: string }
  | { apply: 'delete'; targetId: string };

export const OUTCOME = {
  shadow: 'shadow',
  frozen: 'frozen',
  dropped: 'dropped:invalid_decision',
  recorded: 'recorded',
  blocked: 'blocked:update_delete_disabled',
  lowFactConfidence: 'skipped:low_fact_confidence',
  lowDecisionConfidence: 'skipped:low_decision_confidence',
  emptyFact: 'skipped:empty_fact_content',
  created: 'created',
  deduped: 'deduped',
  appliedUpdate: 'applied:update',
  appliedDelete: 'applied:delete',
} as const;

export function gate(mode: PipelineMode, fact: ExtractedFact, decision: Decision | null, minConfidence: number): GateVerdict {
  if (!decision) return { apply: 'none', outcome: OUTCOME.dropped };
  if (!writesAllowed(mode)) return { apply: 'none', outcome: mode === 'frozen' ? OUTCOME.frozen : OUTCOME.shadow };
  switch (decision.action) {
    case 'NONE':
      return { apply: 'none', outcome: OUTCOME.recorded };
    case 'ADD':
      return factGate(fact, minConfidence) ?? { apply: 'add' };
    case 'UPDATE':
      if (mode !== 'full') return { apply: 'none', outcome: OUTCOME.blocked };
      return factGate(fact, minConfidence) ?? { apply: 'update', targetId: decision.targetId! };
    case 'DELETE':
      if (mode !== 'full') return { apply: 'none', outcome: OUTCOME.blocked };
      if (decision.confidence < minConfidence) return { apply: 'none', outcome: OUTCOME.lowDecisionConfidence };
      return { apply: 'delete', targetId: decision.targetId! };
  }
}

function factGate(fact: ExtractedFact, minConfidence: number): GateVerdict | null {
  if (fact.confidence < minConfidence) return { apply: 'none', outcome: OUTCOME.lowFactConfidence };
  if (fact.content.trim() === '') return { apply: 'none', outcome: OUTCOME.emptyFact };
  return null;
}
