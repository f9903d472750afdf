import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A fault-injecting TCP proxy in front of Neo4j's Bolt port (node:net only). It understands just
 * enough Bolt to find message boundaries: the handshake (magic 0x6060B017 + four 4-byte version
 * proposals; a 4-byte answer, or Bolt's manifest-v1 negotiation when the answer is 0x000001FF),
 * then chunked messages (2-byte big-endian size + data, a 0x0000 chunk ends a message; a lone
 * 0x0000 is a NOOP keep-alive). Each client request gets exactly one summary reply (SUCCESS,
 * FAILURE or IGNORED) in order, RECORDs before it, GOODBYE none: so the proxy knows which reply
 * answers a COMMIT and can swallow it — the commit happened, the client never hears so.
 */

const MAGIC = 0x6060b017;
const MANIFEST_V1 = 0x000001ff;
const SIG = { BEGIN: 0x11, COMMIT: 0x12, GOODBYE: 0x02, SUCCESS: 0x70, RECORD: 0x71 } as const;

export interface ProxyStats {
  connections: number;
  /** COMMIT messages the clients sent. */
  commits: number;
  /** COMMIT replies swallowed (the connection was closed instead). */
  droppedCommitReplies: number;
  /** Connections closed by cutAll, random cuts or the per-reply chance. */
  cuts: number;
}

export type BeginMatcher = (begin: Buffer) => boolean;

export interface TcpProxy {
  readonly port: number;
  /** bolt://127.0.0.1:<port> */
  readonly url: string;
  readonly stats: ProxyStats;
  /** Every BEGIN message the clients sent (its packstream body), in order. */
  readonly begins: Buffer[];
  /** Swallow the next `count` successful COMMIT replies of transactions whose BEGIN matches, closing their connections. */
  dropCommitReplies(count: number, match?: BeginMatcher): void;
  /** Close every open connection now. */
  cutAll(): number;
  /** Before forwarding each server summary, close the connection with this probability instead. */
  setCutChance(probability: number): void;
  /** Close all connections at random intervals in [minMs, maxMs]; returns a stop function. */
  randomCuts(minMs: number, maxMs: number): () => void;
  /** Delay every forwarded byte by this much (both directions, order kept). */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

/** Packstream string: tiny (0x80|len), STRING_8 (0xD0 len) or STRING_16. */
export function packstreamString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length < 16) return Buffer.concat([Buffer.from([0x80 | bytes.length]), bytes]);
  if (bytes.length < 256) return Buffer.concat([Buffer.from([0xd0, bytes.length]), bytes]);
  const head = Buffer.alloc(3);
  head[0] = 0xd1;
  head.writeUInt16BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
}

/** Matches a BEGIN whose transaction metadata names this operation (the Executor sets `operation`). */
export function operationIs(operation: string): BeginMatcher {
  const needle = Buffer.concat([packstreamString('operation'), packstreamString(operation)]);
  return (begin) => begin.includes(needle);
}

/** Reads Bolt's chunked framing from a stream of arbitrary TCP pieces. */
class ChunkReader {
  private buffer: Buffer = Buffer.alloc(0);
  private body: Buffer[] = [];
  private raw: Buffer[] = [];

  push(data: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
  }

  take(n: number): Buffer | null {
    if (this.buffer.length < n) return null;
    const head = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return head;
  }

  /** A lone 0x0000 → {noop}; a complete message → its body and raw bytes; null when more data is needed. */
  next(): { noop: true; raw: Buffer } | { noop: false; body: Buffer; raw: Buffer } | null {
    for (;;) {
      if (this.buffer.length < 2) return null;
      const size = this.buffer.readUInt16BE(0);
      if (size === 0) {
        const terminator = this.take(2)!;
        if (this.body.length === 0) return { noop: true, raw: terminator };
        const message = { noop: false as const, body: Buffer.concat(this.body), raw: Buffer.concat([...this.raw, terminator]) };
        this.body = [];
        this.raw = [];
        return message;
      }
      if (this.buffer.length < 2 + size) return null;
      const chunk = this.take(2 + size)!;
      this.raw.push(chunk);
      this.body.push(chunk.subarray(2));
    }
  }

  /** Bolt's varint (7 bits a byte, least significant first); null when incomplete. */
  peekVarInt(at: number): { value: number; next: number } | null {
    let value = 0;
    for (let i = at, shift = 0; i < this.buffer.length; i++, shift += 7) {
      value += (this.buffer[i]! & 0x7f) * 2 ** shift;
      if ((this.buffer[i]! & 0x80) === 0) return { value, next: i + 1 };
    }
    return null;
  }

  get length(): number {
    return this.buffer.length;
  }
}

/** Writes to a socket after a delay, in order. */
class DelayedWriter {
  private lastAt = 0;
  constructor(
    private readonly socket: Socket,
    private readonly latency: () => number,
  ) {}
  write(data: Buffer): void {
    const ms = this.latency();
    if (ms <= 0 && this.lastAt <= Date.now()) {
      if (!this.socket.destroyed) this.socket.write(data);
      return;
    }
    const at = Math.max(Date.now() + ms, this.lastAt);
    this.lastAt = at;
    setTimeout(() => void (this.socket.destroyed ? undefined : this.socket.write(data)), at - Date.now());
  }
}

interface Pending {
  sig: number;
  matched: boolean;
}

export async function startTcpProxy(options: { targetPort: number; targetHost?: string; port?: number }): Promise<TcpProxy> {
  const stats: ProxyStats = { connections: 0, commits: 0, droppedCommitReplies: 0, cuts: 0 };
  const begins: Buffer[] = [];
  const open = new Set<{ cut(): void }>();
  let drops: { count: number; match: BeginMatcher } = { count: 0, match: () => true };
  let cutChance = 0;
  let latencyMs = 0;

  const server: Server = createServer((client) => {
    stats.connections++;
    client.setNoDelay(true);
    const upstream = connect({ host: options.targetHost ?? '127.0.0.1', port: options.targetPort });
    upstream.setNoDelay(true);
    const toServer = new DelayedWriter(upstream, () => latencyMs);
    const toClient = new DelayedWriter(client, () => latencyMs);
    const fromClient = new ChunkReader();
    const fromServer = new ChunkReader();
    const pending: Pending[] = [];
    let clientStage: 'handshake' | 'selection' | 'messages' = 'handshake';
    let serverStage: 'version' | 'manifest' | 'messages' = 'version';
    let manifest = false;
    let beginMatched = false;
    let closed = false;

    const conn = {
      cut() {
        if (closed) return;
        closed = true;
        open.delete(conn);
        client.destroy();
        upstream.destroy();
      },
    };
    open.add(conn);

    const readClient = () => {
      for (;;) {
        if (clientStage === 'handshake') {
          const hello = fromClient.take(20);
          if (!hello) return;
          if (hello.readUInt32BE(0) !== MAGIC) return conn.cut();
          toServer.write(hello);
          clientStage = 'selection';
          continue;
        }
        if (clientStage === 'selection') {
          // Manifest v1: after the server's offer the client answers a version and a capability varint.
          if (serverStage !== 'messages') return;
          if (manifest) {
            const capabilities = fromClient.length >= 4 ? fromClient.peekVarInt(4) : null;
            if (!capabilities) return;
            toServer.write(fromClient.take(capabilities.next)!);
          }
          clientStage = 'messages';
          continue;
        }
        const message = fromClient.next();
        if (!message) return;
        toServer.write(message.raw);
        if (message.noop) continue;
        const sig = message.body[1]!;
        if (sig === SIG.BEGIN) {
          begins.push(message.body);
          beginMatched = drops.match(message.body);
        }
        if (sig === SIG.COMMIT) stats.commits++;
        if (sig !== SIG.GOODBYE) pending.push({ sig, matched: sig === SIG.COMMIT && beginMatched });
      }
    };

    const readServer = () => {
      for (;;) {
        if (serverStage === 'version') {
          const answer = fromServer.take(4);
          if (!answer) return;
          toClient.write(answer);
          manifest = answer.readUInt32BE(0) === MANIFEST_V1;
          serverStage = manifest ? 'manifest' : 'messages';
          if (!manifest) readClient();
          continue;
        }
        if (serverStage === 'manifest') {
          const count = fromServer.peekVarInt(0);
          if (!count) return;
          const capabilities =
            fromServer.length >= count.next + 4 * count.value ? fromServer.peekVarInt(count.next + 4 * count.value) : null;
          if (!capabilities) return;
          toClient.write(fromServer.take(capabilities.next)!);
          serverStage = 'messages';
          readClient();
          continue;
        }
        const message = fromServer.next();
        if (!message) return;
        if (message.noop || message.body[1] === SIG.RECORD) {
          toClient.write(message.raw);
          continue;
        }
        const request = pending.shift();
        if (request?.sig === SIG.COMMIT && request.matched && message.body[1] === SIG.SUCCESS && drops.count > 0) {
          drops.count--;
          stats.droppedCommitReplies++;
          return conn.cut();
        }
        if (cutChance > 0 && Math.random() < cutChance) {
          stats.cuts++;
          return conn.cut();
        }
        toClient.write(message.raw);
      }
    };

    client.on('data', (data: Buffer) => {
      fromClient.push(data);
      readClient();
    });
    upstream.on('data', (data: Buffer) => {
      fromServer.push(data);
      readServer();
    });
    for (const socket of [client, upstream]) {
      socket.on('error', () => conn.cut());
      socket.on('close', () => conn.cut());
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const cutAll = () => {
    const all = [...open];
    for (const conn of all) conn.cut();
    stats.cuts += all.length;
    return all.length;
  };
  const timers = new Set<NodeJS.Timeout>();

  return {
    port,
    url: `bolt://127.0.0.1:${port}`,
    stats,
    begins,
    dropCommitReplies(count, match = () => true) {
      drops = { count, match };
    },
    cutAll,
    setCutChance(probability) {
      cutChance = probability;
    },
    randomCuts(minMs, maxMs) {
      let stopped = false;
      const schedule = () => {
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            if (stopped) return;
            cutAll();
            schedule();
          },
          minMs + Math.random() * (maxMs - minMs),
        );
        timers.add(timer);
      };
      schedule();
      return () => {
        stopped = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
      };
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
