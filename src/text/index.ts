export { trimEndChars, trimStartChars } from './trim.js';
export {
  cleanJsonStrings,
  cleanOptionalText,
  cleanText,
  CleanupTally,
  type CleanupKind,
  type TextCleanup,
} from './well-formed.js';
export { namespaceToken } from './namespace-token.js';
export { toLuceneQuery } from './lucene.js';
export { queryTokens } from './lucene.js';
export { escapeLuceneTerm, MAX_LUCENE_TERMS, STOP_WORDS } from './lucene.js';
export { parseExpiry } from './expiry.js';
