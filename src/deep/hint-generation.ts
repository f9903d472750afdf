import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { parseLlmJson } from '../llm/index.js';
import { LlmParseError, type LlmProvider } from '../llm/index.js';
import { replaceHints, requireSourceUnchanged } from '../db/index.js';
import { redactStored } from '../redaction/index.js';
import { HISTORY_EVENT, historyId, recordHistory } from './pipeline-provenance.js';
import { hintsSchema } from './output-schemas.js';
import { hintsPrompt } from './prompts.js';

/** Prospective indexing (hints): questions a memory answers, searchable by BM25. */
export const DEFAULT_MAX_HINTS = 5;
export const MIN_HINT_CHARS = 8;
export const MAX_HINT_CHARS = 300;

export interface HintsResult {
  hints: string[];
  warnings: string[];
}

export async function generateHints(
  provider: LlmProvider,
  content: string,
  options: { timeoutMs: number; max?: number; maxInputChars: number },
): Promise<HintsResult> {
  const max = options.max ?? DEFAULT_MAX_HINTS;
  const output = await provider.generate(hintsPrompt(content.slice(0, options.maxInputChars), max), {
    timeoutMs: options.timeoutMs,
    format: hintsSchema(max),
  });
  try {
    return validateHints(parseLlmJson(output), max);
  } catch (error) {
    if (!(error instanceof LlmParseError)) throw error;
    return { hints: [], warnings: [`hints output unusable: ${error.message}`] };
  }
}

/** Accepts {"questions": [...]}, {"hints": [...]} or a bare array; keeps ≤ max distinct, sane strings. */
export function validateHints(raw: unknown, max: number): HintsResult {
  const warnings: string[] = [];
  const list = Array.isArray(raw) ? raw : isObject(raw) ? (raw.questions ?? raw.hints) : undefined;
  if (!Array.isArray(list)) return { hints: [], warnings: ['hints output has no "questions" array'] };
  const hints: string[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (hints.length === max) {
      warnings.push(`more than ${max} hints returned; the rest are dropped`);
      break;
    }
    const text = typeof item === 'string' ? redactStored(item).trim().replace(/\s+/g, ' ') : '';
    if (text.length < MIN_HINT_CHARS) {
      warnings.push('a hint was empty or too short');
      continue;
    }
    const hint = text.slice(0, MAX_HINT_CHARS);
    if (seen.has(hint.toLowerCase())) continue;
    seen.add(hint.toLowerCase());
    hints.push(hint);
  }
  return { hints, warnings };
}

/** Throws ConflictError (nothing written) when the memory changed since `source` was read. */
export async function writeHints(
  executor: Executor,
  source: { id: string; contentHash: string },
  result: HintsResult,
  model: string,
): Promise<void> {
  const now = new Date().toISOString();
  const memoryId = source.id;
  const hints = result.hints.map((text) => ({ id: randomUUID(), text }));
  const event = {
    id: historyId(),
    memoryId,
    event: HISTORY_EVENT.hints,
    outcome: result.hints.length ? 'created' : 'empty',
    reason: null,
    confidence: null,
    details: { count: result.hints.length, warnings: result.warnings },
  };
  await executor.writeTx('extraction.hints', async (tx) => {
    await requireSourceUnchanged(tx, { memoryId, contentHash: source.contentHash });
    await replaceHints(tx, memoryId, hints, now);
    await recordHistory(tx, [event], { now, model });
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
