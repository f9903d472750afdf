import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { closeServices, prepareServices, type Services } from '../app.js';
import { loadConfig } from '../config/index.js';
import { DEFAULT_EXPORT_PAGE, IMPORT_BATCH_ROWS, MAX_EXPORT_PAGE, MAX_IMPORT_LINES } from '../knowledge/index.js';
import { createLogger } from '../logger.js';
import { cliServices } from './local-neo4j.js';

/**
 * `npm run namespace:export -- --namespace X [--vectors] [--page 500] > X.jsonl`
 * `npm run namespace:import -- --namespace Y [--file X.jsonl] [--batch 500] [--from-line N]` (stdin without --file)
 *
 * The operator's export and import of one namespace as JSON Lines (docs/export-import.md), on the
 * Neo4j of NEO4J_URI (else the local one). The export streams page by page to stdout; the import
 * reads the file line by line and writes it in batches, each batch led by the file's header line.
 * Progress goes to stderr. An import that stopped is finished by running it again (what is there
 * is left as it is), or from the line it names with --from-line.
 */
const USAGE = `usage: namespace.ts export --namespace <ns> [--vectors] [--page <1..${MAX_EXPORT_PAGE}>]
       namespace.ts import --namespace <ns> [--file <path>] [--batch <1..${MAX_IMPORT_LINES - 1}>] [--from-line <n>]`;

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      namespace: { type: 'string' },
      vectors: { type: 'boolean', default: false },
      page: { type: 'string', default: String(DEFAULT_EXPORT_PAGE) },
      file: { type: 'string' },
      batch: { type: 'string', default: String(IMPORT_BATCH_ROWS) },
      'from-line': { type: 'string', default: '0' },
    },
  });
  if ((command !== 'export' && command !== 'import') || !values.namespace) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'mnemograph-namespace', 2);
  const services = await cliServices(config, logger);
  try {
    await prepareServices(services);
    if (command === 'export') await exportTo(services, values.namespace, Number(values.page), values.vectors ?? false);
    else await importFrom(services, values.namespace, values.file, Number(values.batch), Number(values['from-line']));
  } finally {
    await closeServices(services);
  }
}

async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}

async function exportTo(services: Services, namespace: string, first: number, vectors: boolean): Promise<void> {
  let after: string | null = null;
  let records = 0;
  let headerWritten = false;
  const counts = new Map<string, number>();
  do {
    const page = await services.transfer.exportPage(namespace, { after, first, vectors });
    if (!headerWritten) {
      await write(`${JSON.stringify(page.header)}\n`);
      headerWritten = true;
    }
    if (page.lines.length) await write(`${page.lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    for (const line of page.lines) {
      const kind = line.kind === 'edge' ? `edge:${line.type}` : line.kind;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    records += page.lines.length;
    after = page.cursor;
    process.stderr.write(`\rexported ${records} records`);
  } while (after);
  // The last line says the export is whole (an import reads it and writes nothing for it).
  await write(`${JSON.stringify({ kind: 'end', counts: Object.fromEntries(counts) })}\n`);
  process.stderr.write(`\rexported ${records} records of ${namespace}\n`);
}

async function importFrom(services: Services, namespace: string, file: string | undefined, batch: number, fromLine: number): Promise<void> {
  if (!Number.isInteger(batch) || batch < 1 || batch >= MAX_IMPORT_LINES)
    throw new Error(`--batch must be between 1 and ${MAX_IMPORT_LINES - 1}`);
  const lines = createInterface({ input: file ? createReadStream(file) : process.stdin, crlfDelay: Infinity });
  let header: string | null = null;
  let pending: string[] = [];
  let lineNo = 0;
  let totals = { created: 0, existing: 0, skipped: 0, embedded: 0 };
  let doneThrough = fromLine;
  const flush = async () => {
    if (pending.length === 0) return;
    let report: Awaited<ReturnType<Services['transfer']['importLines']>>;
    try {
      report = await services.transfer.importLines(namespace, [header!, ...pending]);
    } catch (error) {
      process.stderr.write(`\nlines after ${doneThrough} were not all imported: run again with --from-line ${doneThrough}\n`);
      throw error;
    }
    doneThrough = lineNo;
    totals = {
      created: totals.created + report.created,
      existing: totals.existing + report.existing,
      skipped: totals.skipped + report.skipped,
      embedded: totals.embedded + report.embedded,
    };
    process.stderr.write(`\rimported through line ${lineNo} (created ${totals.created}, already there ${totals.existing})`);
    pending = [];
  };
  for await (const line of lines) {
    lineNo += 1;
    if (header === null) {
      header = line;
      continue;
    }
    if (lineNo <= fromLine || line.trim() === '') continue;
    pending.push(line);
    if (pending.length >= batch) await flush();
  }
  if (header === null) throw new Error('the input is empty: expected an export (its first line is the header)');
  await flush();
  process.stderr.write(`\nimported into ${namespace}: ${JSON.stringify(totals)}\n`);
}

main().catch((error: Error & { code?: string; details?: unknown }) => {
  process.stderr.write(
    `\nnamespace ${process.argv[2] ?? ''} failed: ${error.code ? `[${error.code}] ` : ''}${error.message}${error.details ? ` ${JSON.stringify(error.details)}` : ''}\n`,
  );
  process.exitCode = 1;
});
