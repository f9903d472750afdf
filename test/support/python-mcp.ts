import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The official Python MCP SDK as a 2025-era client: PyPI's `mcp` on its last 1.x release (the
 * 2025 protocol: `initialize`, then requests in a session), in a virtualenv under `.cache/`
 * made on first use, as `npm run model:provision` makes its own.
 */
export const PYTHON_MCP_PACKAGE = 'mcp==1.30.0';
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const VENV = path.join(REPO, '.cache', 'mcp-python-venv');
const CLIENT = fileURLToPath(new URL('./mcp_python_client.py', import.meta.url));
const PYTHON = path.join(VENV, 'bin', 'python');

/**
 * The virtualenv's python, with the SDK installed (once: later calls find it). Asynchronous on
 * purpose: a first `pip install` on a clean clone can take longer than the 60 s in which a vitest
 * worker must answer its runner, and a synchronous one would block the worker that long.
 */
export async function pythonMcp(): Promise<string> {
  const version = PYTHON_MCP_PACKAGE.split('==')[1];
  const probe = await run(PYTHON, ['-c', `import mcp, importlib.metadata as m; assert m.version('mcp') == '${version}'`]);
  if (probe.status === 0) return PYTHON;
  if (existsSync(VENV)) rmSync(VENV, { recursive: true, force: true });
  const must = async (command: string, args: string[]) => {
    const result = await run(command, args);
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  };
  await must(process.env.PYTHON || 'python3', ['-m', 'venv', VENV]);
  await must(PYTHON, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', PYTHON_MCP_PACKAGE]);
  return PYTHON;
}

function run(command: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ status: -1, stderr: String(error) }));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

export interface PythonCall {
  tool: string;
  arguments?: Record<string, unknown>;
}

export type PythonPlan =
  | { transport: 'http'; url: string; headers?: Record<string, string> }
  | { transport: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string };

export interface PythonOutcome {
  protocolVersion: string;
  serverName: string;
  instructions: string | null;
  tools: string[];
  results: Array<{ isError: boolean; text: string; blocks: number; json: any }>;
}

/** Runs the Python client (test/support/mcp_python_client.py) through `plan`'s calls; rejects with its stderr when it fails. */
export function runPythonClient(python: string, plan: PythonPlan, calls: PythonCall[], timeoutMs = 300_000): Promise<PythonOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [CLIENT, JSON.stringify({ ...plan, calls, timeoutSeconds: timeoutMs / 1000 })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`the Python MCP client exited ${code}: ${stderr.slice(-3_000)}`));
      const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as PythonOutcome;
      for (const result of outcome.results) {
        try {
          result.json = JSON.parse(result.text);
        } catch {
          result.json = null;
        }
      }
      resolve(outcome);
    });
  });
}
