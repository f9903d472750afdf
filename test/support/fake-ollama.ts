import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { clientWaits, closeFake, listenOnLoopback, readBody, sendJson } from './fake-http.js';

/**
 * A protocol-faithful stand-in for an Ollama server (node:http on 127.0.0.1, random port):
 * POST /api/generate and /api/chat (non-streamed JSON or NDJSON streams), GET /api/tags and
 * /api/version, JSON `{error}` bodies on failure — what the `ollama` client really talks to.
 * Each test scripts the model: a queue of replies, then a function of the request.
 * `format` is checked as Ollama checks it ("json" or a JSON Schema object); token counts and
 * durations are reported from the prompt and answer lengths at a configurable model speed, and
 * `realTime` makes each answer take that long, like a small model on a CPU.
 */

export interface FakeRequest {
  path: '/api/generate' | '/api/chat';
  model: string;
  /** The prompt (generate) or the last user message (chat). */
  prompt: string;
  format: unknown;
  stream: boolean;
  /** Set when the client went away before the reply was sent (a timed-out call). */
  aborted: boolean;
}

/** The model's text, or a scripted failure. */
export type FakeReply =
  | string
  | { text: string; delayMs?: number }
  | { status: number; error?: string; delayMs?: number }
  | { raw: string; status?: number; contentType?: string; delayMs?: number };

export type FakeScript = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeOllama {
  readonly url: string;
  /** Every model request received, in order. */
  readonly requests: FakeRequest[];
  /** Replies consumed in order before the script is asked. */
  enqueue(...replies: FakeReply[]): void;
  respond(script: FakeScript): void;
  setModels(names: string[]): void;
  close(): Promise<void>;
}

export const FAKE_OLLAMA_VERSION = '0.6.8';

/** Tokens per second of a 4B model on a laptop CPU: what the reported durations assume. */
export interface FakeSpeed {
  promptTokensPerSecond: number;
  evalTokensPerSecond: number;
  /** Reported once per request, like a model already in memory. */
  loadMs: number;
}
export const DEFAULT_FAKE_SPEED: FakeSpeed = { promptTokensPerSecond: 400, evalTokensPerSecond: 25, loadMs: 20 };
/** Roughly what a BPE tokenizer makes of English text. */
export const fakeTokenCount = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/**
 * `timeScale` (with realTime) multiplies the time an answer takes, not the durations reported:
 * a bench can replay hours of model time in minutes and still report the model's figures.
 */
export async function startFakeOllama(
  options: { models?: string[]; script?: FakeScript; speed?: Partial<FakeSpeed>; realTime?: boolean; timeScale?: number } = {},
): Promise<FakeOllama> {
  const speed: FakeSpeed = { ...DEFAULT_FAKE_SPEED, ...options.speed };
  let models = options.models ?? ['qwen3:4b'];
  let script: FakeScript = options.script ?? ((r) => ({ status: 500, error: `fake-ollama: no scripted reply for ${r.path}` }));
  const queue: FakeReply[] = [];
  const requests: FakeRequest[] = [];
  const waits = clientWaits();
  const wait = waits.wait;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: Error) => sendJson(res, 500, { error: `fake-ollama: ${error.message}` }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/api/version') return sendJson(res, 200, { version: FAKE_OLLAMA_VERSION });
    if (req.method === 'GET' && url.pathname === '/api/tags') return sendJson(res, 200, { models: models.map(modelEntry) });
    if (req.method !== 'POST' || (url.pathname !== '/api/generate' && url.pathname !== '/api/chat')) {
      return sendJson(res, 404, { error: `404 page not found` });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: 'invalid character in request body' });
    }
    if (typeof body.model !== 'string' || body.model === '') return sendJson(res, 400, { error: 'model is required' });
    if (!models.includes(body.model)) return sendJson(res, 404, { error: `model "${body.model}" not found, try pulling it first` });
    if (!validFormat(body.format)) return sendJson(res, 400, { error: 'invalid format: expected "json" or a valid JSON schema' });

    const request: FakeRequest = {
      path: url.pathname,
      model: body.model,
      prompt: url.pathname === '/api/generate' ? String(body.prompt ?? '') : lastUserMessage(body.messages),
      format: body.format,
      stream: body.stream !== false, // Ollama streams unless told otherwise
      aborted: false,
    };
    requests.push(request);
    res.on('close', () => {
      if (!res.writableEnded) request.aborted = true;
    });

    const reply = queue.length > 0 ? queue.shift()! : await script(request);
    const modelMs =
      options.realTime && !(typeof reply === 'object' && !('text' in reply))
        ? timing(request.prompt, typeof reply === 'string' ? reply : reply.text, speed).totalMs * (options.timeScale ?? 1)
        : 0;
    const delayMs = (typeof reply === 'object' ? (reply.delayMs ?? 0) : 0) + modelMs;
    if (delayMs > 0) await wait(delayMs, res);
    if (res.destroyed || request.aborted) return;

    if (typeof reply === 'object' && 'raw' in reply) {
      res.writeHead(reply.status ?? 200, { 'Content-Type': reply.contentType ?? 'application/json; charset=utf-8' });
      res.end(reply.raw);
    } else if (typeof reply === 'object' && 'status' in reply) {
      sendJson(res, reply.status, { error: reply.error ?? 'internal server error' });
    } else {
      sendModelText(res, request, typeof reply === 'string' ? reply : reply.text, speed);
    }
  }

  const port = await listenOnLoopback(server);

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    respond: (next) => void (script = next),
    setModels: (names) => void (models = names),
    close: () => closeFake(server, waits),
  };
}

function timing(prompt: string, text: string, speed: FakeSpeed) {
  const promptTokens = fakeTokenCount(prompt);
  const evalTokens = fakeTokenCount(text);
  const promptMs = (promptTokens / speed.promptTokensPerSecond) * 1000;
  const evalMs = (evalTokens / speed.evalTokensPerSecond) * 1000;
  return { promptTokens, evalTokens, promptMs, evalMs, totalMs: speed.loadMs + promptMs + evalMs };
}

const MS_TO_NS = 1e6;

function sendModelText(res: ServerResponse, request: FakeRequest, text: string, speed: FakeSpeed): void {
  const created_at = new Date().toISOString();
  const t = timing(request.prompt, text, speed);
  const stats = {
    total_duration: Math.round(t.totalMs * MS_TO_NS),
    load_duration: Math.round(speed.loadMs * MS_TO_NS),
    prompt_eval_count: t.promptTokens,
    prompt_eval_duration: Math.round(t.promptMs * MS_TO_NS),
    eval_count: t.evalTokens,
    eval_duration: Math.round(t.evalMs * MS_TO_NS),
  };
  const piece = (content: string, done: boolean) =>
    request.path === '/api/generate'
      ? {
          model: request.model,
          created_at,
          response: content,
          done,
          ...(done ? { done_reason: 'stop', context: [1, 2, 3], ...stats } : {}),
        }
      : {
          model: request.model,
          created_at,
          message: { role: 'assistant', content },
          done,
          ...(done ? { done_reason: 'stop', ...stats } : {}),
        };
  if (!request.stream) return sendJson(res, 200, piece(text, true));
  // NDJSON stream: the text in a few pieces, then the closing `done` object.
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  for (const part of text.match(/[\s\S]{1,16}/g) ?? []) res.write(`${JSON.stringify(piece(part, false))}\n`);
  res.end(`${JSON.stringify(piece('', true))}\n`);
}

function modelEntry(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-01-01T00:00:00Z',
    size: 2_600_000_000,
    digest: 'f'.repeat(64),
    details: {
      parent_model: '',
      format: 'gguf',
      family: 'qwen3',
      families: ['qwen3'],
      parameter_size: '4.0B',
      quantization_level: 'Q4_K_M',
    },
  };
}

function lastUserMessage(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const users = messages.filter(
    (m): m is { role: string; content: string } => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'user',
  );
  return users.at(-1)?.content ?? '';
}

/** What Ollama accepts as `format`: absent, "json", or a JSON Schema object. */
function validFormat(format: unknown): boolean {
  if (format === undefined || format === null || format === '' || format === 'json') return true;
  if (typeof format !== 'object' || Array.isArray(format)) return false;
  const schema = format as Record<string, unknown>;
  return 'type' in schema || 'properties' in schema || '$ref' in schema || 'anyOf' in schema;
}
