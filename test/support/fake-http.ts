import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

/** The HTTP plumbing every fake model server shares (fake-ollama.ts, fake-model-api.ts). */

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Scripted delays: each resolves after `ms`, or early when the client disconnects; `clear` ends them all. */
export function clientWaits(): { wait(ms: number, res: ServerResponse): Promise<void>; clear(): void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    wait: (ms, res) =>
      new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        timers.add(timer);
        res.once('close', done);
        function done() {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        }
      }),
    clear() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Listens on a free loopback port; the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Stops the delays, drops every connection and closes the server. */
export async function closeFake(server: Server, waits: { clear(): void }): Promise<void> {
  waits.clear();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A loopback port nothing listens on (bound, then released): a server that is down, connection refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
