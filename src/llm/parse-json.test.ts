import { describe, expect, it } from 'vitest';
import { parseLlmJson } from './parse-json.js';
import { LlmParseError } from './provider.js';

describe('parseLlmJson', () => {
  it('parses plain JSON', () => {
    expect(parseLlmJson('{"a":1}')).toEqual({ a: 1 });
  });

  it('strips <think> blocks before parsing', () => {
    expect(parseLlmJson('<think>\nmaybe {"wrong": true}\n</think>\n{"facts":[]}')).toEqual({ facts: [] });
  });

  it('strips several and unclosed think blocks', () => {
    expect(parseLlmJson('<think>a</think>{"x":2}<THINK>b</THINK>')).toEqual({ x: 2 });
    expect(parseLlmJson('[1,2]<think>cut off mid thought')).toEqual([1, 2]);
  });

  it('removes Markdown code fences, with or without a language tag', () => {
    expect(parseLlmJson('```json\n{"a":[1]}\n```')).toEqual({ a: [1] });
    expect(parseLlmJson('```\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(parseLlmJson('<think>hmm</think>\nHere you go:\n```json\n{"ok":true}\n```\nDone.')).toEqual({ ok: true });
  });

  it('tolerates prose around a single JSON object', () => {
    expect(parseLlmJson('Sure! {"action":"ADD"} Hope that helps.')).toEqual({ action: 'ADD' });
  });

  it('throws a typed error on garbage, with an excerpt', () => {
    expect(() => parseLlmJson('I cannot help with that.')).toThrow(LlmParseError);
    expect(() => parseLlmJson('<think>only thoughts</think>')).toThrow(/empty/);
    try {
      parseLlmJson('{"unterminated": ');
    } catch (error) {
      expect(error).toBeInstanceOf(LlmParseError);
      expect((error as LlmParseError).excerpt).toContain('unterminated');
      expect((error as LlmParseError).retriable).toBe(false);
    }
  });
});
