export type { LegExplanation, RankedCandidate } from './types.js';
export { AccessTracker } from './access-tracker.js';
export { DisclosureService } from './disclosure-service.js';
export { RecallService, type RecallItemView } from './recall-service.js';
