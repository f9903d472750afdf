import { sessionSummaryJob } from '../../api/index.js';
import type { SessionResolvers } from '../generated/types.js';

export const Session: SessionResolvers = {
  injectedMemoryIds: (s) => s.injectedIds,
  keywordHits: (s) => s.keywordHits.length,
  summaryJob: (s, _, { caller }) => sessionSummaryJob(caller, s),
  summary: (s) =>
    s.summarizedAt
      ? {
          request: s.summaryRequest ?? '',
          investigated: s.summaryInvestigated ?? '',
          learned: s.summaryLearned ?? '',
          nextSteps: s.summaryNextSteps ?? '',
          filesChanged: s.summaryFiles,
          moreFilesChanged: s.summaryFilesMore,
          completed: s.summaryCompleted ?? '',
          summarizer: s.summarizer ?? '',
          at: s.summarizedAt,
        }
      : null,
  continuity: (s) =>
    s.summarizedAt
      ? {
          score: s.continuityScore ?? 0,
          injected: s.injectedIds.length,
          used: s.continuityUsed ?? 0,
          memories: s.injectedIds.map((memoryId, i) => ({ memoryId, relevance: s.continuityRelevance[i] ?? 0 })),
          feedbackApplied: s.feedbackApplied === true,
        }
      : null,
};
