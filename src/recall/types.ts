/** How the legs' scores become one (stages/fuse.ts). */
export const FUSION_METHODS = ['weighted', 'rrf', 'zscore'] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

/** Memory fields recall needs to rank, filter, budget and format a result (no embeddings). */
export interface RecallMemory {
  memoryId: string;
  content: string;
  /** Memory type: episodic, semantic, procedural, working, fact, preference, decision, document_chunk. */
  type: string;
  importance: number;
  /** Event time, ISO 8601; null when unknown. */
  occurredAt: string | null;
  /** Record time, ISO 8601. */
  createdAt: string;
  tags: string[];
  /** Type decision, or linked to an Attribute of kind constraint (invariant 4). */
  isConstraint: boolean;
  /** Pinned by a user: exempt from penalties, kept by filters, first in the budget. */
  pinned?: boolean;
  /** Why the decay pass flagged the memory stale (expired, unretrieved); null when it is not. */
  staleReason?: string | null;
  /** Best chunk's similarity to the question vector, (1 + cos) / 2; null or absent without a vector. */
  similarity?: number | null;
}

/**
 * One leg's score for a memory. `raw` is what the index returned (best chunk / best hint per
 * memory); `rank` is the 1-based position of the memory in that leg's result list.
 */
export interface LegScore {
  raw: number;
  rank: number;
}

export interface RecallCandidate extends RecallMemory {
  /** Cosine vector index score, already (1 + cos) / 2 in [0, 1]. */
  vector?: LegScore;
  /** Lucene BM25 score on memory content (unbounded). */
  keyword?: LegScore;
  /** Lucene BM25 score on the memory's hints (unbounded). */
  hint?: LegScore;
  /** Entity leg: the question's entities this memory mentions, weighted (stages/entity-leg.ts). */
  entity?: LegScore;
  /**
   * Graph link strength in [0, 1] (0 = not reached by the graph boost). The applied increment is
   * `graph.boostWeight × graphBoost`.
   */
  graphBoost: number;
}

/** The weights fusion used for one query, shown in every result's explanation (`weights`). */
export interface FusionWeights {
  /** Weight of the vector side (fusion.alpha). */
  vector: number;
  /** Weight of the text side (keyword and hints): 1 − vector. */
  text: number;
  /** Weight of the entity leg's normalized score, added to the fused score (0 when it found nothing). */
  entity: number;
}

export interface LegExplanation {
  raw: number;
  /** Per-query normalized score in [0, 1]. */
  normalized: number;
  rank: number;
}

/** Every factor that produced a result's score, in the order they were applied. */
export interface ScoreExplanation {
  method: FusionMethod;
  /**
   * The weights fusion used for this query: vector and text sides and the entity leg (absent on a
   * result only the context stage brought in: it was not fused).
   */
  weights?: FusionWeights;
  vector: LegExplanation | null;
  keyword: LegExplanation | null;
  hint: LegExplanation | null;
  /** Entity leg (null when off or the memory names none of the question's entities). */
  entity: LegExplanation | null;
  /** Fusion output in [0, 1] (RRF is divided by its best possible value). */
  fused: number;
  /** Additive increment from the graph boost (0 = none). */
  graphBoost: number;
  /** Multiplicative factors (stages/rank.ts lists them); 1 = not applied. */
  resolution: number;
  importance: number;
  /** Above 1 when the memory's event time lies in the period the question names. */
  time: number;
  /** Below 1 for a memory flagged stale for want of retrieval (stages/stale.ts). */
  stale: number;
  staleReason: string | null;
  /** Pinned memories skip every multiplicative penalty (importance, stale). */
  pinned: boolean;
  /** Additive increment from a neighbouring result in the same session (0 = none). */
  context: number;
  /** Reranker score when the reranker placed this result; null otherwise. */
  rerank: number | null;
  /** The memory's similarity to the question, (1 + cos) / 2, that the rerank and the context gate read; null without one. */
  similarity: number | null;
  final: number;
}

export interface RankedCandidate {
  candidate: RecallCandidate;
  score: number;
  explanation: ScoreExplanation;
}
