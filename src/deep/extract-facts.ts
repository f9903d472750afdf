import { parseLlmJson } from '../llm/index.js';
import { LlmParseError, type LlmProvider } from '../llm/index.js';
import { EXTRACTION_SCHEMA } from './output-schemas.js';
import { extractionPrompt } from './prompts.js';
import type { ExtractionResult } from './extraction-types.js';
import { validateExtraction } from './validate-extraction.js';

/** Longer inputs are cut before the prompt is built: a small model loses the thread past this. */
export const MAX_EXTRACTION_INPUT_CHARS = 12_000;

/**
 * The extraction pass: one model call, then strict validation. Unusable output (not JSON)
 * becomes a warning and an empty result; only transport failures (HTTP error, timeout,
 * unreachable server) throw, so the job is retried for those alone.
 */
export async function extractFacts(provider: LlmProvider, content: string, options: { timeoutMs: number }): Promise<ExtractionResult> {
  const truncated = content.length > MAX_EXTRACTION_INPUT_CHARS;
  const input = truncated ? content.slice(0, MAX_EXTRACTION_INPUT_CHARS) : content;
  const output = await provider.generate(extractionPrompt(input), { timeoutMs: options.timeoutMs, format: EXTRACTION_SCHEMA });
  const lead = truncated ? [`input truncated from ${content.length} to ${MAX_EXTRACTION_INPUT_CHARS} characters`] : [];
  let raw: unknown;
  try {
    raw = parseLlmJson(output);
  } catch (error) {
    if (!(error instanceof LlmParseError)) throw error;
    return { facts: [], entities: [], warnings: [...lead, `extraction output unusable: ${error.message}`] };
  }
  const result = validateExtraction(raw);
  return { ...result, warnings: [...lead, ...result.warnings] };
}
