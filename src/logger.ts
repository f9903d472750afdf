import { destination, pino, type Logger } from 'pino';

export type { Logger };

/**
 * One structured logger; callers derive children carrying requestId, jobId or workerId.
 * `fd` 2 sends logs to stderr (the stdio MCP server keeps stdout for the protocol).
 */
export function createLogger(level: string, name = 'mnemograph', fd: 1 | 2 = 1): Logger {
  const options = {
    name,
    level,
    // Secrets, vectors and prompts never reach the logs, even if passed by mistake.
    redact: {
      paths: ['password', '*.password', 'apiKey', '*.apiKey', 'embedding', '*.embedding', 'prompt', '*.prompt'],
      censor: '[redacted]',
    },
  };
  return fd === 2 ? pino(options, destination(2)) : pino(options);
}
