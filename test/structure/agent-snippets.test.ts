import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/mcp.md's configuration snippets for other agents (Cursor, Codex CLI, Gemini CLI,
 * OpenCode), each parsed as the agent reads its file, and checked to point at Mnemograph's MCP
 * endpoint with the key from the environment, never written in.
 */

const DOC = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
const ENDPOINT = 'http://127.0.0.1:4000/mcp';

/** The fenced blocks tagged `agent=<name>`: their language and text. */
function snippets(): Map<string, { lang: string; text: string }> {
  const found = new Map<string, { lang: string; text: string }>();
  const lines = DOC.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\w+) agent=(\w+)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    found.set(open[2]!, { lang: open[1]!, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

/**
 * The TOML the Codex snippet uses, and nothing more: `[table.name]` headers and `key = "string"`
 * lines. Anything else fails the test (the snippet must stay within what this reads).
 */
function strictTomlTables(text: string): Record<string, Record<string, string>> {
  const tables: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(line);
    if (header) {
      current = tables[header[1]!] = {};
      continue;
    }
    const pair = /^([A-Za-z0-9_]+) = "([^"\\]*)"$/.exec(line);
    if (!pair || !current) throw new Error(`not TOML this test reads: ${line}`);
    current[pair[1]!] = pair[2]!;
  }
  return tables;
}

describe("docs/mcp.md's snippets for other agents", () => {
  const found = snippets();

  it('has one for each agent', () => {
    expect([...found.keys()].sort()).toEqual(['codex', 'cursor', 'gemini', 'opencode']);
  });

  it('Cursor: mcpServers.mnemograph with url and the key from ${env:…}', () => {
    const { lang, text } = found.get('cursor')!;
    expect(lang).toBe('json');
    const server = JSON.parse(text).mcpServers.mnemograph;
    expect(server.url).toBe(ENDPOINT);
    expect(server.headers.Authorization).toBe('Bearer ${env:MNEMOGRAPH_API_KEY}');
  });

  it('Codex CLI: [mcp_servers.mnemograph] with url and bearer_token_env_var', () => {
    const { lang, text } = found.get('codex')!;
    expect(lang).toBe('toml');
    expect(strictTomlTables(text)).toEqual({
      'mcp_servers.mnemograph': { url: ENDPOINT, bearer_token_env_var: 'MNEMOGRAPH_API_KEY' },
    });
  });

  it('Gemini CLI: mcpServers.mnemograph with httpUrl and the key from $VAR', () => {
    const { lang, text } = found.get('gemini')!;
    expect(lang).toBe('json');
    const server = JSON.parse(text).mcpServers.mnemograph;
    expect(server.httpUrl).toBe(ENDPOINT);
    expect(server.headers.Authorization).toBe('Bearer $MNEMOGRAPH_API_KEY');
  });

  it('OpenCode: mcp.mnemograph, a remote server with url and the key from {env:…}', () => {
    const { lang, text } = found.get('opencode')!;
    expect(lang).toBe('json');
    const config = JSON.parse(text);
    expect(config.$schema).toBe('https://opencode.ai/config.json');
    expect(config.mcp.mnemograph).toEqual({
      type: 'remote',
      url: ENDPOINT,
      enabled: true,
      headers: { Authorization: 'Bearer {env:MNEMOGRAPH_API_KEY}' },
    });
  });
});
