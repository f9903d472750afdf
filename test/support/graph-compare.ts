import { createHash } from 'node:crypto';
import type { Services } from '../../src/app.js';

/**
 * A namespace's graph in a form that does not depend on its ids, so two namespaces can be
 * compared node for node and edge for edge (an export imported elsewhere gets other ids):
 *
 * - a node is its label and its properties, without `id`, `namespace`, `namespaceToken` and the
 *   vector; a dedup key without its namespace prefix; integer-typed properties marked as such;
 * - every id inside a property (an aspect's entityId, a relation's memoryIds, an event's details…)
 *   is replaced by the canonical form of the node it names (`<Label#hash>`), or `<other>` when no
 *   node of the namespace has it, so references are compared by what they point at;
 * - an edge is its type and properties between the canonical forms of its two ends.
 *
 * Jobs, locks and upkeep state (feedback counters, maintenance limits: UpkeepState) are process
 * state, not part of a namespace's content, and are left out.
 */
export interface CanonicalGraph {
  nodes: string[];
  edges: string[];
  /** Nodes per label and edges per type, for readable failures. */
  counts: Record<string, number>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const EXCLUDED_LABELS = ['Job', 'Lock', 'UpkeepState'];

const NODES = `
MATCH (n) WHERE n.namespace = $namespace AND NOT any(l IN labels(n) WHERE l IN $excluded)
RETURN n.id AS id, labels(n) AS labels, n {.*, embedding: null} AS props,
  [k IN keys(n) WHERE valueType(n[k]) STARTS WITH 'INTEGER' OR valueType(n[k]) STARTS WITH 'LIST<INTEGER'] AS ints`;

const EDGES = `
MATCH (a)-[r]->(b) WHERE a.namespace = $namespace AND b.namespace = $namespace
  AND NOT any(l IN labels(a) WHERE l IN $excluded) AND NOT any(l IN labels(b) WHERE l IN $excluded)
RETURN a.id AS from, type(r) AS type, b.id AS to, properties(r) AS props,
  [k IN keys(r) WHERE valueType(r[k]) STARTS WITH 'INTEGER' OR valueType(r[k]) STARTS WITH 'LIST<INTEGER'] AS ints`;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function canonicalProps(props: Record<string, unknown>, ints: readonly string[], namespace: string, ref: (id: string) => string): string {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(props)) {
    if (value === null || key === 'id' || key === 'namespace' || key === 'namespaceToken' || key === 'embedding') continue;
    let v: unknown = value;
    if (key === 'dedupKey' && typeof v === 'string' && v.startsWith(`${namespace}:`)) v = v.slice(namespace.length + 1);
    const swap = (x: unknown) => (typeof x === 'string' ? x.replace(UUID, ref) : x);
    v = Array.isArray(v) ? v.map(swap) : swap(v);
    out.push([ints.includes(key) ? `${key}:int` : key, v]);
  }
  out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(out);
}

export async function canonicalGraph(services: Services, namespace: string): Promise<CanonicalGraph> {
  type NodeRow = { id: string; labels: string[]; props: Record<string, unknown>; ints: string[] };
  type EdgeRow = { from: string; type: string; to: string; props: Record<string, unknown>; ints: string[] };
  const params = { namespace, excluded: EXCLUDED_LABELS };
  const nodes = await services.executor.read<NodeRow & Record<string, unknown>>('test.canonical.nodes', NODES, params);
  const edges = await services.executor.read<EdgeRow & Record<string, unknown>>('test.canonical.edges', EDGES, params);
  const label = (n: NodeRow) => [...n.labels].sort().join(':');
  // Level 0: ids blanked; level 1: ids replaced by the level-0 form of the node they name.
  const level0 = new Map(nodes.map((n) => [n.id, `${label(n)} ${canonicalProps(n.props, n.ints, namespace, () => '<id>')}`]));
  const ref = (id: string) => {
    const target = level0.get(id);
    return target === undefined ? '<other>' : `<${target.split(' ')[0]}#${hash(target)}>`;
  };
  const level1 = new Map(nodes.map((n) => [n.id, `${label(n)} ${canonicalProps(n.props, n.ints, namespace, ref)}`]));
  const counts: Record<string, number> = {};
  for (const n of nodes) counts[label(n)] = (counts[label(n)] ?? 0) + 1;
  for (const e of edges) counts[`edge:${e.type}`] = (counts[`edge:${e.type}`] ?? 0) + 1;
  return {
    nodes: nodes.map((n) => level1.get(n.id)!).sort(),
    edges: edges
      .map((e) => `${level1.get(e.from)} -[${e.type} ${canonicalProps(e.props, e.ints, namespace, ref)}]-> ${level1.get(e.to)}`)
      .sort(),
    counts,
  };
}
