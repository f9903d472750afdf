import os from 'node:os';
import { createServices, prepareServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';

/** Services for a benchmark: worker off, quiet logs, the provisioned model. */
export async function benchServices(uri: string, password: string, env: Record<string, string> = {}): Promise<Services> {
  const config = loadConfig({ ...process.env, NEO4J_URI: uri, NEO4J_PASSWORD: password, LOG_LEVEL: 'warn', WORKER_ENABLED: 'false', MAX_BATCH_SIZE: '1000', ...env });
  const services = createServices(config, createLogger(config.LOG_LEVEL), { neo4jUri: uri });
  await prepareServices(services);
  return services;
}

export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export function machineFacts() {
  return { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))) };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
