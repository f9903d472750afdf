import { describe, expect, it } from 'vitest';
import { rankedCandidate } from '../../../test/support/recall-candidates.js';
import { raiseBySession } from './sessions.js';

const settings = { head: 50, perSession: 3, weight: 0.3 };

describe('raiseBySession (sessions before turns)', () => {
  it('lifts a turn of the session holding most of the evidence above a lone better-scored turn', () => {
    // "a" scores best alone in s1; s2 has three middling matches, so its turn "b" overtakes "a".
    const ranked = [rankedCandidate('a', 1.0), rankedCandidate('b', 0.95), rankedCandidate('c', 0.6), rankedCandidate('d', 0.55)];
    const session: Record<string, string> = { a: 's1', b: 's2', c: 's2', d: 's2' };
    const out = raiseBySession(ranked, (id) => session[id] ?? null, settings);
    expect(out.map((r) => r.candidate.memoryId)).toEqual(['b', 'a', 'c', 'd']);
    const b = out[0]!;
    expect(b.explanation.session).toBeCloseTo(1.3, 10);
    expect(b.score).toBeCloseTo(0.95 * 1.3, 10);
    expect(b.explanation.final).toBe(b.score);
    // s1's evidence 1.0 of s2's 2.1.
    expect(out[1]!.explanation.session).toBeCloseTo(1 + 0.3 * (1.0 / 2.1), 10);
  });

  it('counts only the best perSession results of a session and only the head', () => {
    const ranked = [rankedCandidate('x', 1), rankedCandidate('y1', 0.5), rankedCandidate('y2', 0.5), rankedCandidate('y3', 0.5)];
    const session: Record<string, string> = { x: 'sx', y1: 'sy', y2: 'sy', y3: 'sy' };
    const one = raiseBySession(ranked, (id) => session[id] ?? null, { ...settings, perSession: 1 });
    // With one result per session, x's session (1.0) beats y's (0.5): the order holds.
    expect(one.map((r) => r.candidate.memoryId)).toEqual(['x', 'y1', 'y2', 'y3']);
    const headOne = raiseBySession(ranked, (id) => session[id] ?? null, { ...settings, head: 1 });
    // Only x counts: y's session has no evidence, so y's results keep factor 1.
    expect(headOne.find((r) => r.candidate.memoryId === 'y3')!.explanation.session).toBe(1);
  });

  it('treats a result without a session as a session of its own and never drops a result', () => {
    const ranked = [rankedCandidate('doc', 0.9), rankedCandidate('t1', 0.5), rankedCandidate('t2', 0.5)];
    const out = raiseBySession(ranked, (id) => (id === 'doc' ? null : 's'), settings);
    expect(out).toHaveLength(3);
    expect(out.find((r) => r.candidate.memoryId === 'doc')!.explanation.session).toBeCloseTo(1 + 0.3 * (0.9 / 1.0), 10);
    expect(out.find((r) => r.candidate.memoryId === 't1')!.explanation.session).toBeCloseTo(1.3, 10);
  });

  it('leaves a ranking with no positive score as it is', () => {
    const ranked = [rankedCandidate('a', 0), rankedCandidate('b', 0)];
    expect(raiseBySession(ranked, () => 's', settings).map((r) => r.explanation.session)).toEqual([1, 1]);
  });
});
