#!/usr/bin/env node
// node scripts/neo4j.mjs start|stop|status|java — local Neo4j without Docker (see neo4j-server.mjs).
import { describeJava, findJava, neo4jStatus, passwordFile, startNeo4j, stopNeo4j } from './neo4j-server.mjs';

const env = process.env;
const opts = {
  home: env.NEO4J_HOME_DIR || undefined,
  boltPort: env.NEO4J_BOLT_PORT || undefined,
  httpPort: env.NEO4J_HTTP_PORT || undefined,
  password: env.NEO4J_PASSWORD || undefined,
  heapMb: env.NEO4J_HEAP_MB || undefined,
};

const commands = {
  async start() {
    const r = await startNeo4j(opts);
    const secret = opts.password ? 'NEO4J_PASSWORD' : passwordFile(opts.home);
    console.log(
      `${r.boltUrl}  user=${r.user}  password: ${secret}  browser=${r.httpUrl}/browser/  home=${r.home}  pid=${r.pid}` +
        (r.alreadyRunning ? '  (already running)' : ''),
    );
  },
  async stop() {
    await stopNeo4j(opts);
  },
  /** Finds (or provisions) the Java the server would run on and prints it. */
  async java() {
    console.log(describeJava(findJava({ quiet: true })));
  },
  async status() {
    const s = await neo4jStatus(opts);
    console.log(JSON.stringify(s, null, 2));
    process.exitCode = s.running ? 0 : 3; // like `neo4j status`: non-zero when not running
  },
};

const command = commands[process.argv[2]];
if (!command) {
  console.error('usage: node scripts/neo4j.mjs start|stop|status|java');
  process.exit(2);
}
try {
  await command();
} catch (e) {
  console.error(`neo4j ${process.argv[2]}: ${e.message}`);
  process.exit(1);
}
