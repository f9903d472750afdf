export { trimEndChars } from './trim.js';
export { cleanJsonStrings, cleanText, CleanupTally, type TextCleanup } from './well-formed.js';
export { namespaceToken } from './namespace-token.js';
export { toLuceneQuery } from './lucene.js';
export { queryTokens } from './lucene.js';
export { escapeLuceneTerm } from './lucene.js';
export { parseExpiry } from './expiry.js';
