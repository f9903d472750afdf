import { redactStored } from '../redaction/index.js';
import { confidence } from './validate-extraction.js';
import { DECISION_ACTIONS, type Candidate, type Decision, type DecisionAction } from './extraction-types.js';

export interface DecisionValidation {
  decision: Decision | null;
  warnings: string[];
}

const MAX_REASON_CHARS = 500;

/**
 * Checks the model's decision: a known action, a non-empty reason, and for UPDATE and
 * DELETE a targetId that is one of the candidates. Anything else drops the proposal with a warning.
 */
export function validateDecision(raw: unknown, candidates: readonly Candidate[]): DecisionValidation {
  const warnings: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { decision: null, warnings: ['decision output is not a JSON object'] };
  }
  const r = raw as Record<string, unknown>;
  const action = typeof r.action === 'string' ? r.action.trim().toUpperCase() : '';
  if (!(DECISION_ACTIONS as readonly string[]).includes(action)) {
    return { decision: null, warnings: [`unknown decision action ${JSON.stringify(r.action ?? null)}, proposal dropped`] };
  }
  const reason = typeof r.reason === 'string' ? redactStored(r.reason).trim().slice(0, MAX_REASON_CHARS) : '';
  if (reason === '') return { decision: null, warnings: [`${action} decision has an empty reason, proposal dropped`] };

  let targetId: string | null = null;
  if (action === 'UPDATE' || action === 'DELETE') {
    const wanted = typeof r.targetId === 'string' ? r.targetId.trim() : '';
    if (!wanted) return { decision: null, warnings: [`${action} decision without a targetId, proposal dropped`] };
    if (!candidates.some((c) => c.id === wanted)) {
      return {
        decision: null,
        warnings: [`${action} decision names ${JSON.stringify(wanted.slice(0, 80))}, which is not a candidate; proposal dropped`],
      };
    }
    targetId = wanted;
  }
  const conf = confidence(r.confidence, 'decision', (m) => warnings.push(m));
  return { decision: { action: action as DecisionAction, targetId, confidence: conf, reason, byModel: true }, warnings };
}
