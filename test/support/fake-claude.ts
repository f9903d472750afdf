import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in for the `claude` CLI (Claude Code) as `claude -p --output-format json` speaks:
 * `--version`, `--help` (listing `--json-schema` or not, as newer and older releases do), and a
 * print-mode call that reads the prompt on stdin and prints one JSON result envelope
 * (`{type: "result", subtype, is_error, result, structured_output?, usage}`). Each call takes
 * the next scripted reply; every call's arguments and stdin are kept for the test to read.
 */
export interface FakeClaudeReply {
  /** The answer text (`result`); with --json-schema, parsed into `structured_output` too. */
  result?: string;
  delayMs?: number;
  exitCode?: number;
  isError?: boolean;
  /** Printed instead of the envelope. */
  raw?: string;
  /** Printed on stderr (before the envelope, if any). */
  stderr?: string;
}

export interface FakeClaude {
  /** The executable to give LLM_CLAUDE_CODE_BIN. */
  readonly bin: string;
  enqueue(...replies: FakeClaudeReply[]): void;
  calls(): Array<{ args: string[]; stdin: string }>;
  close(): Promise<void>;
}

const SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const dir = __dirname;
const args = process.argv.slice(2);
if (args[0] === '--version') { console.log('2.1.0 (Claude Code)'); process.exit(0); }
if (args[0] === '--help') {
  const schema = fs.existsSync(path.join(dir, 'schema-option'));
  console.log('Usage: claude [options] [prompt]\\n  -p, --print  Print response and exit\\n  --output-format <format>  "text", "json" or "stream-json"\\n  --model <model>' + (schema ? '\\n  --json-schema <schema>  JSON Schema for structured output' : ''));
  process.exit(0);
}
let stdin = '';
process.stdin.on('data', (c) => (stdin += c));
process.stdin.on('end', () => {
  fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ args, stdin }) + '\\n');
  const file = path.join(dir, 'replies.json');
  const replies = JSON.parse(fs.readFileSync(file, 'utf8'));
  const reply = replies.shift() || { result: '{}' };
  fs.writeFileSync(file, JSON.stringify(replies));
  setTimeout(() => {
    if (reply.stderr !== undefined) process.stderr.write(reply.stderr);
    if (reply.raw !== undefined) process.stdout.write(reply.raw);
    else {
      const i = args.indexOf('--json-schema');
      let structured;
      if (i >= 0) { try { structured = JSON.parse(reply.result); } catch {} }
      process.stdout.write(JSON.stringify({
        type: 'result', subtype: reply.isError ? 'error_during_execution' : 'success', is_error: !!reply.isError,
        duration_ms: reply.delayMs || 1, num_turns: 1, result: reply.result, session_id: 'fake',
        ...(structured !== undefined ? { structured_output: structured } : {}),
        total_cost_usd: 0.0001, usage: { input_tokens: Math.ceil(stdin.length / 4), output_tokens: Math.ceil(String(reply.result).length / 4) },
      }));
    }
    process.exit(reply.exitCode || 0);
  }, reply.delayMs || 0);
});
`;

export async function startFakeClaude(options: { schemaOption?: boolean } = {}): Promise<FakeClaude> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-claude-'));
  writeFileSync(join(dir, 'fake-claude.cjs'), SCRIPT);
  writeFileSync(join(dir, 'replies.json'), '[]');
  writeFileSync(join(dir, 'calls.jsonl'), '');
  if (options.schemaOption ?? true) writeFileSync(join(dir, 'schema-option'), '');
  const bin = join(dir, 'claude');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${join(dir, 'fake-claude.cjs')}" "$@"\n`);
  chmodSync(bin, 0o755);
  return {
    bin,
    enqueue: (...replies) => {
      const file = join(dir, 'replies.json');
      writeFileSync(file, JSON.stringify([...(JSON.parse(readFileSync(file, 'utf8')) as FakeClaudeReply[]), ...replies]));
    },
    calls: () =>
      readFileSync(join(dir, 'calls.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { args: string[]; stdin: string }),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
