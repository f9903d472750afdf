import { describe, expect, it } from 'vitest';
import { MCP_INSTRUCTIONS } from './server.js';

describe('MCP_INSTRUCTIONS', () => {
  it('names every error code a tool call can end with', () => {
    for (const code of [
      'BAD_USER_INPUT',
      'PII_REJECTED',
      'NOT_FOUND',
      'UNAUTHENTICATED',
      'FORBIDDEN',
      'LIMIT_EXCEEDED',
      'CONFLICT',
      'RATE_LIMITED',
      'TIMEOUT',
      'UNAVAILABLE',
      'INTERNAL',
    ]) {
      expect(MCP_INSTRUCTIONS).toContain(code);
    }
  });

  it('states the progressive-disclosure workflow as numbered steps, in order', () => {
    expect(MCP_INSTRUCTIONS).toMatch(/1\. search\(query\)[^\n]*\n\s*2\. timeline\(anchor=[^\n]*\n\s*3\. get_memories\(ids=/);
    expect(MCP_INSTRUCTIONS).toMatch(/max_tokens \(default 2000\)/);
  });
});
