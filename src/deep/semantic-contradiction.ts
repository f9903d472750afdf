import { parseLlmJson } from '../llm/index.js';
import type { LlmProvider } from '../llm/index.js';
import { redactStored } from '../redaction/index.js';
import { MIN_OVERLAP_FOR_SEMANTIC_CHECK, type ContradictionCheck } from './contradiction.js';
import { CONTRADICTION_SCHEMA } from './output-schemas.js';
import { contradictionPrompt } from './prompts.js';

export interface SemanticCheck {
  contradicts: boolean;
  confidence: number;
  reasoning: string;
  /** Why the check fell back to "no contradiction" (timeout, unusable output), if it did. */
  fallback: string | null;
}

/** Only when the fast path said no but the statements share enough words to be about the same thing. */
export function needsSemanticCheck(syntactic: ContradictionCheck): boolean {
  return !syntactic.contradicts && syntactic.overlap >= MIN_OVERLAP_FOR_SEMANTIC_CHECK;
}

/**
 * The slow path, after the syntactic check found nothing: asks the model whether `newer` contradicts `older`. Advisory — any
 * failure, including a timeout, answers "no contradiction" and never throws.
 */
export async function checkSemanticContradiction(
  provider: LlmProvider,
  newer: string,
  older: string,
  options: { timeoutMs: number },
): Promise<SemanticCheck> {
  try {
    const raw = parseLlmJson(
      await provider.generate(contradictionPrompt(newer, older), { timeoutMs: options.timeoutMs, format: CONTRADICTION_SCHEMA }),
    );
    if (typeof raw !== 'object' || raw === null || typeof (raw as { contradicts?: unknown }).contradicts !== 'boolean') {
      return noContradiction('output has no boolean "contradicts"');
    }
    const r = raw as { contradicts: boolean; confidence?: unknown; reasoning?: unknown };
    const confidence = typeof r.confidence === 'number' && Number.isFinite(r.confidence) ? Math.min(1, Math.max(0, r.confidence)) : 0.5;
    return {
      contradicts: r.contradicts,
      confidence,
      reasoning: typeof r.reasoning === 'string' ? redactStored(r.reasoning).slice(0, 500) : '',
      fallback: null,
    };
  } catch (error) {
    return noContradiction((error as Error).message);
  }
}

function noContradiction(fallback: string): SemanticCheck {
  return { contradicts: false, confidence: 0, reasoning: '', fallback };
}
