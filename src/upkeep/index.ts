export { UpkeepService } from './upkeep-service.js';
export { PeriodicTask, sharedSchedule } from './periodic.js';
export { AspectFeedback } from './aspect-feedback-service.js';
