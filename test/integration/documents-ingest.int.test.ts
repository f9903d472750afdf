import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { publicAddressesOnly } from '../../src/documents/index.js';
import { UpkeepService } from '../../src/upkeep/index.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';
import { faultingExecutor } from '../support/faulting-executor.js';

const PARAGRAPHS = Array.from(
  { length: 12 },
  (_, i) =>
    `<p>Section ${i + 1} of the operations review. The on-call rotation handled ${i + 3} incidents this quarter, and the &amp; runbook was updated after each one so the next engineer starts from a known state.</p>`,
).join('\n');
const PAGE = `<!doctype html><html><head><title>Quarterly Ops &amp; Review</title>
<style>.banner { color: red } /* style-marker */</style>
<script>window.analytics = "script-marker"; if (a < b) { document.write("<p>inside</p>") }</script></head>
<body><h1>Operations</h1>${PARAGRAPHS}
<p>The Falkenstein datacenter migration finished in March, two weeks ahead of plan.</p>
<noscript>noscript-marker</noscript></body></html>`;
const BIG = 'x'.repeat(64 * 1024);

const DOC = `id status error title contentType chunksDone chunksTotal progress attempts chunks(first: 50) { content type source importance }`;

describe('documents: ingest from a URL or text, refused URLs, limits', () => {
  let server: Server;
  let base = '';
  const hits: string[] = [];
  const namespaces: string[] = [];
  const all: Services[] = [];
  const ns = (p: string) => {
    const n = uniqueNamespace(p);
    namespaces.push(n);
    return n;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      if (req.url === '/notes.txt')
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('Plain notes: the backup job runs at 02:00 UTC.');
      if (req.url === '/image.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100));
      if (req.url === '/big') {
        // No content-length: the limit must cut the stream, not the header.
        res.writeHead(200, { 'content-type': 'text/plain' });
        let sent = 0;
        const more = () => {
          while (sent < 40 && res.write(BIG)) sent += 1;
          if (sent < 40) res.once('drain', more);
          else res.end();
        };
        res.on('error', () => undefined);
        return more();
      }
      if (req.url === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-internal') return res.writeHead(301, { location: 'http://internal.test/admin' }).end();
      if (req.url === '/to-page') return res.writeHead(302, { location: '/page.html' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const s of all) for (const n of namespaces) await cleanNamespace(s, n).catch(() => undefined);
    for (const s of all) await closeServices(s);
    await new Promise((resolve) => server.close(resolve));
  });

  /** Processes every waiting document of the service's namespaces. */
  const drain = async (upkeep: UpkeepService) => {
    while (await upkeep.documents.processNext());
  };

  it('ingests an HTML page: status stages, title, no script or style, overlapping chunks linked in order and recallable', async () => {
    const n = ns('doc-html');
    const statuses: string[] = [];
    let services!: Services;
    services = testServices(
      {
        WORKER_NAMESPACES: n,
        URL_FETCH_ALLOW_PRIVATE_NETWORKS: 'true',
        DOCUMENT_CHUNK_SIZE: '600',
        DOCUMENT_CHUNK_OVERLAP: '100',
        MAX_BATCH_SIZE: '4',
      },
      {
        wrapExecutor: faultingExecutor('remember', {
          beforeTx: async () => {
            const [row] = await services.executor.read<{ s: string; d: number }>(
              'test.doc',
              `MATCH (d:Document {namespace: $n}) RETURN d.status AS s, d.chunksDone AS d`,
              { n },
            );
            statuses.push(`${row?.s}:${row?.d}`);
          },
        }),
      },
    );
    all.push(services);
    const gql = await graphqlClient(services);
    const queued = await gql.data<{ ingestDocument: { id: string; status: string; progress: number } }>(
      `mutation($n: String, $url: String) { ingestDocument(input: { namespace: $n, url: $url }) { id status progress } }`,
      { n, url: `${base}/to-page` },
    );
    expect(queued.ingestDocument).toMatchObject({ status: 'PENDING', progress: 0 });
    await drain(services.upkeep);

    const { document } = await gql.data<{ document: any }>(`query($id: ID!) { document(id: $id) { ${DOC} } }`, {
      id: queued.ingestDocument.id,
    });
    expect(document).toMatchObject({
      status: 'DONE',
      error: null,
      title: 'Quarterly Ops & Review',
      contentType: 'text/html',
      progress: 1,
      attempts: 1,
    });
    expect(document.chunksTotal).toBeGreaterThan(3);
    expect(document.chunksDone).toBe(document.chunksTotal);
    // Every stage was passed through, with progress counted as batches were stored.
    expect(statuses[0]).toBe('EMBEDDING:0');
    expect(statuses.at(-1)).toMatch(/^EMBEDDING:[1-9]/);
    const chunks: Array<{ content: string; type: string; source: string }> = document.chunks;
    expect(chunks).toHaveLength(document.chunksTotal);
    const text = chunks.map((c) => c.content).join('\n');
    for (const marker of ['script-marker', 'style-marker', 'noscript-marker', 'analytics', 'inside', '&amp;', '<p>'])
      expect(text).not.toContain(marker);
    expect(chunks.every((c) => c.type === 'document_chunk' && c.source === 'document')).toBe(true);
    // The design's fixed importance for a document's chunks (docs/deviations.md), whatever their novelty.
    expect(document.chunks.map((c: { importance: number }) => c.importance)).toEqual(chunks.map(() => 0.3));
    expect(chunks[0]!.content).toContain('Section 1 ');
    // Windows overlap: the end of one reappears at the start of the next.
    expect(chunks[1]!.content.slice(0, 40)).toBe(
      chunks[0]!.content.slice(
        chunks[0]!.content.indexOf(chunks[1]!.content.slice(0, 40)),
        chunks[0]!.content.indexOf(chunks[1]!.content.slice(0, 40)) + 40,
      ),
    );

    const recalled = await gql.data<{ recall: { items: Array<{ memory: { content: string; type: string } }> } }>(
      `query($n: String) { recall(query: "When did the Falkenstein datacenter migration finish?", namespace: $n) { items { memory { content type } } } }`,
      { n },
    );
    expect(recalled.recall.items[0]!.memory).toMatchObject({ type: 'document_chunk' });
    expect(recalled.recall.items[0]!.memory.content).toContain('Falkenstein');

    const listed = await gql.data<{ documents: { totalCount: number; edges: Array<{ node: { id: string } }> } }>(
      `query($n: String) { documents(namespace: $n, first: 5) { totalCount edges { node { id } } } }`,
      { n },
    );
    expect(listed.documents.totalCount).toBe(1);
    expect(listed.documents.edges[0]!.node.id).toBe(queued.ingestDocument.id);

    // Text documents too; a repeat of the same text links the same chunk memories (exact dedup).
    const t = await gql.data<{ ingestDocument: { id: string } }>(
      `mutation($n: String) { ingestDocument(input: { namespace: $n, text: "Backups run nightly at 02:00 UTC.", title: "Ops notes" }) { id } }`,
      { n },
    );
    await drain(services.upkeep);
    const textDoc = (await gql.data<{ document: any }>(`query($id: ID!) { document(id: $id) { ${DOC} } }`, { id: t.ingestDocument.id }))
      .document;
    expect(textDoc).toMatchObject({ status: 'DONE', title: 'Ops notes', contentType: 'text/plain', chunksTotal: 1, chunksDone: 1 });
    await gql.stop();
  }, 300_000);

  it('fails a too-large body, a refused content type and bad input with coded errors', async () => {
    const n = ns('doc-limits');
    const services = testServices({
      WORKER_NAMESPACES: n,
      URL_FETCH_ALLOW_PRIVATE_NETWORKS: 'true',
      DOCUMENT_MAX_CONTENT_BYTES: String(256 * 1024),
    });
    all.push(services);
    const big = await services.upkeep.ingestDocument({ namespace: n, url: `${base}/big` });
    const png = await services.upkeep.ingestDocument({ namespace: n, url: `${base}/image.png` });
    await drain(services.upkeep);
    expect(await services.upkeep.documents.get(big.id)).toMatchObject({ status: 'FAILED', chunksDone: 0, attempts: 1 });
    expect((await services.upkeep.documents.get(big.id))!.error).toMatch(/^\[LIMIT_EXCEEDED\] the body is over 262144 bytes/);
    expect((await services.upkeep.documents.get(png.id))!.error).toMatch(/^\[BAD_USER_INPUT\] content type "image\/png" is not text/);

    const gql = await graphqlClient(services);
    for (const input of [
      { url: 'file:///etc/passwd' },
      { url: 'ftp://example.org/x' },
      { url: `${base}/page.html`, text: 'both' },
      {},
      { url: 'http://user:pw@example.org/' },
    ]) {
      const r = await gql.exec(`mutation($i: IngestDocumentInput!) { ingestDocument(input: $i) { id } }`, {
        i: { namespace: n, ...input },
      });
      expect(r.errors?.[0]?.extensions?.code, JSON.stringify(input)).toBe('BAD_USER_INPUT');
    }
    await gql.stop();
  }, 300_000);

  it('refuses private addresses: loopback by default, and a redirect to link-local or a name resolving to 10.0.0.1 even when the first hop is allowed', async () => {
    const strictNs = ns('doc-strict');
    const strict = testServices({ WORKER_NAMESPACES: strictNs });
    all.push(strict);
    const refusedLoopback = await strict.upkeep.ingestDocument({ namespace: strictNs, url: `${base}/page.html` });
    const before = hits.length;
    await drain(strict.upkeep);
    expect((await strict.upkeep.documents.get(refusedLoopback.id))!.error).toMatch(
      /^\[FORBIDDEN\] the address 127\.0\.0\.1 is not a public address/,
    );
    expect(hits.length).toBe(before); // never connected

    // Loopback allowed for the first hop only (the test's server); private targets still refused.
    const n = ns('doc-redirect');
    const base2 = testServices({ WORKER_NAMESPACES: n });
    all.push(base2);
    const resolved: string[] = [];
    const upkeep = new UpkeepService({
      executor: base2.executor,
      embedder: base2.embedder,
      remember: base2.remember,
      config: base2.config,
      logger: base2.logger,
      fetchPolicy: {
        allowAddress: (address) => address === '127.0.0.1' || publicAddressesOnly(address),
        resolve: async (host) => {
          resolved.push(host);
          return host === 'internal.test' ? [{ address: '10.0.0.1', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
        },
      },
    });
    const toMetadata = await upkeep.ingestDocument({ namespace: n, url: `${base}/to-metadata` });
    const toInternal = await upkeep.ingestDocument({ namespace: n, url: `${base}/to-internal` });
    const ok = await upkeep.ingestDocument({ namespace: n, url: `${base}/notes.txt` });
    while (await upkeep.documents.processNext());
    expect((await upkeep.documents.get(toMetadata.id))!.error).toMatch(
      /^\[FORBIDDEN\] the address 169\.254\.169\.254 is not a public address/,
    );
    expect((await upkeep.documents.get(toInternal.id))!.error).toMatch(
      /^\[FORBIDDEN\] internal\.test resolves to 10\.0\.0\.1, not a public address/,
    );
    expect(resolved).toContain('internal.test');
    expect(await upkeep.documents.get(ok.id)).toMatchObject({ status: 'DONE', chunksTotal: 1 });
    expect(hits.filter((h) => h === '/latest/meta-data/' || h === '/admin')).toEqual([]);
    await upkeep.stop();
  }, 300_000);
});
