export { trimEndChars, trimStartChars } from './trim.js';
export {
  cleanJsonStrings,
  cleanOptionalText,
  cleanText,
  CleanupTally,
  isCleanText,
  wellFormedText,
  type CleanupKind,
  type TextCleanup,
} from './well-formed.js';
export { namespaceToken } from './namespace-token.js';
