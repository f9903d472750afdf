export { admission } from './admission.js';
export { hostCheck } from './host-check.js';
export { explorerRouter } from './explorer.js';
