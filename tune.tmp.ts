import { startBenchNeo4j } from './test/bench/bench-neo4j.js';
import { benchServices } from './test/bench/bench-support.js';
import { loadConversations } from './test/bench/locomo-data.js';
import { vectorLeg } from './src/recall/legs/vector-leg.js';
import { keywordLeg } from './src/recall/legs/keyword-leg.js';
import { loadRecallMemories } from './src/recall/load-memories.js';
import { assembleCandidates, candidateIds } from './src/recall/candidates.js';
import { rankCandidates } from './src/recall/rank.js';
import { resolveRecallSettings } from './src/recall/presets.js';
import { toLuceneQuery } from './src/recall/lucene.js';
import { namespaceToken } from './src/pipeline/remember-service.js';
import { writeFileSync, existsSync, readFileSync } from 'node:fs';

const neo = await startBenchNeo4j('bench-locomo', 27688, { keep: true });
const services = await benchServices(neo.uri, neo.password);
const convs = await loadConversations('/work/shared/bench/locomo');
const CACHE = '/tmp/locomo-legs.json';
let cache: any[] = existsSync(CACHE) ? JSON.parse(readFileSync(CACHE, 'utf8')) : [];
if (cache.length === 0) {
  for (const c of convs) {
    const ns = `locomo-${c.id}`;
    const rows = await services.executor.read<{ id: string; ext: string }>('x', 'MATCH (m:Memory {namespace: $ns}) RETURN m.id AS id, m.externalId AS ext', { ns });
    const ext = Object.fromEntries(rows.map((r) => [r.id, r.ext]));
    const vecs = await services.embedder.embed(c.questions.map((q) => q.question));
    for (let i = 0; i < c.questions.length; i++) {
      const q = c.questions[i]!;
      const vector = await vectorLeg(services.executor, { namespace: ns, vector: Array.from(vecs[i]!), limit: 100, includeDeleted: false });
      const keyword = await keywordLeg(services.executor, { namespaceToken: namespaceToken(ns), luceneQuery: toLuceneQuery(q.question), limit: 100, includeDeleted: false });
      const mems = await loadRecallMemories(services.executor, candidateIds({ vector, keyword }), { namespace: ns, includeDeleted: false, includeSuperseded: false, includeCompressed: false });
      cache.push({ q, vector, keyword, mems: [...mems.values()].map(({ record, ...m }) => ({ ...m, ext: ext[m.memoryId] })) });
    }
  }
  writeFileSync(CACHE, JSON.stringify(cache));
}
await services.executor.close();
const configs: Record<string, any> = JSON.parse(process.argv[2] ?? '{}');
for (const [name, ov] of Object.entries(configs)) {
  const { speakerBoost = 0, neighbour = 0, ...rest } = ov as any;
  const settings = resolveRecallSettings('default', rest);
  let r5 = 0, r10 = 0, r20 = 0;
  for (const e of cache) {
    const mems = new Map(e.mems.map((m: any) => [m.memoryId, m]));
    const names = new Set(e.q.question.match(/\p{Lu}\p{L}+/gu) ?? []);
    const graph = new Map<string, number>();
    if (speakerBoost) for (const m of e.mems) { const sp = /^(\p{Lu}\p{L}+):/u.exec(m.content)?.[1]; if (sp && names.has(sp)) graph.set(m.memoryId, 1); }
    const s2 = speakerBoost ? resolveRecallSettings('default', { ...rest, graph: { enabled: true, boostWeight: speakerBoost } }) : settings;
    let ranked = rankCandidates(assembleCandidates({ vector: e.vector.slice(0, 80), keyword: e.keyword.slice(0, 80), graph }, mems as any, { includeGraphOnly: false }), s2, { query: e.q.question, now: new Date() });
    if (neighbour) {
      const byExt = new Map(ranked.map((r) => [(mems.get(r.candidate.memoryId) as any).ext, r.score]));
      const adj = (ext: string, d: number) => { const [s, t] = ext.split(':'); return `${s}:${Number(t) + d}`; };
      ranked = ranked.map((r) => { const ext = (mems.get(r.candidate.memoryId) as any).ext; const nb = Math.max(byExt.get(adj(ext, -1)) ?? 0, byExt.get(adj(ext, 1)) ?? 0); return { ...r, score: r.score + neighbour * nb }; }).sort((a, b) => b.score - a.score);
    }
    const exts = ranked.map((r) => (mems.get(r.candidate.memoryId) as any).ext);
    const at = (k: number) => e.q.evidence.filter((x: string) => exts.slice(0, k).includes(x)).length / e.q.evidence.length;
    r5 += at(5); r10 += at(10); r20 += at(20);
  }
  const n = cache.length;
  console.log(name.padEnd(40), (r5 / n).toFixed(3), (r10 / n).toFixed(3), (r20 / n).toFixed(3));
}
process.exit(0);
