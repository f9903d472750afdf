import { startBenchNeo4j } from './test/bench/bench-neo4j.js';
import { benchServices } from './test/bench/bench-support.js';
import { loadConversations } from './test/bench/locomo-data.js';
import { vectorLeg } from './src/recall/legs/vector-leg.js';
import { keywordLeg } from './src/recall/legs/keyword-leg.js';
import { graphBoost } from './src/recall/legs/graph-boost.js';
import { loadRecallMemories } from './src/recall/load-memories.js';
import { assembleCandidates } from './src/recall/candidates.js';
import { rankCandidates } from './src/recall/rank.js';
import { applyContextBoost } from './src/recall/context.js';
import { rerankWithTimeout, createEmbeddingReranker } from './src/recall/rerank.js';
import { resolveRecallSettings } from './src/recall/presets.js';
import { toLuceneQuery, queryTokens } from './src/recall/lucene.js';
import { namespaceToken } from './src/pipeline/remember-service.js';
import { writeFileSync, existsSync, readFileSync } from 'node:fs';

const CACHE = '/tmp/locomo-full.json';
let cache: any = existsSync(CACHE) ? JSON.parse(readFileSync(CACHE, 'utf8')) : null;
if (!cache) {
  const neo = await startBenchNeo4j('bench-locomo', 27688, { keep: true });
  const services = await benchServices(neo.uri, neo.password);
  const convs = await loadConversations('/work/shared/bench/locomo');
  cache = { questions: [], namespaces: {} };
  for (const c of convs) {
    const ns = `locomo-${c.id}`;
    const rows = await services.executor.read<any>('x', 'MATCH (m:Memory {namespace: $ns}) RETURN m.id AS id, m.externalId AS ext, m.sessionId AS session, m.timelineKey AS key, [(m)-[:HAS_CHUNK]->(ch:Chunk {index: 0}) | ch.embedding][0] AS vec', { ns });
    const all = await loadRecallMemories(services.executor, rows.map((r: any) => r.id), { namespace: ns, includeDeleted: false, includeSuperseded: false, includeCompressed: false });
    cache.namespaces[ns] = { rows, mems: [...all.values()].map(({ record, ...m }) => m) };
    const vecs = await services.embedder.embed(c.questions.map((q) => q.question));
    for (let i = 0; i < c.questions.length; i++) {
      const q = c.questions[i]!;
      const qv = Array.from(vecs[i]!);
      const vector = await vectorLeg(services.executor, { namespace: ns, vector: qv, limit: 100, includeDeleted: false });
      const keyword = await keywordLeg(services.executor, { namespaceToken: namespaceToken(ns), luceneQuery: toLuceneQuery(q.question), limit: 100, includeDeleted: false });
      const boost = await graphBoost(services.executor, { namespace: ns, tokens: queryTokens(q.question).filter((t) => t.length >= 2), timeoutMs: 5000, maxEntities: 20, maxNeighbours: 50, maxMemories: 200 });
      cache.questions.push({ ns, q, qv, vector, keyword, graph: [...boost.strengths] });
    }
  }
  writeFileSync(CACHE, JSON.stringify(cache));
  await services.executor.close();
}
const nsData: Record<string, any> = {};
for (const [ns, d] of Object.entries<any>(cache.namespaces)) {
  const mems = new Map(d.mems.map((m: any) => [m.memoryId, m]));
  const rows = new Map(d.rows.map((r: any) => [r.id, r]));
  const bySession = new Map<string, any[]>();
  for (const r of d.rows) if (r.session) bySession.set(r.session, [...(bySession.get(r.session) ?? []), r]);
  for (const list of bySession.values()) list.sort((a, b) => (a.key < b.key ? -1 : 1));
  nsData[ns] = { mems, rows, bySession };
}
const configs: Record<string, any> = JSON.parse(process.argv[2] ?? '{}');
for (const [name, ov] of Object.entries(configs)) {
  const settings = resolveRecallSettings(ov.preset ?? 'default', ov.overrides ?? {});
  let r5 = 0, r10 = 0, r20 = 0;
  for (const e of cache.questions) {
    const d = nsData[e.ns];
    const fetch = 20 * settings.overFetchFactor;
    const legs = { vector: settings.legs.vector ? e.vector.slice(0, fetch) : [], keyword: settings.legs.keyword ? e.keyword.slice(0, fetch) : [], graph: settings.graph.enabled ? new Map<string, number>(e.graph) : new Map() };
    let ranked = rankCandidates(assembleCandidates(legs, d.mems), settings, { query: e.q.question, now: new Date() });
    if (settings.context.enabled) {
      const anchors = ranked.slice(0, settings.context.anchors).map((r) => r.candidate.memoryId);
      const neighbours: any[] = [];
      for (const a of anchors) {
        const row = d.rows.get(a); if (!row?.session) continue;
        const list = d.bySession.get(row.session); const i = list.findIndex((x: any) => x.id === a);
        for (let w = 1; w <= settings.context.window; w++) { if (list[i - w]) neighbours.push({ anchorId: a, memoryId: list[i - w].id }); if (list[i + w]) neighbours.push({ anchorId: a, memoryId: list[i + w].id }); }
      }
      const newcomers = new Map(neighbours.map((n) => [n.memoryId, { ...d.mems.get(n.memoryId), graphBoost: 0 }]));
      ranked = applyContextBoost(ranked, neighbours, newcomers as any, settings.context);
    }
    if (settings.rerank.enabled) {
      const out = await rerankWithTimeout(e.q.question, ranked, createEmbeddingReranker(e.qv, (id) => d.rows.get(id)?.vec, settings.rerank), settings.rerank);
      ranked = out.items;
    }
    const exts = ranked.map((r) => d.rows.get(r.candidate.memoryId).ext);
    const at = (k: number) => e.q.evidence.filter((x: string) => exts.slice(0, k).includes(x)).length / e.q.evidence.length;
    r5 += at(5); r10 += at(10); r20 += at(20);
  }
  const n = cache.questions.length;
  console.log(name.padEnd(44), (r5 / n).toFixed(3), (r10 / n).toFixed(3), (r20 / n).toFixed(3));
}
process.exit(0);
