import { describe, expect, it } from 'vitest';
import { MAX_TIME_QUERY_CHARS, queryTimeWindow, timeFactor } from './time.js';

const asOf = new Date('2023-04-18T02:06:00Z'); // a Tuesday
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const span = (query: string) => {
  const w = queryTimeWindow(query, asOf);
  return w && `${day(w.start)}..${day(w.end)}`;
};

describe('queryTimeWindow', () => {
  it('resolves past expressions against the time the question is asked', () => {
    expect(span('Who did I meet with during the lunch last Tuesday?')).toBe('2023-04-10..2023-04-12');
    expect(span('What did I buy yesterday?')).toBe('2023-04-16..2023-04-18');
    expect(span('What gardening did I do two weeks ago?')).toBe('2023-04-01..2023-04-07');
    expect(span('How many fun runs did I miss in March?')).toBe('2023-03-01..2023-03-31');
    expect(span('What certification did I complete last month?')).toBe('2023-03-01..2023-03-31');
    expect(span('How many films did I watch in the last 3 months?')).toBe('2023-01-18..2023-04-18');
  });

  it('gives no window for the present, the future, or no time at all', () => {
    expect(span('Any documentary recommendations for tonight?')).toBeNull();
    expect(span('I am planning my meal prep next week')).toBeNull();
    expect(span('What is the capital of Portugal?')).toBeNull();
  });

  it('looks only at the start of a long question and stays fast on hostile input', () => {
    const started = performance.now();
    expect(queryTimeWindow(`${'x '.repeat(MAX_TIME_QUERY_CHARS)} yesterday`, asOf)).toBeNull();
    queryTimeWindow('March '.repeat(700), asOf);
    queryTimeWindow(`${'1 '.repeat(2000)}last`, asOf);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('timeFactor', () => {
  const window = queryTimeWindow('what did I buy yesterday', asOf);
  it('lifts a memory from that period only', () => {
    expect(timeFactor('2023-04-17T10:00:00Z', window, 0.3)).toBe(1.3);
    expect(timeFactor('2023-04-10T10:00:00Z', window, 0.3)).toBe(1);
    expect(timeFactor(null, window, 0.3)).toBe(1);
    expect(timeFactor('2023-04-17T10:00:00Z', null, 0.3)).toBe(1);
  });
});
