import { readFileSync } from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startServer } from '../../src/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSessionDate } from '../bench/locomo-data.js';
import { candidateIdsOf, extraction, memoryTextOf, query, scriptStages, startDeepPath, type DeepPathRig } from '../support/deep-path.js';
import { canonicalGraph } from '../support/graph-compare.js';
import { graphqlClient, type GraphQLClient } from '../support/graphql.js';
import { callTool, newClient } from '../support/mcp.js';
import { answerBySchema } from '../support/schema-answer.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

/**
 * A namespace that can move (issue #32, item 7): a namespace built from a slice of a real
 * conversation (three sessions of LoCoMo, 42 turns), deep-path facts with entities, relations,
 * hints and classified attributes, asserted facts with a supersession, a pinned, an updated and a
 * forgotten memory, sessions with checkpoints and a transcript; exported as JSON Lines in small
 * pages, imported into other namespaces, and compared node for node and edge for edge, ids aside.
 */

interface Slice {
  speaker_a: string;
  speaker_b: string;
  sessions: Array<{ id: string; dateTime: string; turns: Array<{ speaker: string; dia_id: string; text: string; blip_caption?: string }> }>;
}
const SLICE = JSON.parse(readFileSync(new URL('../fixtures/locomo-conversation-slice.json', import.meta.url), 'utf8')) as Slice;

const source = uniqueNamespace('xp-src');
const targets = {
  plain: uniqueNamespace('xp-dst'),
  vectors: uniqueNamespace('xp-vec'),
  graphql: uniqueNamespace('xp-gql'),
  mcp: uniqueNamespace('xp-mcp'),
  misc: uniqueNamespace('xp-misc'),
};

const M = {
  remember: `mutation ($input: RememberInput!) { remember(input: $input) { memory { id } } }`,
  start: `mutation ($input: StartSessionInput!) { startSession(input: $input) { session { sessionId } } }`,
  checkpoint: `mutation ($input: CheckpointInput!) { checkpoint(input: $input) { id } }`,
  end: `mutation ($sessionId: String!, $transcript: String) { endSession(sessionId: $sessionId, transcript: $transcript) { sessionId } }`,
  entity: `mutation ($name: String!, $type: EntityType) { createEntity(name: $name, type: $type) { entity { id } } }`,
  relate: `mutation ($s: String!, $t: String!, $o: String!) { relate(source: $s, type: $t, target: $o) { id } }`,
  assert: `mutation ($e: String!, $a: String!, $c: String!) { assertFact(entity: $e, aspect: $a, content: $c) { outcome superseded } }`,
  pin: `mutation ($id: ID!) { pin(id: $id) { id } }`,
  forget: `mutation ($id: ID!) { forget(id: $id, reason: "said in error") { id } }`,
  update: `mutation ($id: ID!, $content: String!) { updateMemory(id: $id, content: $content) { id } }`,
  export: `query ($ns: String, $after: String, $first: Int, $vectors: Boolean) {
    exportNamespace(namespace: $ns, after: $after, first: $first, vectors: $vectors) { header lines cursor } }`,
  import: `mutation ($ns: String, $lines: [String!]!) {
    importNamespace(namespace: $ns, lines: $lines) { namespace lines created existing skipped embedded redacted byKind { kind created existing skipped } } }`,
};

/** The whole export, page by page (a small page crosses every phase and resumes inside a node's edges). */
async function exportAll(rig: DeepPathRig, namespace: string, first: number, vectors = false): Promise<string[]> {
  let after: string | null = null;
  let header: string | null = null;
  const lines: string[] = [];
  let pages = 0;
  do {
    const page = await rig.services.transfer.exportPage(namespace, { after, first, vectors });
    header ??= JSON.stringify(page.header);
    expect(page.lines.length).toBeLessThanOrEqual(first);
    lines.push(...page.lines.map((l) => JSON.stringify(l)));
    after = page.cursor;
    pages += 1;
    expect(pages).toBeLessThan(10_000);
  } while (after);
  return [header!, ...lines];
}

async function importAll(rig: DeepPathRig, namespace: string, file: readonly string[], batch: number) {
  const [header, ...records] = file;
  const totals = { created: 0, existing: 0, skipped: 0, embedded: 0 };
  for (let i = 0; i < records.length; i += batch) {
    const r = await rig.services.transfer.importLines(namespace, [header!, ...records.slice(i, i + batch)]);
    totals.created += r.created;
    totals.existing += r.existing;
    totals.skipped += r.skipped;
    totals.embedded += r.embedded;
  }
  return totals;
}

async function waitForQuiet(rig: DeepPathRig, namespace: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const [row] = await query<{ n: number }>(
      rig.services,
      `MATCH (j:Job {namespace: $namespace}) WHERE j.status IN ['pending', 'leased'] RETURN count(j) AS n`,
      { namespace },
    );
    if (row!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the deep path did not finish in time');
}

async function chunkVectors(rig: DeepPathRig, namespace: string): Promise<Map<string, number[]>> {
  const rows = await query<{ text: string; embedding: number[] | null }>(
    rig.services,
    `MATCH (c:Chunk {namespace: $namespace}) RETURN c.text AS text, c.embedding AS embedding`,
    { namespace },
  );
  return new Map(rows.map((r) => [r.text, r.embedding ? Array.from(r.embedding) : []]));
}

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('exportNamespace / importNamespace: a namespace that can move', () => {
  let rig: DeepPathRig;
  let gql: GraphQLClient;
  let exported: string[];

  beforeAll(async () => {
    rig = await startDeepPath(source, { HINTS_ENABLED: 'true' });
    gql = await graphqlClient(rig.services);
    const facts = (text: string): string => {
      if (/business|dance|studio/i.test(text)) {
        const speaker = text.split(':')[0]!;
        return extraction(
          [[`${speaker} is working on a dance studio business.`, 'fact', 0.9]],
          [
            [speaker, 'works on', 'dance studio', 0.85],
            ['dance studio', 'located in', 'Michigan', 0.7],
          ],
        );
      }
      return extraction([]);
    };
    scriptStages(rig.fake, {
      extract: (r) => facts(memoryTextOf(r.prompt)),
      decide: (r) =>
        JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: `new (${candidateIdsOf(r.prompt).length} candidates)` }),
      hints: () => JSON.stringify({ questions: ['Who is starting a business?', 'Which city is the dance studio in?'] }),
      classify: (r) => JSON.stringify(answerBySchema(r.format)),
      contradiction: (r) => JSON.stringify(answerBySchema(r.format)),
      dedup: (r) => JSON.stringify(answerBySchema(r.format)),
      compress: (r) => JSON.stringify(answerBySchema(r.format)),
    });

    // The conversation: every turn a memory of its session, at its session's time.
    const ids: string[] = [];
    for (const session of SLICE.sessions) {
      await gql.data(M.start, { input: { sessionId: session.id, harness: 'test' } });
      for (const t of session.turns) {
        const content = `${t.speaker}: ${t.text}${t.blip_caption ? ` [image: ${t.blip_caption}]` : ''}`;
        const r = await gql.data(M.remember, {
          input: { content, externalId: t.dia_id, sessionId: session.id, occurredAt: parseSessionDate(session.dateTime) },
        });
        ids.push(r.remember.memory.id);
      }
      await gql.data(M.checkpoint, {
        input: { sessionId: session.id, trigger: 'explicit', digest: `talked about jobs in ${session.id}`, memoryQueries: ['job'] },
      });
    }
    // Structured facts with a supersession, and a relation.
    await gql.data(M.entity, { name: SLICE.speaker_a, type: 'person' });
    await gql.data(M.entity, { name: SLICE.speaker_b, type: 'person' });
    await gql.data(M.relate, { s: SLICE.speaker_a, t: 'friend_of', o: SLICE.speaker_b });
    await gql.data(M.assert, { e: SLICE.speaker_b, a: 'work', c: 'likes working at the bank' });
    const contra = await gql.data(M.assert, { e: SLICE.speaker_b, a: 'work', c: 'dislikes working at the bank' });
    expect(contra.assertFact.superseded).toHaveLength(1);
    // A memory's life: pinned, updated, forgotten.
    await gql.data(M.pin, { id: ids[0] });
    await gql.data(M.update, {
      id: ids[1],
      content: `${SLICE.speaker_b}: Hey! Lost my job as a banker last week, starting my own business.`,
    });
    await gql.data(M.forget, { id: ids[2] });

    rig.worker.start();
    await waitForQuiet(rig, source);
    await gql.data(M.end, { sessionId: SLICE.sessions[0]!.id, transcript: 'Gina: Hey Jon!\nJon: Hey Gina!' });
    await waitForQuiet(rig, source);
    await rig.worker.stop();
  }, 180_000);

  afterAll(async () => {
    for (const ns of Object.values(targets)) await cleanNamespace(rig.services, ns);
    await gql.stop();
    await rig.close();
  });

  it('exports every kind of the namespace in small pages, then imports it elsewhere as the same graph, ids aside', async () => {
    const before = await canonicalGraph(rig.services, source);
    // The namespace holds every kind the export must carry.
    for (const kind of [
      'Memory',
      'Chunk',
      'Entity',
      'Aspect',
      'Attribute',
      'Hint',
      'Session',
      'Checkpoint',
      'Transcript',
      'HistoryEvent',
      'edge:HAS_CHUNK',
      'edge:MENTIONS',
      'edge:EXTRACTED_FROM',
      'edge:RELATES_TO',
      'edge:HAS_ASPECT',
      'edge:HAS_ATTRIBUTE',
      'edge:FROM',
      'edge:SUPERSEDES',
      'edge:HINT_OF',
      'edge:ABOUT',
    ]) {
      expect(before.counts[kind], kind).toBeGreaterThan(0);
    }

    exported = await exportAll(rig, source, 3);
    const header = JSON.parse(exported[0]!);
    expect(header).toMatchObject({ kind: 'header', format: 'mnemograph.namespace', version: 1, namespace: source, vectors: false });
    expect(exported.length - 1).toBe(before.nodes.length + before.edges.length);
    expect(exported.some((l) => l.includes('"embedding"'))).toBe(false);

    const totals = await importAll(rig, targets.plain, exported, 40);
    expect(totals).toMatchObject({ created: exported.length - 1, existing: 0, skipped: 0 });
    expect(totals.embedded).toBe(before.counts.Chunk);

    const after = await canonicalGraph(rig.services, targets.plain);
    expect(after.counts).toEqual(before.counts);
    expect(after.nodes).toEqual(before.nodes);
    expect(after.edges).toEqual(before.edges);

    // Re-embedded with the same model: the same vectors.
    const [a, b] = [await chunkVectors(rig, source), await chunkVectors(rig, targets.plain)];
    for (const [text, vector] of a) expect(cosine(vector, b.get(text)!)).toBeGreaterThan(0.999);

    // The imported namespace answers like the source: the same memories in the same order.
    const top5 = async (namespace: string) =>
      (await rig.services.recall.recall({ namespace, query: 'Who lost a job at Door Dash?', trackAccess: false })).ranked
        .slice(0, 5)
        .map((r) => r.candidate.content);
    const sourceTop = await top5(source);
    expect(sourceTop.length).toBeGreaterThan(0);
    expect(await top5(targets.plain)).toEqual(sourceTop);
  }, 180_000);

  it('is resumable: the same lines again, or an import stopped halfway and run again, write nothing twice', async () => {
    const before = await canonicalGraph(rig.services, targets.plain);
    const again = await importAll(rig, targets.plain, exported, 500);
    expect(again).toMatchObject({ created: 0, existing: exported.length - 1, skipped: 0 });
    // Every chunk already holds its vector: nothing goes to the model again.
    expect(again.embedded).toBe(0);
    expect(await canonicalGraph(rig.services, targets.plain)).toEqual(before);

    // A fresh target: half the file, then the whole file from the start.
    const fresh = uniqueNamespace('xp-half');
    try {
      const half = exported.slice(0, Math.floor(exported.length / 2));
      const first = await importAll(rig, fresh, half, 100);
      const second = await importAll(rig, fresh, exported, 100);
      expect(first.created + second.created).toBe(exported.length - 1);
      expect(second.existing).toBe(half.length - 1);
      const resumed = await canonicalGraph(rig.services, fresh);
      expect(resumed.nodes).toEqual(before.nodes);
      expect(resumed.edges).toEqual(before.edges);
    } finally {
      await cleanNamespace(rig.services, fresh);
    }
  }, 180_000);

  it('carries vectors when asked: an import with the same model embeds nothing and stores the same vectors', async () => {
    const withVectors = await exportAll(rig, source, 200, true);
    expect(withVectors.filter((l) => l.includes('"kind":"chunk"')).every((l) => l.includes('"embedding"'))).toBe(true);
    const totals = await importAll(rig, targets.vectors, withVectors, 300);
    expect(totals.embedded).toBe(0);
    const [src, dst] = [await canonicalGraph(rig.services, source), await canonicalGraph(rig.services, targets.vectors)];
    expect(dst.nodes).toEqual(src.nodes);
    expect(dst.edges).toEqual(src.edges);
    const [a, b] = [await chunkVectors(rig, source), await chunkVectors(rig, targets.vectors)];
    for (const [text, vector] of a) expect(b.get(text)).toEqual(vector);

    // A vector of another model is not trusted: the chunk is embedded again.
    const [head, ...rest] = withVectors;
    const otherModel = rest
      .filter((l) => l.includes('"kind":"chunk"'))
      .slice(0, 2)
      .map((l) => {
        const line = JSON.parse(l);
        return JSON.stringify({ ...line, id: `${line.id.slice(0, -4)}ffff`, props: { ...line.props, embeddingModel: 'some/other-model' } });
      });
    const r = await rig.services.transfer.importLines(targets.misc, [head!, ...otherModel]);
    expect(r.embedded).toBe(2);
  }, 120_000);

  it('over GraphQL: cursor pages out, bounded calls in, the same graph', async () => {
    let after: string | null = null;
    const file: string[] = [];
    do {
      const page: { header: string; lines: string[]; cursor: string | null } = (await gql.data(M.export, { ns: source, after, first: 100 }))
        .exportNamespace;
      if (file.length === 0) file.push(page.header);
      file.push(...page.lines);
      after = page.cursor;
    } while (after);
    expect(file.length).toBe(exported.length);
    const [header, ...records] = file;
    for (let i = 0; i < records.length; i += 150) {
      const r = (await gql.data(M.import, { ns: targets.graphql, lines: [header, ...records.slice(i, i + 150)] })).importNamespace;
      expect(r.skipped).toBe(0);
    }
    const [src, dst] = [await canonicalGraph(rig.services, source), await canonicalGraph(rig.services, targets.graphql)];
    expect(dst.nodes).toEqual(src.nodes);
    expect(dst.edges).toEqual(src.edges);

    // Refusals carry codes.
    const noHeader = await gql.exec(M.import, { ns: targets.misc, lines: [records[0]] });
    expect(noHeader.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const notJson = await gql.exec(M.import, { ns: targets.misc, lines: [header, '{not json'] });
    expect(notJson.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(notJson.errors?.[0]?.message).toContain('line 2');
    const tooMany = await gql.exec(M.import, { ns: targets.misc, lines: Array.from({ length: 2_001 }, () => header) });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
    const badCursor = await gql.exec(M.export, { ns: source, after: 'not-a-cursor' });
    expect(badCursor.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const bigPage = await gql.exec(M.export, { ns: source, first: 5_000 });
    expect(bigPage.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
    const badEdge = JSON.stringify({ kind: 'edge', type: 'OWNS', from: 'a', to: 'b', fromKind: 'memory', toKind: 'memory', props: {} });
    const refused = await gql.exec(M.import, { ns: targets.misc, lines: [header, badEdge] });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  }, 180_000);

  it('over MCP: export_namespace pages fitted to max_tokens, import_namespace, the same graph', async () => {
    const server = await startServer(rig.services, { host: '127.0.0.1', port: 0 });
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url.replace(/\/graphql$/, '/mcp'))));
      let after: string | undefined;
      let header = '';
      const records: string[] = [];
      do {
        const page = await callTool(client, 'export_namespace', {
          namespace: source,
          first: 200,
          max_tokens: 4_000,
          ...(after ? { after } : {}),
        });
        expect(page.isError, page.text).toBe(false);
        header = page.json.header;
        if (page.json.lines) records.push(...page.json.lines.split('\n'));
        after = page.json.cursor ?? undefined;
      } while (after);
      expect(records.length).toBe(exported.length - 1);
      for (let i = 0; i < records.length; i += 100) {
        const r = await callTool(client, 'import_namespace', {
          namespace: targets.mcp,
          lines: [header, ...records.slice(i, i + 100)].join('\n'),
        });
        expect(r.isError, r.text).toBe(false);
        expect(r.json.skipped).toBe(0);
      }
      const [src, dst] = [await canonicalGraph(rig.services, source), await canonicalGraph(rig.services, targets.mcp)];
      expect(dst.nodes).toEqual(src.nodes);
      expect(dst.edges).toEqual(src.edges);
      const refused = await callTool(client, 'import_namespace', { namespace: targets.misc, lines: '{"kind":"memory","id":"x"}' });
      expect(refused.isError).toBe(true);
      expect(refused.json.error.code).toBe('BAD_USER_INPUT');
    } finally {
      await client.close();
      await server.close();
    }
  }, 180_000);

  it('redacts every stored string again on import', async () => {
    const [header, ...records] = exported;
    const memory = JSON.parse(records.find((l) => l.includes('"kind":"memory"'))!);
    const secret = 'the staging password=hunter2hunter2 for the db';
    const planted = JSON.stringify({
      ...memory,
      id: '11111111-2222-4333-8444-555555555555',
      props: {
        ...memory.props,
        content: secret,
        normalizedContent: secret,
        tags: ['token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
        dedupKey: `${source}:x`,
      },
    });
    const r = await rig.services.transfer.importLines(targets.misc, [header!, planted]);
    expect(r.created).toBe(1);
    expect(r.redacted).toBeGreaterThanOrEqual(2);
    const [stored] = await query<{ content: string; normalized: string; tags: string[]; hash: string; key: string }>(
      rig.services,
      `MATCH (m:Memory {namespace: $namespace}) RETURN m.content AS content, m.normalizedContent AS normalized, m.tags AS tags,
         m.contentHash AS hash, m.dedupKey AS key`,
      { namespace: targets.misc },
    );
    expect(JSON.stringify(stored)).not.toContain('hunter2hunter2');
    expect(JSON.stringify(stored)).not.toContain('ghp_abcdef');
    // The content changed, so its hash and dedup key follow it.
    expect(stored!.hash).not.toBe(memory.props.contentHash);
    expect(stored!.key).toBe(`${targets.misc}:${stored!.hash}`);
  });
});
