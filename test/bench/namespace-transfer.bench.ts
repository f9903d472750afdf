/**
 * Namespace export and import rates (issue #32, item 7): a namespace of N memories (10,000 by
 * default, the write path's synthetic corpus, with the inline linker's entities, mentions,
 * co-mentions and attributes) exported as JSON Lines page by page, then imported into another
 * namespace in batches — once re-embedding every chunk (an export without vectors), once carrying
 * the vectors (same model) — and the import checked to hold as many nodes and edges as the source.
 *
 *   npm run -s bench:namespace -- --json            # one JSON object on stdout (-s: no npm banner)
 *   flags: --memories 10000  --page 500  --batch 500  --seed 1
 *
 * Starts its own Neo4j (.neo4j/bench, bolt 27687, wiped at start, stopped at the end) unless
 * BENCH_NEO4J_URI is set. Speed figures are taken by the lead alone on the machine.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { MemoryCorpus } from './perf-corpus.js';
import {
  benchServices,
  cleanNamespace,
  int,
  machineFacts,
  machineLines,
  positiveInt,
  progress,
  progressTicker,
  routeConsoleToStderr,
  runBench,
  table,
  type BenchServices,
} from './perf-harness.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string' },
    page: { type: 'string' },
    batch: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const opts = {
  memories: positiveInt('memories', args.memories, 10_000),
  page: positiveInt('page', args.page, 500),
  batch: positiveInt('batch', args.batch, 500),
  seed: positiveInt('seed', args.seed, 1),
  json: args.json ?? false,
};
if (opts.json) routeConsoleToStderr();

const NS = { source: 'bench-export-src', plain: 'bench-import-embed', vectors: 'bench-import-vectors' };
const REMEMBER_BATCH = 250;

interface Counted {
  nodes: number;
  edges: number;
}

async function countGraph(b: BenchServices, namespace: string): Promise<Counted> {
  const [nodes] = await b.services.executor.read<{ n: number }>(
    'bench.count.nodes',
    `MATCH (n) WHERE n.namespace = $namespace AND NOT n:Job AND NOT n:Lock RETURN count(n) AS n`,
    { namespace },
  );
  const [edges] = await b.services.executor.read<{ n: number }>(
    'bench.count.edges',
    `MATCH (a)-[r]->(b) WHERE a.namespace = $namespace AND b.namespace = $namespace AND NOT a:Job AND NOT b:Job RETURN count(r) AS n`,
    { namespace },
  );
  return { nodes: nodes!.n, edges: edges!.n };
}

/** The export streamed to a file, as the command line writes it (memory stays bounded by the page). */
async function exportAll(
  b: BenchServices,
  file: string,
  vectors: boolean,
): Promise<{ records: number; seconds: number; pages: number; bytes: number; peakRssMb: number }> {
  const started = performance.now();
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let after: string | null = null;
  let pages = 0;
  let records = 0;
  let bytes = 0;
  let peak = 0;
  const tick = progressTicker();
  do {
    const page = await b.services.transfer.exportPage(NS.source, { after, first: opts.page, vectors });
    if (pages === 0) await write(`${JSON.stringify(page.header)}\n`);
    if (page.lines.length) {
      const text = `${page.lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
      bytes += text.length;
      await write(text);
    }
    records += page.lines.length;
    after = page.cursor;
    pages += 1;
    peak = Math.max(peak, process.memoryUsage().rss);
    tick(() => `exported ${int(records)} records (${pages} pages)`);
  } while (after);
  out.end();
  await once(out, 'finish');
  return { records, seconds: (performance.now() - started) / 1000, pages, bytes, peakRssMb: Math.round(peak / 1e6) };
}

/** The file read line by line and imported in batches, each led by the header, as the command line does. */
async function importAll(b: BenchServices, namespace: string, file: string) {
  const started = performance.now();
  const totals = { created: 0, existing: 0, skipped: 0, embedded: 0 };
  const tick = progressTicker();
  let header: string | null = null;
  let pending: string[] = [];
  let read = 0;
  let peak = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const r = await b.services.transfer.importLines(namespace, [header!, ...pending]);
    totals.created += r.created;
    totals.existing += r.existing;
    totals.skipped += r.skipped;
    totals.embedded += r.embedded;
    pending = [];
    peak = Math.max(peak, process.memoryUsage().rss);
    tick(() => `imported ${int(read)} records into ${namespace}`);
  };
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (header === null) {
      header = line;
      continue;
    }
    read += 1;
    pending.push(line);
    if (pending.length >= opts.batch) await flush();
  }
  await flush();
  return { ...totals, seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(peak / 1e6) };
}

await runBench(async (db) => {
  const b = await benchServices(db);
  try {
    for (const ns of Object.values(NS)) await cleanNamespace(b.services, ns);
    progress(`building ${int(opts.memories)} memories in ${NS.source}…`);
    const corpus = new MemoryCorpus({ seed: opts.seed, namespace: NS.source });
    const tick = progressTicker();
    for (let done = 0; done < opts.memories; done += REMEMBER_BATCH) {
      const batch = corpus.take(Math.min(REMEMBER_BATCH, opts.memories - done)).map((m) => ({ ...m.input, namespace: NS.source }));
      await b.services.remember.rememberBatch(batch);
      tick(() => `remembered ${int(done + batch.length)}`);
    }
    const source = await countGraph(b, NS.source);
    progress(`source: ${int(source.nodes)} nodes, ${int(source.edges)} edges`);

    const dir = await mkdtemp(join(tmpdir(), 'mnemograph-namespace-bench-'));
    const files = { plain: join(dir, 'plain.jsonl'), vectors: join(dir, 'vectors.jsonl') };
    const plainExport = await exportAll(b, files.plain, false);
    const plainImport = await importAll(b, NS.plain, files.plain);
    const plainCount = await countGraph(b, NS.plain);
    const vectorExport = await exportAll(b, files.vectors, true);
    const vectorImport = await importAll(b, NS.vectors, files.vectors);
    const vectorCount = await countGraph(b, NS.vectors);
    await rm(dir, { recursive: true, force: true });
    const records = plainExport.records;

    const row = (name: string, seconds: number, extra: Record<string, unknown> = {}) => ({
      name,
      seconds: Math.round(seconds * 100) / 100,
      recordsPerSecond: Math.round(records / seconds),
      memoriesPerSecond: Math.round(opts.memories / seconds),
      ...extra,
    });
    const report = {
      bench: 'namespace-transfer',
      memories: opts.memories,
      page: opts.page,
      batch: opts.batch,
      source,
      records,
      machine: await machineFacts(b.services, db),
      export: row('export (no vectors)', plainExport.seconds, {
        pages: plainExport.pages,
        megabytes: Math.round(plainExport.bytes / 1e5) / 10,
        peakRssMb: plainExport.peakRssMb,
      }),
      exportWithVectors: row('export (vectors)', vectorExport.seconds, {
        pages: vectorExport.pages,
        megabytes: Math.round(vectorExport.bytes / 1e5) / 10,
        peakRssMb: vectorExport.peakRssMb,
      }),
      importEmbedding: row('import (embeds every chunk)', plainImport.seconds, { ...plainImport, seconds: undefined, graph: plainCount }),
      importWithVectors: row('import (vectors carried)', vectorImport.seconds, { ...vectorImport, seconds: undefined, graph: vectorCount }),
      sameSize:
        plainCount.nodes === source.nodes &&
        plainCount.edges === source.edges &&
        vectorCount.nodes === source.nodes &&
        vectorCount.edges === source.edges,
    };
    if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      process.stdout.write(`${machineLines(report.machine)}\n`);
      process.stdout.write(
        `${table(
          ['step', 'seconds', 'records/s', 'memories/s'],
          [report.export, report.exportWithVectors, report.importEmbedding, report.importWithVectors].map((r) => [
            r.name,
            r.seconds,
            int(r.recordsPerSecond),
            int(r.memoriesPerSecond),
          ]),
        )}\n`,
      );
      process.stdout.write(
        `${int(records)} records for ${int(opts.memories)} memories; imports the same size as the source: ${report.sameSize}\n`,
      );
    }
    if (!report.sameSize) process.exitCode = 1;
  } finally {
    for (const ns of Object.values(NS)) await cleanNamespace(b.services, ns).catch(() => undefined);
    await b.close();
  }
});
