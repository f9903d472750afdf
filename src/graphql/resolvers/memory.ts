import type { HistoryEventResolvers, MemoryResolvers } from '../generated/types.js';

export const Memory: MemoryResolvers = {
  type: (m) => m.type as never,
  temporal: (m) => m.temporal as never,
  metadata: (m) => (m.metadata ? JSON.parse(m.metadata) : null),
  chunks: (m, _, ctx) => ctx.caller.loaders.chunksByMemory.load(m.id),
  entities: (m, _, ctx) => ctx.caller.loaders.entitiesByMemory.load(m.id),
  attributes: (m, _, ctx) => ctx.caller.loaders.attributesByMemory.load(m.id),
  history: (m, _, ctx) => ctx.caller.loaders.historyByMemory.load(m.id),
};

export const HistoryEvent: HistoryEventResolvers = {
  details: (h) => (h.details ? JSON.parse(h.details) : null),
};
