/**
 * Document ingest throughput: one ~1 MB document through ingestDocument and the ingest loop
 * (windows → document_chunk memories through the write path: redaction, chunking, embedding,
 * dedup, one transaction per batch → links), timed end to end.
 *
 *   npm run bench:ingest                  # 1 MB of text
 *   npm run bench:ingest -- --html        # the same text as an HTML page from a local HTTP server (URL fetcher)
 *   flags: --bytes 1048576  --seed 7
 *
 * Starts its own Neo4j (.neo4j/ingest-bench, bolt 47987, http 47974, wiped at start, stopped at
 * the end). A "page" is 3,000 characters of extracted text (about one printed page).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeServices, createServices, prepareServices } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NEO4J = {
  home: join(REPO, '.neo4j', 'ingest-bench'),
  boltPort: 47987,
  httpPort: 47974,
  password: 'ingest-bench-pw',
  heapMb: 512,
  pageCacheMb: 128,
  timeoutMs: 600_000,
};
const PAGE_CHARS = 3_000;

const { values: args } = parseArgs({
  options: { bytes: { type: 'string' }, seed: { type: 'string' }, html: { type: 'boolean', default: false } },
});
const targetBytes = Number(args.bytes ?? 1024 * 1024);

const uptime = () => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return 'uptime unavailable';
  }
};

/** Varied prose from a seeded generator: no two windows alike, so dedup does not shortcut the work. */
function corpus(bytes: number, seed: number): string {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const subjects = [
    'The billing team',
    'Our staging cluster',
    'The mobile client',
    'The on-call engineer',
    'The data platform',
    'Customer support',
    'The search index',
    'The payments gateway',
    'The design review',
    'The release train',
    'Finance',
    'The security audit',
  ];
  const verbs = [
    'migrated',
    'reviewed',
    'rebuilt',
    'measured',
    'postponed',
    'documented',
    'replaced',
    'monitored',
    'scaled down',
    'tested',
    'approved',
    'rolled back',
  ];
  const objects = [
    'the invoice exporter',
    'the Kafka consumers',
    'the nightly backups',
    'the login flow',
    'the cache warmers',
    'the quarterly forecast',
    'the alert thresholds',
    'the Terraform modules',
    'the onboarding guide',
    'the feature flags',
    'the load balancer',
    'the GDPR export',
  ];
  const tails = [
    'after the outage on',
    'ahead of the deadline of',
    'during the freeze starting',
    'before the audit on',
    'as agreed in the meeting of',
    'following the incident of',
  ];
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    const day = 1 + Math.floor(rand() * 28);
    const month = pick([
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ]);
    const sentence = `${pick(subjects)} ${pick(verbs)} ${pick(objects)} ${pick(tails)} ${month} ${day}, ticket OPS-${1000 + n} (${Math.floor(rand() * 900) + 100} changes).`;
    n += 1;
    parts.push(n % 6 === 0 ? `${sentence}\n\n` : `${sentence} `);
    size += sentence.length + 1;
  }
  return parts.join('').slice(0, bytes);
}

async function main(): Promise<void> {
  await stopNeo4j(NEO4J);
  rmSync(join(NEO4J.home, 'data'), { recursive: true, force: true });
  const db = await startNeo4j(NEO4J);
  const config = loadConfig({
    ...process.env,
    NEO4J_PASSWORD: NEO4J.password,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    WORKER_ENABLED: 'false',
    URL_FETCH_ALLOW_PRIVATE_NETWORKS: 'true',
    EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR ?? join(REPO, '.models'),
  });
  const services = createServices(config, createLogger(config.LOG_LEVEL, 'ingest-bench', 2), { neo4jUri: db.boltUrl });
  const server = createServer();
  try {
    await prepareServices(services);
    const text = corpus(targetBytes, Number(args.seed ?? 7));
    const namespace = 'ingest-bench';
    let source: { url: string } | { text: string } = { text };
    if (args.html) {
      const html = `<html><head><title>Ops log</title><style>p{margin:0}</style></head><body>${text
        .split('\n\n')
        .map((p) => `<p>${p}</p>`)
        .join('\n')}</body></html>`;
      server.on('request', (_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      source = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/log.html` };
    }
    // Warm the model (first inference compiles kernels).
    await services.embedder.embed(['warm up the model']);
    const loadBefore = uptime();
    const started = performance.now();
    const document = await services.upkeep.ingestDocument({ namespace, title: 'Ops log', ...source });
    while (await services.upkeep.documents.processNext());
    const seconds = (performance.now() - started) / 1000;
    const done = (await services.upkeep.documents.get(document.id))!;
    if (done.status !== 'DONE') throw new Error(`document ended ${done.status}: ${done.error}`);
    const extractedChars = done.contentBytes ?? text.length;
    const pages = extractedChars / PAGE_CHARS;
    const [counts] = await services.executor.read<{ memories: number; chunks: number }>(
      'bench.counts',
      `MATCH (:Document {id: $id})-[:HAS_PART]->(m:Memory) WITH DISTINCT m RETURN count(m) AS memories, sum(COUNT { (m)-[:HAS_CHUNK]->() }) AS chunks`,
      { id: document.id },
    );
    const lines = [
      `bench:ingest — ${args.html ? 'HTML over HTTP (URL fetcher)' : 'text'}: ${(Buffer.byteLength(text) / 2 ** 20).toFixed(2)} MiB, ${extractedChars.toLocaleString('en')} bytes extracted`,
      `windows (document chunks): ${done.chunksTotal} of ${config.DOCUMENT_CHUNK_SIZE} chars, overlap ${config.DOCUMENT_CHUNK_OVERLAP}; memories ${counts?.memories}; embedded vector chunks ${counts?.chunks}`,
      `time: ${seconds.toFixed(1)} s`,
      `throughput: ${(pages / seconds).toFixed(2)} pages/s (page = ${PAGE_CHARS} chars), ${(done.chunksTotal / seconds).toFixed(2)} document chunks/s, ${(Number(counts?.chunks ?? 0) / seconds).toFixed(1)} vector chunks/s, ${((extractedChars / 2 ** 20 / seconds) * 60).toFixed(2)} MiB/min`,
      `load before: ${loadBefore}`,
      `load after:  ${uptime()}`,
      `neo4j: ${db.boltUrl} (heap ${NEO4J.heapMb} MB, page cache ${NEO4J.pageCacheMb} MB); node ${process.version}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    server.close();
    await closeServices(services);
    await services.embedder.dispose();
    await stopNeo4j(NEO4J);
  }
}

main()
  .catch((error: Error) => {
    process.stderr.write(`[bench:ingest] failed: ${error.stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  // The model's worker thread would keep the process alive.
  .finally(() => process.exit());
