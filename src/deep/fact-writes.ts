import type { BatchOutcome, RememberBatchOptions, TextEmbedder } from '../write/index.js';
import type { RememberInput } from '../write/index.js';
import { OUTCOME } from './gates.js';
import { EXTRACTED_FACT_WHY, PIPELINE_ACTOR } from './pipeline-provenance.js';
import type { ExtractedFact } from './extraction-types.js';

/** The part of RememberService the deep path writes through. */
export interface FactWriter {
  rememberBatch(inputs: readonly RememberInput[], options?: RememberBatchOptions): Promise<BatchOutcome[]>;
}

export interface SourceMemory {
  id: string;
  namespace: string;
  content: string;
  /** The version that was read: writes derived from it apply only while it is unchanged. */
  contentHash: string;
  source: string | null;
  sessionId: string | null;
  occurredAt: string | null;
}

export interface FactWrite {
  /** The new memory, or the existing one it duplicates; null when the write was refused. */
  memoryId: string | null;
  outcome: string;
  error?: string;
}

/**
 * Facts become memories through the ordinary write path (normalize, redact, dedup, embed, one
 * transaction), marked as the pipeline's and without queuing extraction of themselves again.
 * The exact-duplicate gate is the write path's own hash dedup. Given the deep path's embedding
 * cache, the write path finds the vectors planning already made for the same text. The write checks that the source
 * memory is still the version read (ConflictError otherwise) and links the new facts to it.
 */
export async function writeFacts(
  writer: FactWriter,
  source: SourceMemory,
  facts: readonly ExtractedFact[],
  model: string,
  embedder?: TextEmbedder,
): Promise<FactWrite[]> {
  if (facts.length === 0) return [];
  const inputs: RememberInput[] = facts.map((fact) => ({
    content: fact.content,
    namespace: source.namespace,
    type: fact.type,
    who: PIPELINE_ACTOR,
    why: EXTRACTED_FACT_WHY,
    source: source.source,
    sessionId: source.sessionId,
    occurredAt: source.occurredAt,
    metadata: { sourceMemoryId: source.id, extractionModel: model, factConfidence: fact.confidence },
  }));
  const outcomes = await writer.rememberBatch(inputs, {
    enqueueJobs: false,
    derivedFrom: { memoryId: source.id, contentHash: source.contentHash },
    actor: PIPELINE_ACTOR,
    ...(embedder ? { embedder } : {}),
  });
  return outcomes.map((o): FactWrite => {
    if (o.error) return { memoryId: null, outcome: `skipped:${o.error.code.toLowerCase()}`, error: o.error.message };
    const created = o.result.dedup.action === 'STORED_NEW' || o.result.dedup.action === 'NEAR_DUPLICATE';
    return { memoryId: o.result.memory.id, outcome: created ? OUTCOME.created : OUTCOME.deduped };
  });
}
