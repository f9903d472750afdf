import { readFileSync } from 'node:fs';
import { MnemographError } from '../errors.js';
import type { ZodIssue } from 'zod/v3';
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
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issueMessage(issue)}`);
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
    throw new MnemographError('CONFIG_INVALID', `MNEMOGRAPH_CONFIG=${path}: ${fileProblem(error)}`);
  }
}

/**
 * Why the file was refused. A JSON syntax error says where, never V8's excerpt of the text around
 * it: the file holds the API keys, and an unquoted key would be quoted in the message.
 */
function fileProblem(error: unknown): string {
  if (!(error instanceof SyntaxError)) return (error as Error).message;
  const where = / at position \d+(?: \(line \d+ column \d+\))?/.exec(error.message)?.[0] ?? '';
  return `not valid JSON${where}`;
}

/**
 * What a value must be, never the value: a key pasted into the wrong variable (LLM_PROVIDER=sk-…)
 * must not reach the start-up error. Zod's enum message quotes what it received; the others name
 * only the expected and received types.
 */
function issueMessage(issue: ZodIssue): string {
  if (issue.code === 'invalid_enum_value') return `must be one of ${issue.options.map((o) => `'${String(o)}'`).join(' | ')}`;
  return issue.message;
}
