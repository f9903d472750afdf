import type { Executor } from '../../db/index.js';
import { ConflictError } from '../../errors.js';
import { generateHints, MAX_EXTRACTION_INPUT_CHARS, writeHints } from '../../deep/index.js';
import type { LlmProvider } from '../../llm/index.js';
import { loadSourceMemory } from './source-memory.js';
import type { JobHandler } from './job-handler.js';

export interface HintsHandlerDeps {
  executor: Executor;
  provider: LlmProvider;
  timeoutMs: number;
  maxHints: number;
}

/** `hints` jobs: up to `maxHints` hypothetical questions per memory, stored as Hint nodes. */
export function createHintsHandler(deps: HintsHandlerDeps): JobHandler {
  return {
    kind: 'hints',
    async run(job) {
      const memory = await loadSourceMemory(deps.executor, job.memoryId);
      if (!memory) return { skipped: 'memory not found or forgotten' };
      const result = await generateHints(deps.provider, memory.content, {
        timeoutMs: deps.timeoutMs,
        max: deps.maxHints,
        maxInputChars: MAX_EXTRACTION_INPUT_CHARS,
      });
      try {
        await writeHints(deps.executor, memory, result, deps.provider.model);
      } catch (error) {
        if (error instanceof ConflictError) return { skipped: 'memory changed while its hints were generated' };
        throw error;
      }
      return { hints: result.hints.length, warnings: result.warnings };
    },
  };
}
