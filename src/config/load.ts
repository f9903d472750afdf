import { readFileSync } from 'node:fs';
import { MnemographError } from '../errors.js';
import { configSchema, type Config } from './schema.js';

/**
 * Reads the optional JSON file named by MNEMOGRAPH_CONFIG, overlays the environment, and
 * validates once. An invalid value names the variable and what it accepts.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const fromFile = env.MNEMOGRAPH_CONFIG ? readConfigFile(env.MNEMOGRAPH_CONFIG) : {};
  const fromEnv = Object.fromEntries(
    Object.keys(configSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const result = configSchema.safeParse({ ...fromFile, ...fromEnv });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new MnemographError('CONFIG_INVALID', `invalid configuration — ${problems.join('; ')}`, { details: { problems } });
  }
  return result.data;
}

function readConfigFile(path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    // Nested values (API_KEYS as an array) are accepted in the file and re-serialised for the schema.
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v]));
  } catch (error) {
    throw new MnemographError('CONFIG_INVALID', `MNEMOGRAPH_CONFIG=${path}: ${(error as Error).message}`);
  }
}
