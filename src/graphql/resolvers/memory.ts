import { memoryJobs } from '../../api/index.js';
import type { HistoryEventResolvers, MemoryResolvers } from '../generated/types.js';

export const Memory: MemoryResolvers = {
  type: (m) => m.type as never,
  temporal: (m) => m.temporal as never,
  metadata: (m) => (m.metadata ? JSON.parse(m.metadata) : null),
  stale: (m) => m.stale === true,
  chunks: (m, _, { caller }) => caller.loaders.chunksByMemory.load(m.id),
  entities: (m, _, { caller }) => caller.loaders.entitiesByMemory.load(m.id),
  attributes: (m, _, { caller }) => caller.loaders.attributesByMemory.load(m.id),
  history: (m, _, { caller }) => caller.loaders.historyByMemory.load(m.id),
  // The memory itself was already checked against the caller's namespaces.
  jobs: (m, _, { caller }) => memoryJobs(caller, m.id),
};

export const HistoryEvent: HistoryEventResolvers = {
  details: (h) => (h.details ? JSON.parse(h.details) : null),
};
