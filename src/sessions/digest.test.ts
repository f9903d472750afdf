import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../db/queries/sessions.js';
import { checkpointDigest, fitSections, recoveryDigest } from './digest.js';

const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: 'x',
  namespace: 'ns',
  sessionId: 's-1',
  status: 'open',
  startedAt: '2026-11-24T10:00:00Z',
  lastActivityAt: '2026-11-24T10:20:00Z',
  endedAt: null,
  endReason: null,
  harness: 'claude-code',
  project: 'billing',
  prompts: 12,
  toolResults: 3,
  checkpoints: 1,
  checkpointPrompts: 10,
  lastCheckpointAt: '2026-11-24T10:15:00Z',
  lastCheckpointEvent: null,
  recentQueries: Array.from({ length: 20 }, (_, i) => `prompt ${i} about the invoice exporter and its cron schedule ${'x'.repeat(i * 20)}`),
  recentRemembers: Array.from({ length: 10 }, (_, i) => `remembered fact ${i}: the exporter runs at ${i} am`),
  injectedIds: [],
  keywordHits: [],
  jobId: null,
  summaryRequest: null,
  summaryInvestigated: null,
  summaryLearned: null,
  summaryNextSteps: null,
  summarizer: null,
  summarizedAt: null,
  summaryFiles: [],
  summaryFilesMore: 0,
  summaryCompleted: null,
  continuityScore: null,
  continuityUsed: null,
  continuityRelevance: [],
  feedbackApplied: null,
  ...over,
});
const now = new Date('2026-11-24T10:25:00Z');

describe('digests within their character budgets', () => {
  it('fitSections never passes the budget and counts what it left out', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ${'y'.repeat(i * 13)}`);
    for (const budget of [0, 10, 50, 200, 777, 2_000, 10_000]) {
      const fitted = fitSections(
        '# header of a digest',
        [
          { title: '## A', lines, ids: lines.map((_, i) => `id${i}`) },
          { title: '## B', lines },
        ],
        budget,
      );
      expect(fitted.text.length).toBeLessThanOrEqual(budget);
      expect(fitted.written.reduce((a, b) => a + b, 0) + fitted.omitted).toBe(100);
      expect(fitted.keptIds.length).toBe(fitted.written[0]);
    }
    expect(fitSections('h', [{ title: '## A', lines: ['one', 'two'] }], 1_000).text).toBe('h\n\n## A\n- one\n- two');
  });

  it('the recovery digest fits every budget from 200 to 10,000 and leads with where the session stood', () => {
    const latest = {
      digest: checkpointDigest(session(), { kind: 'prompts', prompts: 10 }, now, 2_000),
      updatedAt: '2026-11-24T10:15:00Z',
      trigger: 'periodic',
    };
    for (const budget of [200, 300, 600, 2_000, 5_000, 10_000]) {
      const r = recoveryDigest(session(), latest, now, budget);
      expect(r.text.length).toBeLessThanOrEqual(budget);
      expect(r.text).toMatch(
        /^# Recovering session s-1 \(open\)\n12 prompts, 3 tool results, 25 min; 1 checkpoints, the last 10 min ago \(periodic\)/,
      );
    }
    // Newest prompt first: with room for one, it is the last one sent.
    expect(recoveryDigest(session(), null, now, 2_000).text).toContain('## Recent prompts\n- prompt 19');
    // The files it changed come before its prompts; without any, no such section.
    expect(recoveryDigest(session(), null, now, 2_000, ['src/a.ts', 'README.md']).text).toContain(
      '## Files changed\n- src/a.ts\n- README.md\n\n## Recent prompts',
    );
    expect(recoveryDigest(session(), null, now, 2_000).text).not.toContain('## Files changed');
  });

  it('a checkpoint digest says which trigger fired it', () => {
    expect(checkpointDigest(session(), { kind: 'prompts', prompts: 10 }, now, 2_000)).toMatch(
      /^## Checkpoint — periodic: 10 prompts since the last checkpoint\nsession s-1 \(project billing, harness claude-code\): 12 prompts, 3 tool results, 25 min/,
    );
    expect(checkpointDigest(session(), { kind: 'elapsed', minutes: 16 }, now, 2_000)).toContain(
      'periodic: 16 min since the last checkpoint',
    );
    const end = checkpointDigest(session(), { kind: 'session_end', reason: 'idle' }, now, 500);
    expect(end).toContain('session end (idle)');
    expect(end).toContain('12 prompts in total');
    expect(end.length).toBeLessThanOrEqual(500);
  });
});
