// enqueue: the only Job creator.
export { enqueue, jobName, ENQUEUE, type JobInput, type JobKind, type JobTarget } from './enqueue.js';
