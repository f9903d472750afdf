import { afterEach, describe, expect, it } from 'vitest';
import { startFakeClaude, type FakeClaude } from '../../test/support/fake-claude.js';
import { ClaudeCodeProvider } from './claude-code-provider.js';
import { LlmError, LlmTimeoutError } from './provider.js';
import { meterUsage } from './usage.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

describe('ClaudeCodeProvider against a fake claude executable', () => {
  let fake: FakeClaude;
  afterEach(() => fake.close());

  it('runs claude -p --output-format json with the prompt on stdin and the schema through --json-schema', async () => {
    fake = await startFakeClaude({ schemaOption: true });
    fake.enqueue({ result: '{"ok":true}' });
    const provider = new ClaudeCodeProvider({ bin: fake.bin, model: 'haiku' });
    const { usage, outcome } = await meterUsage(() => provider.generate('is it ok?', { timeoutMs: 10_000, format: SCHEMA }));
    expect(outcome).toEqual({ status: 'fulfilled', value: '{"ok":true}' });
    const [call] = fake.calls();
    expect(call!.args).toEqual(['-p', '--output-format', 'json', '--model', 'haiku', '--json-schema', JSON.stringify(SCHEMA)]);
    expect(call!.stdin).toBe('is it ok?');
    expect(usage.calls).toBe(1);
    expect(usage.evalTokens).toBeGreaterThan(0);
  });

  it('an older claude without --json-schema gets the schema in the prompt', async () => {
    fake = await startFakeClaude({ schemaOption: false });
    fake.enqueue({ result: '```json\n{"ok":false}\n```' });
    const provider = new ClaudeCodeProvider({ bin: fake.bin, model: 'haiku' });
    await expect(provider.generate('is it ok?', { timeoutMs: 10_000, format: SCHEMA })).resolves.toContain('{"ok":false}');
    const [call] = fake.calls();
    expect(call!.args).not.toContain('--json-schema');
    expect(call!.stdin).toContain(JSON.stringify(SCHEMA));
  });

  it('is killed at the deadline, and runs at most `concurrency` calls at once', async () => {
    fake = await startFakeClaude();
    fake.enqueue({ result: '{"ok":true}', delayMs: 5_000 });
    const provider = new ClaudeCodeProvider({ bin: fake.bin, model: 'haiku', concurrency: 1 });
    await provider.available(); // warm the --help probe out of the timings
    const started = Date.now();
    const slow = provider.generate('slow', { timeoutMs: 800, format: SCHEMA }).catch((e: unknown) => e);
    // Waits for the one slot; the slow call holds it past this call's deadline.
    const queued = provider.generate('queued', { timeoutMs: 300, format: SCHEMA }).catch((e: unknown) => e);
    expect(await queued).toBeInstanceOf(LlmTimeoutError);
    expect(await slow).toBeInstanceOf(LlmTimeoutError);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(fake.calls().map((c) => c.stdin)).toEqual(['slow']);
    // The slot is free again.
    fake.enqueue({ result: '{"ok":true}' });
    await expect(provider.generate('next', { timeoutMs: 10_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
  });

  it('an error result, no JSON, or a missing executable are typed errors', async () => {
    fake = await startFakeClaude();
    fake.enqueue({ result: 'Credit balance is too low', isError: true, exitCode: 1 }, { raw: 'not json' });
    const provider = new ClaudeCodeProvider({ bin: fake.bin, model: 'haiku' });
    await expect(provider.generate('p', { timeoutMs: 10_000 })).rejects.toThrow(/claude reported an error/);
    const noJson = await provider.generate('p', { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(noJson).toBeInstanceOf(LlmError);
    expect((noJson as LlmError).retriable).toBe(false);
    const missing = new ClaudeCodeProvider({ bin: `${fake.bin}-missing`, model: 'haiku' });
    await expect(missing.generate('p', { timeoutMs: 10_000 })).rejects.toThrow(/could not be started.*ENOENT/);
    await expect(missing.available()).resolves.toBe(false);
    await expect(provider.available()).resolves.toBe(true);
  });

  it('what claude says on stderr or in an error result is redacted before it is cut: no key it echoes reaches the message', async () => {
    fake = await startFakeClaude();
    const key = 'sk-ant-api03-Zq9xT4pL2mW8vR6kQ3nYhB5sUe7w';
    fake.enqueue(
      { raw: '', stderr: `API Error: 401 {"type":"error","error":{"message":"invalid x-api-key ${key}"}}`, exitCode: 1 },
      { result: `Invalid API key ${key} · Please run /login`, isError: true, exitCode: 1 },
    );
    const provider = new ClaudeCodeProvider({ bin: fake.bin, model: 'haiku' });
    for (const said of [/claude exited with 1.*invalid x-api-key/, /claude reported an error.*Invalid API key/]) {
      const error = await provider.generate('p', { timeoutMs: 10_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as Error).message).toMatch(said);
      expect((error as Error).message).not.toContain(key.slice(-16));
      expect((error as Error).message).not.toContain('sk-ant-api03-Zq');
    }
  });
});
