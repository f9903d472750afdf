import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config/schema.js';
import { LOG_REDACTION, SECRET_KEYS } from './logger.js';

describe('the logger keeps the configuration’s secrets out', () => {
  it('lists every configuration key that holds a secret', () => {
    const secrets = Object.entries(configSchema.shape)
      .filter(([key, schema]) => /_API_KEY$|PASSWORD$|^API_KEYS$/.test(key) || /\ba secret\b/i.test(schema.description ?? ''))
      .map(([key]) => key);
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    expect([...SECRET_KEYS]).toEqual(expect.arrayContaining(secrets));
  });

  it('censors them in a logged object, at the top or one level down', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const logger = pino({ level: 'info', redact: LOG_REDACTION }, sink);
    logger.info({ OPENAI_API_KEY: 'sk-top-secret-1', config: { ANTHROPIC_API_KEY: 'sk-ant-secret-2', PORT: 4000 } }, 'config');
    const text = lines.join('');
    expect(text).not.toMatch(/sk-top-secret-1|sk-ant-secret-2/);
    expect(text).toContain('"PORT":4000');
  });
});
