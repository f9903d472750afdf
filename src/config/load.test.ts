import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load.js';
import { configSchema } from './schema.js';

describe('loadConfig', () => {
  it('never quotes a refused value: a key pasted into any variable stays out of the error', () => {
    const secret = 'sk-live-Q7pV9xMZ2kLt8sWd3fRb';
    const refused: string[] = [];
    for (const key of Object.keys(configSchema.shape)) {
      try {
        loadConfig({ [key]: secret });
      } catch (error) {
        refused.push(key);
        expect(JSON.stringify({ message: (error as Error).message, details: (error as { details?: unknown }).details }), key).not.toMatch(
          /Q7pV9x|Lt8sWd/,
        );
      }
    }
    // The premise: most variables refuse it, among them the enums that once quoted it.
    expect(refused).toEqual(expect.arrayContaining(['LLM_PROVIDER', 'EMBEDDING_PROVIDER', 'LOG_LEVEL', 'PORT']));
  });

  it('applies the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(4000);
    expect(config.DEDUP_DUPLICATE_THRESHOLD).toBeUndefined(); // the embedding model's own
    expect(loadConfig({ DEDUP_DUPLICATE_THRESHOLD: '0.97' }).DEDUP_DUPLICATE_THRESHOLD).toBe(0.97);
    expect(config.GRAPH_BOOST_WEIGHT).toBeUndefined(); // unset: the recall settings schema's default (0.1) applies
    expect(config.NEO4J_URI).toBeUndefined();
    expect(config.API_KEYS).toEqual([]);
  });

  it('coerces numbers and booleans from strings', () => {
    const config = loadConfig({ PORT: '4100', HINTS_ENABLED: 'true', REDACT_EMAILS: '0' });
    expect(config.PORT).toBe(4100);
    expect(config.HINTS_ENABLED).toBe(true);
    expect(config.REDACT_EMAILS).toBe(false);
  });

  it('parses comma-separated lists, trimmed, each item checked', () => {
    expect(loadConfig({ WORKER_NAMESPACES: ' team-a, team-b ,' }).WORKER_NAMESPACES).toEqual(['team-a', 'team-b']);
    expect(loadConfig({}).MAINTENANCE_AUTO_ACTIONS).toEqual(['releaseStaleLeases', 'reembedMissingVectors', 'triggerRetentionSweep']);
    expect(() => loadConfig({ MAINTENANCE_AUTO_ACTIONS: 'releaseStaleLeases,dropEverything' })).toThrow(/MAINTENANCE_AUTO_ACTIONS/);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'example.com:8080' })).toThrow(/ALLOWED_HOSTS/);
  });

  it('names the variable and the accepted range of an invalid value', () => {
    expect(() => loadConfig({ GRAPH_BOOST_WEIGHT: '1.5' })).toThrow(/GRAPH_BOOST_WEIGHT: .*1/);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ NEO4J_URI: 'http://x' })).toThrow(/NEO4J_URI: a bolt:\/\/ or neo4j:\/\/ URI/);
  });

  it('a config file that is not valid JSON is refused without quoting its text, which holds the keys', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemograph-config-'));
    const key = 'Zq9xT4pL2mW8vR6kQ3nYhB5s';
    try {
      const file = join(dir, 'config.json');
      for (const [text, where] of [
        [`{"LLM_PROVIDER": "openai",\n "OPENAI_API_KEY": ${key}}`, /not valid JSON$/], // V8 quotes the text after the error
        [`{"ANTHROPIC_API_KEY": "${key}" "LLM_MODEL": "x"}`, /not valid JSON at position \d+ \(line 1 column \d+\)$/],
      ] as const) {
        writeFileSync(file, text);
        let message = '';
        try {
          loadConfig({ MNEMOGRAPH_CONFIG: file });
        } catch (error) {
          expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
          message = (error as Error).message;
        }
        expect(message).toMatch(where);
        expect(message).not.toContain(key.slice(0, 6));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses API keys and rejects short ones', () => {
    const keys = JSON.stringify([{ key: 'k'.repeat(20), namespaces: ['team-a'], readOnly: true }]);
    expect(loadConfig({ API_KEYS: keys }).API_KEYS[0]).toMatchObject({ namespaces: ['team-a'], readOnly: true });
    expect(() => loadConfig({ API_KEYS: JSON.stringify([{ key: 'short', namespaces: ['a'] }]) })).toThrow(/API_KEYS/);
  });
});
