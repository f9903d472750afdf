import { describe, expect, it } from 'vitest';
import { scoreContinuity } from './continuity.js';
import { deterministicSummary } from './summary.js';

describe('session summary without a model', () => {
  it("request, investigated, learned and next steps from the session's own prompts and memories", () => {
    const s = deterministicSummary({
      transcript: null,
      prompts: ['Why does the invoice exporter fail on Mondays?', 'Check the cron schedule'],
      memories: ['The exporter cron runs at 02:00 UTC on Mondays.', 'We need to add a retry for the S3 upload.'],
    });
    expect(s).toMatchObject({ summarizer: 'deterministic', request: 'Why does the invoice exporter fail on Mondays?' });
    expect(s.investigated).toContain('Check the cron schedule');
    expect(s.learned).toContain('The exporter cron runs at 02:00 UTC on Mondays.');
    expect(s.nextSteps).toBe('We need to add a retry for the S3 upload.');
  });

  it('redacts what it writes', () => {
    const s = deterministicSummary({
      transcript: null,
      prompts: ['use key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD'],
      memories: [],
    });
    expect(s.request).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD');
  });
});

describe('continuity of injected memories', () => {
  it('scores each memory by the share of its words the session used; a keyword hit counts fully', () => {
    const score = scoreContinuity(
      [
        { id: 'a', content: 'Invoice exporter cron schedule' },
        { id: 'b', content: 'Grafana dashboard colours' },
        { id: 'c', content: 'Anything at all' },
      ],
      'We looked at the invoice exporter and its cron schedule today.',
      ['c'],
    );
    expect(score.relevance).toEqual([1, 0, 1]);
    expect(score.used).toBe(2);
    expect(score.score).toBeCloseTo(0.667, 3);
    expect(scoreContinuity([], 'x', [])).toEqual({ score: 0, used: 0, relevance: [] });
  });
});
