import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neo4jStatus, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { MAIN_ARGS, spawnProcess } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// This test's own Neo4j home and ports (nobody else uses them).
const NEO4J = { home: path.join(ROOT, '.neo4j', 'mcp-main-test'), boltPort: 47787, httpPort: 47774 };
const PID_FILE = path.join(NEO4J.home, 'run', 'neo4j.pid');
const START_MS = 420_000;

interface Service {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
  waitFor(test: (line: Record<string, unknown>) => boolean, what: string): Promise<void>;
}

/** `npm start`'s own entry (src/main.ts) with no NEO4J_URI: it must start its local Neo4j itself. */
function startMain(port: number): Service {
  const main = spawnProcess({
    name: 'main',
    args: MAIN_ARGS,
    cwd: ROOT,
    inheritEnv: false,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? ROOT,
      NEO4J_HOME_DIR: NEO4J.home,
      NEO4J_BOLT_PORT: String(NEO4J.boltPort),
      NEO4J_HTTP_PORT: String(NEO4J.httpPort),
      PORT: String(port),
      WORKER_ENABLED: 'false',
      LOG_LEVEL: 'info',
      ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
      ...(process.env.EMBEDDING_MODEL_DIR ? { EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR } : {}),
    },
  });
  return {
    child: main.child,
    lines: main.logs,
    exited: main.exited,
    waitFor: (test, what) => main.waitForLog(test, what, START_MS),
  };
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 1_000 });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // An exited JVM whose parent (main) is gone can stay a zombie here (PID 1 may not reap it).
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const isReady = (line: Record<string, unknown>) => typeof line.msg === 'string' && line.msg.startsWith('Mnemograph ready at');

async function expectStopped(jvmPid: number): Promise<void> {
  expect(alive(jvmPid)).toBe(false);
  expect(await portOpen(NEO4J.boltPort)).toBe(false);
  expect(await neo4jStatus(NEO4J)).toMatchObject({ running: false, pid: null });
}

describe('`npm start` (src/main.ts) stops the local Neo4j it started, whenever it is stopped', () => {
  // A server (or pid file) left by an earlier, interrupted run would blur what this one starts.
  beforeAll(() => stopNeo4j({ ...NEO4J, quiet: true }), 120_000);
  afterAll(async () => {
    // Whatever a failed assertion left behind.
    await stopNeo4j({ ...NEO4J, quiet: true });
  }, 120_000);

  it('Ctrl-C while the local Neo4j is still starting: it waits for it, stops it, and exits 0', async () => {
    const main = startMain(47780);
    await main.waitFor(
      (line) => line.msg === 'NEO4J_URI not set: starting the local Neo4j (npm run neo4j:start)',
      'start of the local Neo4j',
    );
    // The JVM is launched (its pid written) but Neo4j is not serving yet.
    const deadline = Date.now() + START_MS;
    while (!existsSync(PID_FILE) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const jvmPid = Number(readFileSync(PID_FILE, 'utf8').trim());
    expect(alive(jvmPid)).toBe(true);
    expect(main.lines.some(isReady)).toBe(false);
    main.child.kill('SIGINT');
    expect(await main.exited).toBe(0);
    expect(main.lines.some((line) => line.msg === 'stopping during start-up')).toBe(true);
    await expectStopped(jvmPid);
  }, 600_000);

  it('Ctrl-C once ready stops the Neo4j it started; a second instance that found it running leaves it alone', async () => {
    const owner = startMain(47780);
    await owner.waitFor(isReady, 'ready line');
    const jvmPid = Number(readFileSync(PID_FILE, 'utf8').trim());
    expect(await neo4jStatus(NEO4J)).toMatchObject({ running: true, pid: jvmPid });

    // Port 0: any free port; this one finds the Neo4j already running.
    const guest = startMain(0);
    await guest.waitFor(isReady, 'ready line of the second instance');
    guest.child.kill('SIGINT');
    expect(await guest.exited).toBe(0);
    expect(guest.lines.some((line) => line.msg === 'stopping the local Neo4j this process started')).toBe(false);
    expect(await neo4jStatus(NEO4J)).toMatchObject({ running: true, pid: jvmPid });
    expect(await portOpen(NEO4J.boltPort)).toBe(true);

    owner.child.kill('SIGINT');
    expect(await owner.exited).toBe(0);
    expect(owner.lines.some((line) => line.msg === 'shutting down: draining requests')).toBe(true);
    await expectStopped(jvmPid);
  }, 900_000);
});
