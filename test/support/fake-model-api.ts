import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { clientWaits, closeFake, listenOnLoopback, readBody, sendJson } from './fake-http.js';

/**
 * The common half of the fake hosted-model APIs (fake-openai.ts, fake-anthropic.ts): a node:http
 * server on 127.0.0.1 (random port) that records every model request, answers it from a queue of
 * scripted replies (then a script), waits as long as a reply says (ending early when the client
 * goes away, as a timed-out call does), and leaves the protocol — paths, auth, bodies, error
 * shapes — to the fake that uses it.
 */

export interface FakeApiRequest {
  path: string;
  /** Lower-cased request headers: tests check the auth each call carried. */
  headers: Record<string, string | undefined>;
  body: Record<string, unknown>;
  model: string;
  /** The last user message. */
  prompt: string;
  /** Set when the client went away before the reply was sent (a timed-out call). */
  aborted: boolean;
}

/** The model's text, a scripted HTTP error (with headers such as Retry-After), or a raw body. */
export type FakeApiReply =
  | string
  | { text: string; delayMs?: number }
  | { status: number; message?: string; headers?: Record<string, string>; delayMs?: number }
  | { raw: string; status?: number; delayMs?: number };

export type FakeApiScript = (request: FakeApiRequest) => FakeApiReply | Promise<FakeApiReply>;

export interface FakeModelApi {
  /** The base URL the SDK is given (ends in /v1 where the SDK expects it to). */
  readonly url: string;
  readonly requests: FakeApiRequest[];
  enqueue(...replies: FakeApiReply[]): void;
  respond(script: FakeApiScript): void;
  close(): Promise<void>;
}

export interface FakeProtocol {
  /** A non-model route (model lists), or null. */
  other(req: IncomingMessage, url: URL, res: ServerResponse): boolean;
  /** Whether the path is the model endpoint. */
  isModelCall(method: string, path: string): boolean;
  /** A refusal before the model runs (auth, a malformed body): status and error body, or null. */
  refuse(request: FakeApiRequest): { status: number; body: unknown } | null;
  errorBody(status: number, message: string): unknown;
  answer(request: FakeApiRequest, text: string): unknown;
}

export const fakeApiTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export async function startFakeModelApi(protocol: FakeProtocol, basePath: string, script?: FakeApiScript): Promise<FakeModelApi> {
  let next: FakeApiScript = script ?? ((r) => ({ status: 500, message: `fake: no scripted reply for ${r.path}` }));
  const queue: FakeApiReply[] = [];
  const requests: FakeApiRequest[] = [];
  const waits = clientWaits();
  const wait = waits.wait;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: Error) => sendJson(res, 500, protocol.errorBody(500, `fake: ${error.message}`)));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (protocol.other(req, url, res)) return;
    if (!protocol.isModelCall(req.method ?? 'GET', url.pathname))
      return sendJson(res, 404, protocol.errorBody(404, `Not found: ${url.pathname}`));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, protocol.errorBody(400, 'We could not parse the JSON body of your request.'));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : v]));
    const request: FakeApiRequest = {
      path: url.pathname,
      headers,
      body,
      model: typeof body.model === 'string' ? body.model : '',
      prompt: lastUserText(body.messages),
      aborted: false,
    };
    requests.push(request);
    res.on('close', () => {
      if (!res.writableEnded) request.aborted = true;
    });
    const refusal = protocol.refuse(request);
    if (refusal) return sendJson(res, refusal.status, refusal.body);

    const reply = queue.length > 0 ? queue.shift()! : await next(request);
    const delayMs = typeof reply === 'object' ? (reply.delayMs ?? 0) : 0;
    if (delayMs > 0) await wait(delayMs, res);
    if (res.destroyed || request.aborted) return;
    if (typeof reply === 'object' && 'raw' in reply) {
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(reply.raw);
    } else if (typeof reply === 'object' && 'status' in reply) {
      sendJson(
        res,
        reply.status,
        protocol.errorBody(reply.status, reply.message ?? 'The server had an error processing your request.'),
        reply.headers,
      );
    } else {
      sendJson(res, 200, protocol.answer(request, typeof reply === 'string' ? reply : reply.text));
    }
  }

  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    respond: (script) => void (next = script),
    close: () => closeFake(server, waits),
  };
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const user = messages.filter((m) => (m as { role?: unknown })?.role === 'user').at(-1) as { content?: unknown } | undefined;
  if (typeof user?.content === 'string') return user.content;
  if (Array.isArray(user?.content))
    return user.content
      .map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .join('');
  return '';
}

/** The JSON Schema a model call carried: OpenAI's strict `response_format`, or Anthropic's forced tool's `input_schema`; null when none. */
export function requestSchema(request: FakeApiRequest): Record<string, unknown> | null {
  const body = request.body as {
    response_format?: { type?: string; json_schema?: { schema?: Record<string, unknown>; strict?: boolean } };
    tools?: Array<{ name?: string; input_schema?: Record<string, unknown> }>;
    tool_choice?: { type?: string; name?: string };
  };
  if (body.response_format?.type === 'json_schema' && body.response_format.json_schema?.strict === true)
    return body.response_format.json_schema.schema ?? null;
  const forced = body.tool_choice?.type === 'tool' ? body.tools?.find((t) => t.name === body.tool_choice!.name) : undefined;
  return forced?.input_schema ?? null;
}
