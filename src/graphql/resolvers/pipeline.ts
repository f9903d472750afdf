import { echoTelemetry, embeddingTracker, feedbackTelemetry, lastMaintenance, lastRetention, sessionStats } from '../../api/index.js';
import type { JobResolvers, PipelineStatusResolvers } from '../generated/types.js';

export const Job: JobResolvers = {
  kind: (j) => j.kind as never,
  status: (j) => j.status as never,
  memory: (j, _, { caller }) => (j.memoryId ? caller.loaders.memoryById.load(j.memoryId) : null),
};

/** The parts of pipelineStatus answered only when asked for: of the namespace it was asked about, or process-wide. */
export const PipelineStatus: PipelineStatusResolvers = {
  feedback: (status, _, { caller }) => feedbackTelemetry(caller, status.namespace),
  sessions: (status, _, { caller }) => sessionStats(caller, status.namespace),
  echoes: (status, { days }, { caller }) => echoTelemetry(caller, status.namespace, days ?? 30),
  maintenance: (_, __, { caller }) => lastMaintenance(caller),
  embeddings: (_, __, { caller }) => embeddingTracker(caller),
  retention: (_, __, { caller }) => lastRetention(caller),
};
