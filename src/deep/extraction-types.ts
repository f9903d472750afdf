/** Fact types the extraction prompt offers; each is also a Memory type. */
export const FACT_TYPES = ['fact', 'preference', 'decision', 'procedural', 'semantic'] as const;
export type FactType = (typeof FACT_TYPES)[number];

export interface ExtractedFact {
  content: string;
  type: FactType;
  confidence: number;
}

export interface EntityTriple {
  source: string;
  relationship: string;
  target: string;
  confidence: number;
}

export interface ExtractionResult {
  facts: ExtractedFact[];
  entities: EntityTriple[];
  /** Everything validation dropped, coerced or truncated; never thrown. */
  warnings: string[];
}

export const DECISION_ACTIONS = ['ADD', 'UPDATE', 'DELETE', 'NONE'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

export interface Decision {
  action: DecisionAction;
  /** A candidate's id for UPDATE and DELETE; null otherwise. */
  targetId: string | null;
  confidence: number;
  reason: string;
  /** False when decided without asking the model (no candidates). */
  byModel: boolean;
}

/** An existing memory the decision stage compares a fact against. */
export interface Candidate {
  id: string;
  type: string;
  content: string;
  score: number;
}

export type PipelineMode = 'disabled' | 'frozen' | 'shadow' | 'controlled-write' | 'full';
