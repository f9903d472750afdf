import { pino, type Logger } from 'pino';

export type { Logger };

/** One structured logger; callers derive children carrying requestId, jobId or workerId. */
export function createLogger(level: string, name = 'mnemograph'): Logger {
  return pino({
    name,
    level,
    // Secrets, vectors and prompts never reach the logs, even if passed by mistake.
    redact: { paths: ['password', '*.password', 'apiKey', '*.apiKey', 'embedding', '*.embedding', 'prompt', '*.prompt'], censor: '[redacted]' },
  });
}
