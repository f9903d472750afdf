export { trimEndChars, trimStartChars } from './trim.js';
