import { parseLlmJson } from '../llm/index.js';
import { LlmParseError, type LlmProvider } from '../llm/index.js';
import { DECISION_SCHEMA } from './output-schemas.js';
import { decisionPrompt } from './prompts.js';
import type { Candidate, Decision, ExtractedFact } from './extraction-types.js';
import { validateDecision } from './validate-decision.js';

export const NO_CANDIDATES_REASON = 'no similar memory in the namespace';

export interface DecideResult {
  decision: Decision | null;
  warnings: string[];
}

/**
 * The decision pass for one fact. No candidates → ADD without a model call (nothing to compare with). It makes
 * no writes whatever the mode; applying the decision is the caller's concern.
 */
export async function decide(
  provider: LlmProvider,
  fact: ExtractedFact,
  candidates: readonly Candidate[],
  options: { timeoutMs: number },
): Promise<DecideResult> {
  if (candidates.length === 0) {
    return {
      decision: { action: 'ADD', targetId: null, confidence: fact.confidence, reason: NO_CANDIDATES_REASON, byModel: false },
      warnings: [],
    };
  }
  const output = await provider.generate(decisionPrompt(fact, candidates), { timeoutMs: options.timeoutMs, format: DECISION_SCHEMA });
  try {
    return validateDecision(parseLlmJson(output), candidates);
  } catch (error) {
    if (!(error instanceof LlmParseError)) throw error;
    return { decision: null, warnings: [`decision output unusable: ${error.message}`] };
  }
}
