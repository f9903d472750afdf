import { destination, pino, type Logger } from 'pino';

export type { Logger };

/** The configuration's secrets (src/config/schema.ts), censored wherever a logged object holds them. */
export const SECRET_KEYS = ['NEO4J_PASSWORD', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'EMBEDDING_API_KEY', 'API_KEYS'] as const;

/** Secrets, vectors and prompts never reach the logs, even if passed by mistake; the configuration's secrets by name too. */
export const LOG_REDACTION = {
  paths: [
    'password',
    '*.password',
    'apiKey',
    '*.apiKey',
    'embedding',
    '*.embedding',
    'prompt',
    '*.prompt',
    ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
  ],
  censor: '[redacted]',
};

/**
 * One structured logger; callers derive children carrying requestId, jobId or workerId.
 * `fd` 2 sends logs to stderr (the stdio MCP server keeps stdout for the protocol).
 */
export function createLogger(level: string, name = 'mnemograph', fd: 1 | 2 = 1): Logger {
  const options = { name, level, redact: LOG_REDACTION };
  return fd === 2 ? pino(options, destination(2)) : pino(options);
}
