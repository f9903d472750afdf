import type { Executor } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import type { Logger } from '../logger.js';
import type { TextEmbedder } from '../write/index.js';
import type { FactWriter } from './fact-writes.js';
import type { SemanticSettings } from './supersession.js';
import type { PipelineMode } from './extraction-types.js';

export interface DeepPathSettings {
  mode: PipelineMode;
  /** Per model call. */
  llmTimeoutMs: number;
  minFactConfidence: number;
  semantic: SemanticSettings;
  /** Queue a `classify` job (LLM structural classification) for each entity that gets attributes. */
  classify?: { enabled: boolean; maxAttempts: number };
}

/** What the deep path needs; built once by the worker. */
export interface DeepPathDeps {
  executor: Executor;
  embedder: TextEmbedder;
  writer: FactWriter;
  provider: LlmProvider;
  logger: Logger;
  settings: DeepPathSettings;
}
