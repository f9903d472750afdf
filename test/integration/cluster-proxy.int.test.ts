import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { operationIs, packstreamString, startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/** The proxy's Bolt framing against a scripted Bolt server, with every byte sent in its own TCP write. */

const SIG = { HELLO: 0x01, GOODBYE: 0x02, BEGIN: 0x11, COMMIT: 0x12, RUN: 0x10, PULL: 0x3f, SUCCESS: 0x70, RECORD: 0x71 };
const chunked = (...bodies: Buffer[]) =>
  Buffer.concat(bodies.flatMap((body) => [Buffer.from([body.length >> 8, body.length & 0xff]), body]).concat(Buffer.from([0, 0])));
const message = (sig: number, ...fields: Buffer[]) => Buffer.concat([Buffer.from([0xb0 | fields.length, sig]), ...fields]);
const EMPTY_MAP = Buffer.from([0xa0]);
const map1 = (key: string, value: Buffer) => Buffer.concat([Buffer.from([0xa1]), packstreamString(key), value]);
const HANDSHAKE = Buffer.from([0x60, 0x60, 0xb0, 0x17, 0, 0, 1, 0xff, 0, 8, 8, 5, 0, 2, 4, 4, 0, 0, 0, 3]);

/** Answers every request with SUCCESS (PULL: a RECORD first, GOODBYE: nothing); a NOOP before each reply. */
async function fakeBoltServer(options: { manifest: boolean }): Promise<{ port: number; received: number[]; close(): Promise<void> }> {
  const received: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    let stage: 'handshake' | 'selection' | 'messages' = 'handshake';
    let body: Buffer[] = [];
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        if (stage === 'handshake') {
          if (buffer.length < 20) return;
          buffer = buffer.subarray(20);
          if (options.manifest) {
            // 0x000001FF, one offered range (5.8 down to 5.0), capabilities 0.
            socket.write(Buffer.from([0, 0, 1, 0xff, 1, 0, 8, 8, 5, 0]));
            stage = 'selection';
          } else {
            socket.write(Buffer.from([0, 0, 4, 5]));
            stage = 'messages';
          }
          continue;
        }
        if (stage === 'selection') {
          if (buffer.length < 5) return;
          buffer = buffer.subarray(5);
          stage = 'messages';
          continue;
        }
        if (buffer.length < 2) return;
        const size = buffer.readUInt16BE(0);
        if (buffer.length < 2 + size) return;
        if (size > 0) body.push(buffer.subarray(2, 2 + size));
        buffer = buffer.subarray(2 + size);
        if (size > 0) continue;
        const whole = Buffer.concat(body);
        body = [];
        if (whole.length === 0) continue;
        const sig = whole[1]!;
        received.push(sig);
        if (sig === SIG.GOODBYE) continue;
        socket.write(Buffer.from([0, 0])); // NOOP keep-alive
        if (sig === SIG.PULL) socket.write(chunked(message(SIG.RECORD, Buffer.from([0x91, 0x01]))));
        socket.write(chunked(message(SIG.SUCCESS, EMPTY_MAP)));
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client that writes byte by byte and collects the reply signatures it can parse. */
async function boltClient(port: number, manifest: boolean) {
  const socket = connect({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let buffer = Buffer.alloc(0);
  const replies: number[] = [];
  let noops = 0;
  let handshakeBytes = manifest ? 10 : 4;
  socket.on('data', (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    if (handshakeBytes > 0) {
      const n = Math.min(handshakeBytes, buffer.length);
      handshakeBytes -= n;
      buffer = buffer.subarray(n);
    }
    let body: Buffer[] = [];
    let at = 0;
    while (buffer.length - at >= 2) {
      const size = buffer.readUInt16BE(at);
      if (buffer.length - at < 2 + size) break;
      if (size === 0) {
        if (body.length === 0) noops++;
        else replies.push(Buffer.concat(body)[1]!);
        body = [];
        buffer = buffer.subarray(at + 2);
        at = 0;
        continue;
      }
      body.push(buffer.subarray(at + 2, at + 2 + size));
      at += 2 + size;
    }
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  const trickle = async (bytes: Buffer) => {
    for (const byte of bytes) {
      if (socket.destroyed) return;
      socket.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { socket, replies, noops: () => noops, closed, trickle };
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('the Bolt-aware TCP proxy', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0)) await close();
  });

  const transaction = (operation: string) =>
    Buffer.concat([
      chunked(message(SIG.BEGIN, map1('tx_metadata', map1('operation', packstreamString(operation))))),
      // RUN split over two chunks: one message, two chunks.
      chunked(
        message(SIG.RUN, packstreamString('RETURN 1')).subarray(0, 4),
        Buffer.concat([message(SIG.RUN, packstreamString('RETURN 1')).subarray(4), EMPTY_MAP, EMPTY_MAP]),
      ),
      chunked(message(SIG.PULL, map1('n', Buffer.from([0x7f])))),
      chunked(message(SIG.COMMIT)),
    ]);

  for (const manifest of [false, true]) {
    it(`swallows the reply to a matching COMMIT and closes the connection (${manifest ? 'manifest' : 'classic'} handshake, 1-byte writes)`, async () => {
      const server = await fakeBoltServer({ manifest });
      const proxy: TcpProxy = await startTcpProxy({ targetPort: server.port });
      cleanup.push(
        () => proxy.close(),
        () => server.close(),
      );
      const client = await boltClient(proxy.port, manifest);
      await client.trickle(HANDSHAKE);
      await until(() => client.socket.bytesRead >= (manifest ? 10 : 4), 'the handshake answer');
      if (manifest) await client.trickle(Buffer.from([0, 0, 8, 5, 0]));
      await client.trickle(chunked(message(SIG.HELLO, EMPTY_MAP)));
      await until(() => client.replies.length === 1, 'HELLO SUCCESS');

      // Not matching: the COMMIT reply passes.
      await client.trickle(transaction('recall'));
      await until(() => client.replies.length === 6, 'the first transaction');
      expect(client.replies).toEqual([SIG.SUCCESS, SIG.SUCCESS, SIG.SUCCESS, SIG.RECORD, SIG.SUCCESS, SIG.SUCCESS]);

      proxy.dropCommitReplies(1, operationIs('remember'));
      await client.trickle(transaction('remember'));
      await client.closed;
      // BEGIN, RUN, RECORD, PULL answered; the COMMIT reached the server, its answer did not reach the client.
      expect(client.replies.slice(6)).toEqual([SIG.SUCCESS, SIG.SUCCESS, SIG.RECORD, SIG.SUCCESS]);
      await until(() => server.received.filter((s) => s === SIG.COMMIT).length === 2, 'the server to see both COMMITs');
      expect(proxy.stats).toMatchObject({ commits: 2, droppedCommitReplies: 1 });
      expect(client.noops()).toBeGreaterThan(0);
      expect(proxy.begins).toHaveLength(2);
    });
  }

  it('cuts every connection on command and adds latency', async () => {
    const server = await fakeBoltServer({ manifest: false });
    const proxy = await startTcpProxy({ targetPort: server.port });
    cleanup.push(
      () => proxy.close(),
      () => server.close(),
    );
    const client = await boltClient(proxy.port, false);
    client.socket.write(HANDSHAKE);
    await until(() => client.socket.bytesRead >= 4, 'the handshake answer');
    proxy.setLatency(150);
    const started = performance.now();
    client.socket.write(chunked(message(SIG.HELLO, EMPTY_MAP)));
    await until(() => client.replies.length === 1, 'HELLO SUCCESS');
    // One delay each way.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(proxy.cutAll()).toBe(1);
    await client.closed;
  });
});
