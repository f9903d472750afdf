export { admission, type AdmissionLimits } from './admission.js';
export { hostCheck, hostNameOf, LOOPBACK_HOST_NAMES } from './host-check.js';
export { EXPLORER_CSP, EXPLORER_PATH, explorerRouter } from './explorer.js';
