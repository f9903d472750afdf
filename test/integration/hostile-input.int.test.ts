import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeDefs } from '../../src/graphql/schema.js';
import { normalizeContent } from '../../src/write/normalize.js';
import { isCleanText } from '../support/well-formed-text.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const NODES = 'MATCH (n) WHERE n.namespace = $namespace RETURN count(n) AS n';
const LONE_SURROGATE = 'half \uD800 a pair';
const CONTROL = 'bell\u0007nul\u0000esc\u001b';
const LUCENE = 'title:(+a -b) AND c~2 OR "d"^3 \\ / * ? [x TO y] {z}';
const CYPHER = "x' }) MATCH (n) DETACH DELETE n //";
const deepJson = (levels: number): unknown => (levels === 0 ? 1 : { a: deepJson(levels - 1) });

const REMEMBER = 'mutation R($i: RememberInput!) { remember(input: $i) { memory { id } } }';
const BATCH = 'mutation B($i: [RememberInput!]!) { rememberBatch(inputs: $i) { index error { code } result { memory { id } } } }';

/** What the cases may point at: a live memory and an entity (Ada; Neo4j exists too) of the test namespace. */
interface Seed {
  memoryId: string;
  entityId: string;
}

interface Case {
  name: string;
  query: string;
  variables?: (ns: string, seed: Seed) => Record<string, unknown>;
  /** Must succeed (STRING_INPUT_CASES): the text is stored cleaned, not refused. */
  succeeds?: boolean;
}

/** A JSON value that cannot be stored as metadata: numbers JSON has no literal for arrive as strings or fail; a 300-deep array. */
const deepArray = (levels: number): unknown => (levels === 0 ? [] : [deepArray(levels - 1)]);
/**
 * Every string input of every mutation, with one value that is not well-formed text. These were
 * refused whole at the edge; now every write cleans its text with src/text/well-formed.ts (see
 * docs/text-input.md): the text ones must succeed and store only clean text; identifiers (an
 * entity to merge, the deleteNamespace confirmation) are compared as cleaned or sent and simply
 * do not match. Each runs in a namespace of its own, so one case's write cannot change another's.
 */
const BAD_STRINGS: Array<[string, string]> = [
  ['a lone high surrogate', LONE_SURROGATE],
  ['a lone low surrogate', 'tail \uDFFF end'],
  ['control characters', CONTROL],
  ['whitespace controls', 'spec\u000bwidth\u000cpage\rold mac\u0085nel'],
  ['bidi overrides and zero-width characters', 'user \u202enimda\u202c \u2066x\u2069 pass\u200bword \ufeff'],
];
const STRING_INPUT_CASES: Case[] = BAD_STRINGS.flatMap(([label, bad]) => [
  {
    name: `remember: ${label} in content`,
    succeeds: true,
    query: REMEMBER,
    variables: (ns) => ({ i: { content: `Ada said ${bad} today`, namespace: ns } }),
  },
  ...(['source', 'externalId', 'sessionId', 'who', 'why'] as const).map(
    (field): Case => ({
      name: `remember: ${label} in ${field}`,
      succeeds: true,
      query: REMEMBER,
      variables: (ns) => ({ i: { content: `A note about ${field} handling`, namespace: ns, [field]: `x${bad}` } }),
    }),
  ),
  {
    name: `remember: ${label} in a tag`,
    succeeds: true,
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'A note about tags', namespace: ns, tags: [`t${bad}`] } }),
  },
  {
    name: `remember: ${label} in metadata`,
    succeeds: true,
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'A note about metadata', namespace: ns, metadata: { [`k${bad}`]: `v${bad}` } } }),
  },
  {
    name: `rememberBatch: ${label} in content`,
    succeeds: true,
    query: BATCH,
    variables: (ns) => ({ i: [{ content: `Batch item ${bad}`, namespace: ns }] }),
  },
  {
    name: `updateMemory: ${label} in content`,
    succeeds: true,
    query: 'mutation U($id: ID!, $c: String!) { updateMemory(id: $id, content: $c) { id } }',
    variables: (_, s) => ({ id: s.memoryId, c: `Ada moved ${bad}` }),
  },
  {
    name: `forget: ${label} in the reason`,
    succeeds: true,
    query: 'mutation F($id: ID!, $r: String) { forget(id: $id, reason: $r) { id } }',
    variables: (_, s) => ({ id: s.memoryId, r: `gone ${bad}` }),
  },
  {
    name: `createEntity: ${label} in the name`,
    succeeds: true,
    query: 'mutation C($ns: String, $n: String!) { createEntity(namespace: $ns, name: $n) { created } }',
    variables: (ns) => ({ ns, n: `Eve ${bad}` }),
  },
  {
    name: `createEntity: ${label} in the description`,
    succeeds: true,
    query: 'mutation C($ns: String, $d: String) { createEntity(namespace: $ns, name: "Mallory", description: $d) { created } }',
    variables: (ns) => ({ ns, d: `d ${bad}` }),
  },
  {
    name: `relate: ${label} in the type`,
    query: 'mutation R($ns: String, $t: String!) { relate(namespace: $ns, source: "Ada", type: $t, target: "Neo4j") { type } }',
    variables: (ns) => ({ ns, t: `uses${bad}` }),
  },
  {
    name: `assertFact: ${label} in the content`,
    succeeds: true,
    query: 'mutation A($ns: String, $c: String!) { assertFact(namespace: $ns, entity: "Ada", aspect: "role", content: $c) { outcome } }',
    variables: (ns) => ({ ns, c: `Ada is the lead ${bad}` }),
  },
  {
    name: `assertFact: ${label} in the aspect`,
    succeeds: true,
    query:
      'mutation A($ns: String, $a: String!) { assertFact(namespace: $ns, entity: "Ada", aspect: $a, content: "Ada leads billing") { outcome } }',
    variables: (ns) => ({ ns, a: `role${bad}` }),
  },
  {
    name: `mergeEntities: ${label} in a name`,
    query: 'mutation M($ns: String, $m: String!) { mergeEntities(namespace: $ns, keep: "Ada", merge: $m) { entity { id } } }',
    variables: (ns) => ({ ns, m: `Neo4j${bad}` }),
  },
  {
    name: `revertProposal: ${label} in the reason`,
    query: 'mutation V($r: String) { revertProposal(eventId: "no-such-event", reason: $r) { eventId } }',
    variables: () => ({ r: `undo ${bad}` }),
  },
  {
    name: `deleteNamespace: ${label} in confirm`,
    query: 'mutation D($ns: String!, $c: String!) { deleteNamespace(namespace: $ns, confirm: $c) { total } }',
    variables: (ns) => ({ ns, c: `${ns}${bad}` }),
  },
]);

/** Bad inputs for every query and mutation; each must get a coded answer and change nothing. */
const CASES: Case[] = [
  {
    name: 'remember: content over MAX_CONTENT_CHARS',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'x'.repeat(60_000), namespace: ns } }),
  },
  { name: 'remember: blank content', query: REMEMBER, variables: (ns) => ({ i: { content: ' \n\t ', namespace: ns } }) },
  {
    name: 'remember: metadata not an object',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok', namespace: ns, metadata: [1, 2] } }),
  },
  {
    name: 'remember: huge metadata',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok', namespace: ns, metadata: { blob: 'y'.repeat(40_000) } } }),
  },
  {
    name: 'remember: deep metadata',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok', namespace: ns, metadata: deepJson(200) } }),
  },
  { name: 'remember: invalid namespace', query: REMEMBER, variables: () => ({ i: { content: 'ok', namespace: "bad ns' OR 1=1" } }) },
  { name: 'remember: wrong type for content', query: REMEMBER, variables: (ns) => ({ i: { content: 42, namespace: ns } }) },
  { name: 'remember: unknown memory type', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, type: 'villain' } }) },
  {
    name: 'remember: bad occurredAt',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok', namespace: ns, occurredAt: 'yesterday' } }),
  },
  {
    name: 'remember: huge tag list',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok', namespace: ns, tags: Array.from({ length: 5_000 }, (_, i) => `t${i}`) } }),
  },
  {
    name: 'rememberBatch: over MAX_BATCH_SIZE',
    query: BATCH,
    variables: (ns) => ({ i: Array.from({ length: 501 }, () => ({ content: '', namespace: ns })) }),
  },
  {
    name: 'rememberBatch: every item invalid',
    query: BATCH,
    variables: (ns) => ({
      i: [
        { content: '', namespace: ns },
        { content: 'z'.repeat(60_000), namespace: ns },
      ],
    }),
  },
  {
    name: 'memoriesConnection: invalid cursor',
    query: 'query Q($ns: String) { memoriesConnection(namespace: $ns, after: "not-a-cursor") { totalCount } }',
  },
  {
    name: 'memoriesConnection: page over MAX_PAGE_SIZE',
    query: 'query Q($ns: String) { memoriesConnection(namespace: $ns, first: 100000) { totalCount } }',
  },
  {
    name: 'memoriesConnection: negative page',
    query: 'query Q($ns: String) { memoriesConnection(namespace: $ns, first: -1) { totalCount } }',
  },
  { name: 'entities: invalid cursor', query: 'query Q($ns: String) { entities(namespace: $ns, after: "%%%") { edges { cursor } } }' },
  { name: 'jobs: invalid cursor', query: 'query Q($ns: String) { jobs(namespace: $ns, after: "\u0000") { edges { node { id } } } }' },
  {
    name: 'memories: too many ids',
    query: 'query Q($ids: [ID!]!) { memories(ids: $ids) { id } }',
    variables: () => ({ ids: Array.from({ length: 1_000 }, (_, i) => `id-${i}`) }),
  },
  {
    name: 'recall: Lucene metacharacters',
    query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns) { items { score } } }',
    variables: (ns) => ({ ns, q: LUCENE }),
  },
  {
    name: 'recall: Cypher metacharacters',
    query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns) { items { score } } }',
    variables: (ns) => ({ ns, q: CYPHER }),
  },
  {
    name: 'recall: lone surrogate and control characters',
    query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns) { items { score } } }',
    variables: (ns) => ({ ns, q: LONE_SURROGATE + CONTROL }),
  },
  {
    name: 'recall: oversized query',
    query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns, limit: 1) { items { score } } }',
    variables: (ns) => ({ ns, q: 'q'.repeat(200_000) }),
  },
  {
    name: 'recall: limit out of range',
    query: 'query Q($ns: String) { recall(query: "a", namespace: $ns, limit: -5) { items { score } } }',
  },
  {
    name: 'search: Lucene metacharacters',
    query: 'query Q($ns: String, $q: String!) { search(query: $q, namespace: $ns) { hits { id } } }',
    variables: (ns) => ({ ns, q: LUCENE }),
  },
  { name: 'search: negative offset', query: 'query Q($ns: String) { search(query: "a", namespace: $ns, offset: -1) { hits { id } } }' },
  {
    name: 'timeline: unknown anchor',
    query: 'query Q($ns: String) { timeline(anchor: "no-such-memory", namespace: $ns) { anchor { id } } }',
  },
  {
    name: 'timeline: huge window',
    query: 'query Q($ns: String) { timeline(query: "a", namespace: $ns, before: 100000, after: 100000) { anchor { id } } }',
  },
  {
    name: 'entity: Cypher in the name',
    query: 'query Q($ns: String, $n: String) { entity(name: $n, namespace: $ns) { id } }',
    variables: (ns) => ({ ns, n: CYPHER }),
  },
  {
    name: 'entities: regex metacharacters in search',
    query: 'query Q($ns: String) { entities(namespace: $ns, search: ".*(a+)+$[") { edges { cursor } } }',
  },
  { name: 'neighbors: depth out of range', query: 'query { neighbors(entityId: "x", depth: 50) { center { id } } }' },
  { name: 'attributeHistory: unknown entity', query: 'query { attributeHistory(entityId: "nope", aspect: "x") { id } }' },
  { name: 'forget: unknown id with a control-character reason', query: 'mutation { forget(id: "nope", reason: "a\\u0000b") { id } }' },
  { name: 'updateMemory: unknown id', query: 'mutation { updateMemory(id: "nope", content: "x") { id } }' },
  { name: 'requeueJob: unknown id', query: 'mutation { requeueJob(id: "nope") { id } }' },
  { name: 'pin: lone surrogate id', query: 'mutation Q($id: ID!) { pin(id: $id) { id } }', variables: () => ({ id: LONE_SURROGATE }) },
  { name: 'memory: lone surrogate id', query: 'query Q($id: ID!) { memory(id: $id) { id } }', variables: () => ({ id: LONE_SURROGATE }) },
  { name: 'memory: Cypher in the id', query: 'query Q($id: ID!) { memory(id: $id) { id } }', variables: () => ({ id: CYPHER }) },
  { name: 'aspect: unknown id', query: 'query { aspect(id: "nope") { id } }' },
  {
    name: 'aspect: control characters in the id',
    query: 'query Q($id: ID!) { aspect(id: $id) { id } }',
    variables: () => ({ id: CONTROL }),
  },
  { name: 'relations: unknown entity', query: 'query { relations(entityId: "nope") { type } }' },
  {
    name: 'relations: Cypher in the type filter',
    query: 'query Q($e: ID!, $t: String) { relations(entityId: $e, type: $t) { type } }',
    variables: (_, s) => ({ e: s.entityId, t: CYPHER }),
  },
  {
    name: 'relations: unknown direction',
    query: 'query Q($e: ID!) { relations(entityId: $e, direction: SIDEWAYS) { type } }',
    variables: (_, s) => ({ e: s.entityId }),
  },
  {
    name: 'attributeHistory: oversized aspect name',
    query: 'query Q($e: ID!, $a: String!) { attributeHistory(entityId: $e, aspect: $a) { id } }',
    variables: (_, s) => ({ e: s.entityId, a: 'a'.repeat(100_000) }),
  },
  { name: 'pipelineStatus: invalid namespace', query: 'query { pipelineStatus(namespace: "bad ns*") { queue { pending } } }' },
  { name: 'jobs: unknown status', query: 'query Q($ns: String) { jobs(namespace: $ns, status: exploded) { edges { node { id } } } }' },
  { name: 'health: arguments it does not take', query: '{ health(verbose: true) { ok } }' },
  { name: 'unpin: unknown id', query: 'mutation { unpin(id: "nope") { id } }' },
  { name: 'unpin: lone surrogate id', query: 'mutation Q($id: ID!) { unpin(id: $id) { id } }', variables: () => ({ id: LONE_SURROGATE }) },
  { name: 'revertProposal: unknown event', query: 'mutation { revertProposal(eventId: "nope") { eventId } }' },
  {
    name: 'revertProposal: a memory id, not an event',
    query: 'mutation Q($id: ID!) { revertProposal(eventId: $id) { eventId } }',
    variables: (_, s) => ({ id: s.memoryId }),
  },
  { name: 'createEntity: blank name', query: 'mutation Q($ns: String) { createEntity(namespace: $ns, name: "   ") { created } }' },
  {
    name: 'createEntity: oversized name',
    query: 'mutation Q($ns: String, $n: String!) { createEntity(namespace: $ns, name: $n) { created } }',
    variables: (ns) => ({ ns, n: 'N'.repeat(100_000) }),
  },
  {
    name: 'createEntity: unknown type',
    query: 'mutation Q($ns: String) { createEntity(namespace: $ns, name: "Eve", type: villain) { created } }',
  },
  {
    name: 'relate: unknown entities',
    query: 'mutation Q($ns: String) { relate(namespace: $ns, source: "Nobody", type: "knows", target: "Noone") { type } }',
  },
  {
    name: 'relate: confidence out of range',
    query: 'mutation Q($ns: String) { relate(namespace: $ns, source: "Ada", type: "uses", target: "Neo4j", confidence: 7.5) { type } }',
  },
  {
    name: 'relate: oversized type',
    query: 'mutation Q($ns: String, $t: String!) { relate(namespace: $ns, source: "Ada", type: $t, target: "Neo4j") { type } }',
    variables: (ns) => ({ ns, t: 't'.repeat(50_000) }),
  },
  {
    name: 'assertFact: unknown entity',
    query: 'mutation Q($ns: String) { assertFact(namespace: $ns, entity: "Nobody", aspect: "role", content: "Nobody leads") { outcome } }',
  },
  {
    name: 'assertFact: a secret announced without its value',
    query: 'mutation Q($ns: String) { assertFact(namespace: $ns, entity: "Ada", aspect: "access", content: "my password is") { outcome } }',
  },
  {
    name: 'assertFact: confidence NaN-like',
    query:
      'mutation Q($ns: String) { assertFact(namespace: $ns, entity: "Ada", aspect: "role", content: "Ada leads", confidence: -3) { outcome } }',
  },
  {
    name: 'mergeEntities: an entity into itself',
    query: 'mutation Q($ns: String) { mergeEntities(namespace: $ns, keep: "Ada", merge: "ada") { entity { id } } }',
  },
  {
    name: 'mergeEntities: unknown entity',
    query: 'mutation Q($ns: String) { mergeEntities(namespace: $ns, keep: "Ada", merge: "Nobody") { entity { id } } }',
  },
  {
    name: 'deleteNamespace: wrong confirmation',
    query: 'mutation Q($ns: String!) { deleteNamespace(namespace: $ns, confirm: "yes") { total } }',
  },
  { name: 'deleteNamespace: invalid namespace', query: 'mutation { deleteNamespace(namespace: "*", confirm: "*") { total } }' },
  {
    name: 'remember: non-serializable metadata (a 300-deep array)',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok then', namespace: ns, metadata: { a: deepArray(300) } } }),
  },
  {
    name: 'remember: metadata with a huge number literal',
    query: 'mutation Q($ns: String) { remember(input: { content: "numbers", namespace: $ns, metadata: { n: 1e400 } }) { memory { id } } }',
  },
  {
    name: 'remember: metadata a bare string',
    query: REMEMBER,
    variables: (ns) => ({ i: { content: 'ok there', namespace: ns, metadata: 'just a string' } }),
  },
  { name: 'document: unknown id', query: 'query { document(id: "nope") { id } }' },
  { name: 'documents: invalid cursor', query: 'query Q($ns: String) { documents(namespace: $ns, after: "%%") { edges { node { id } } } }' },
  { name: 'runRetention: invalid namespace', query: 'mutation { runRetention(namespace: "bad ns*", dryRun: true) { dryRun } }' },
  {
    name: 'ingestDocument: both url and text',
    query: 'mutation Q($ns: String) { ingestDocument(input: { namespace: $ns, url: "https://example.com/", text: "x" }) { id } }',
  },
  { name: 'ingestDocument: neither url nor text', query: 'mutation Q($ns: String) { ingestDocument(input: { namespace: $ns }) { id } }' },
  {
    name: 'ingestDocument: a file: URL',
    query: 'mutation Q($ns: String) { ingestDocument(input: { namespace: $ns, url: "file:///etc/passwd" }) { id } }',
  },
  { name: 'runMaintenance: invalid namespace', query: 'mutation { runMaintenance(namespace: "bad ns*") { __typename } }' },
  {
    name: 'runMaintenance: unknown mode',
    query: 'mutation Q($ns: String) { runMaintenance(namespace: $ns, mode: demolish) { __typename } }',
  },
  {
    name: 'compressSessions: not a date',
    query: 'mutation Q($ns: String) { compressSessions(namespace: $ns, olderThan: "last tuesday") { sessions } }',
  },
  { name: 'checkpoints: invalid namespace', query: 'query { checkpoints(namespace: "bad ns*", sessionId: "s1") { id } }' },
  { name: 'checkpoints: huge last', query: 'query Q($ns: String) { checkpoints(namespace: $ns, sessionId: "s1", last: 100000) { id } }' },
  { name: 'viewer: asked with the rest', query: 'query { viewer { name readOnly allNamespaces namespaces defaultNamespace } }' },
  { name: 'queueByKind: invalid namespace', query: 'query { queueByKind(namespace: "bad ns*") { kind dead } }' },
  {
    name: 'checkpoint: unknown trigger',
    query: 'mutation Q($ns: String) { checkpoint(input: { namespace: $ns, sessionId: "s1", trigger: whenever, digest: "x" }) { id } }',
  },
  {
    name: 'checkpoint: oversized digest',
    query:
      'mutation Q($ns: String, $d: String!) { checkpoint(input: { namespace: $ns, sessionId: "s1", trigger: explicit, digest: $d }) { id } }',
    variables: (ns) => ({ ns, d: 'x'.repeat(20_000) }),
  },
  {
    name: 'aspectFeedback: invalid namespace',
    query: 'mutation { aspectFeedback(namespace: "bad ns*", sessionId: "s1", memoryIds: ["a"]) { applied } }',
  },
  {
    name: 'aspectFeedback: too many ids',
    query: 'mutation Q($ns: String, $ids: [ID!]!) { aspectFeedback(namespace: $ns, sessionId: "s1", memoryIds: $ids) { applied } }',
    variables: (ns) => ({ ns, ids: Array.from({ length: 5000 }, (_, i) => `id-${i}`) }),
  },
  { name: 'session: invalid namespace', query: 'query { session(namespace: "bad ns*", sessionId: "s1") { id } }' },
  {
    name: 'recoverSession: budget below the minimum',
    query: 'query Q($ns: String) { recoverSession(namespace: $ns, sessionId: "s1", budgetChars: 10) { chars } }',
  },
  {
    name: 'startSession: oversized maxChars',
    query: 'mutation Q($ns: String) { startSession(input: { namespace: $ns, sessionId: "s1", maxChars: 1000000 }) { chars } }',
  },
  {
    name: 'startSession: oversized sessionId',
    query: 'mutation Q($ns: String, $s: String) { startSession(input: { namespace: $ns, sessionId: $s }) { chars } }',
    variables: (ns) => ({ ns, s: 'x'.repeat(300) }),
  },
  {
    name: 'sessionPrompt: invalid namespace',
    query: 'mutation { sessionPrompt(namespace: "bad ns*", sessionId: "s1", prompt: "hello") { __typename } }',
  },
  {
    name: 'endSession: unknown session',
    query: 'mutation Q($ns: String) { endSession(namespace: $ns, sessionId: "never-started") { id } }',
  },
  { name: 'exportNamespace: invalid namespace', query: '{ exportNamespace(namespace: "bad ns*") { header } }' },
  {
    name: 'exportNamespace: a page over the maximum',
    query: 'query Q($ns: String) { exportNamespace(namespace: $ns, first: 1000000) { header } }',
  },
  {
    name: 'exportNamespace: a forged cursor',
    query: 'query Q($ns: String) { exportNamespace(namespace: $ns, after: "\' OR 1=1 --") { header } }',
  },
  {
    name: 'importNamespace: no header line',
    query: 'mutation Q($ns: String, $l: [String!]!) { importNamespace(namespace: $ns, lines: $l) { created } }',
    variables: (ns) => ({ ns, l: ['{"kind":"node","label":"Memory","id":"m1","props":{"content":"x"}}'] }),
  },
  {
    name: 'importNamespace: a line that is not JSON after a valid header',
    query: 'mutation Q($ns: String, $l: [String!]!) { importNamespace(namespace: $ns, lines: $l) { created } }',
    variables: (ns) => ({
      ns,
      l: [
        JSON.stringify({ kind: 'header', format: 'mnemograph.namespace', version: 1, namespace: ns, embeddingModel: 'all-MiniLM-L6-v2' }),
        '{"kind": "node", "label": ',
      ],
    }),
  },
  {
    name: 'importNamespace: an edge outside the graph model',
    query: 'mutation Q($ns: String, $l: [String!]!) { importNamespace(namespace: $ns, lines: $l) { created } }',
    variables: (ns) => ({
      ns,
      l: [
        JSON.stringify({ kind: 'header', format: 'mnemograph.namespace', version: 1, namespace: ns, embeddingModel: 'all-MiniLM-L6-v2' }),
        JSON.stringify({ kind: 'edge', type: 'DETACH_DELETE', from: 'a', to: 'b', fromKind: 'Memory', toKind: 'Memory', props: {} }),
      ],
    }),
  },
  {
    name: 'importNamespace: too many lines',
    query: 'mutation Q($ns: String, $l: [String!]!) { importNamespace(namespace: $ns, lines: $l) { created } }',
    variables: (ns) => ({ ns, l: Array.from({ length: 20_000 }, () => '{}') }),
  },
  { name: 'unknown field', query: '{ memoriez { id } }' },
  { name: 'syntax error', query: '{ recall(query: ' },
  { name: 'deep query', query: `{ memory(id: "x") { ${'entities { memories { '.repeat(10)}id${' } }'.repeat(10)} } }` },
  { name: 'wide query of aliases', query: `{ ${Array.from({ length: 200 }, (_, i) => `a${i}: health { ok }`).join(' ')} }` },
  { name: 'many identical fields', query: `{ ${'health { ok } '.repeat(600)} }` },
];

const ACCEPTABLE_CODES = new Set([
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'LIMIT_EXCEEDED',
  'FORBIDDEN',
  'PII_REJECTED',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
  'BAD_REQUEST',
]);

describe('hostile inputs at the GraphQL edge: each answered with a code, the store unchanged', () => {
  let http: TestHttpServer;
  const namespace = uniqueNamespace('hostile');
  const nodes = async () => (await http.services.executor.read<{ n: number }>('test.count', NODES, { namespace }))[0]!.n;

  const seed: Seed = { memoryId: '', entityId: '' };
  /**
   * The test namespace's nodes with every property: a mutation refused must leave all of it as it
   * was. Recall's access counts are left out: earlier read cases move them in a background flush
   * (best-effort by design), which may land while any case runs.
   */
  const ACCESS_FIELDS = ['accessCount', 'lastAccessed', 'accessFlushId'];
  const snapshot = async () =>
    JSON.stringify(
      (
        await http.services.executor.read<{ labels: string[]; props: Record<string, unknown> }>(
          'test.snapshot',
          'MATCH (n) WHERE n.namespace = $namespace RETURN labels(n) AS labels, properties(n) AS props ORDER BY n.id',
          { namespace },
        )
      ).map(({ labels, props }) => ({
        labels,
        props: Object.fromEntries(Object.entries(props).filter(([key]) => !ACCESS_FIELDS.includes(key))),
      })),
    );

  beforeAll(async () => {
    http = await startTestHttpServer({ DEFAULT_NAMESPACE: namespace, MAX_REQUEST_BYTES: String(4 * 1024 * 1024) });
    const seeded = await http.post({ query: REMEMBER, variables: { i: { content: 'Ada keeps the billing service on Neo4j', namespace } } });
    expect(seeded.body.errors).toBeUndefined();
    seed.memoryId = seeded.body.data.remember.memory.id;
    for (const name of ['Ada', 'Neo4j']) {
      const made = await http.post({
        query: 'mutation C($ns: String, $n: String!) { createEntity(namespace: $ns, name: $n, type: person) { entity { id } } }',
        variables: { ns: namespace, n: name },
      });
      expect(made.body.errors).toBeUndefined();
      seed.entityId ||= made.body.data.createEntity.entity.id;
    }
    const fact = await http.post({
      query:
        'mutation A($ns: String) { assertFact(namespace: $ns, entity: "Ada", aspect: "role", content: "Ada maintains billing") { outcome } }',
      variables: { ns: namespace },
    });
    expect(fact.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it('covers every root query and mutation of the schema', () => {
    const schema = buildSchema(typeDefs);
    const roots = [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) => Object.keys(type.getFields()));
    const covered = new Set(CASES.flatMap((c) => [...c.query.matchAll(/[{\s(](\w+)\s*[({]/g)].map((m) => m[1])));
    expect(roots.filter((f) => !covered.has(f))).toEqual([]);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const before = await nodes();
    const stored = await snapshot();
    const { status, body } = await http.post({ query: c.query, variables: c.variables?.(namespace, seed) ?? { ns: namespace } });
    expect(status).toBeLessThan(500);
    const codes: string[] = (body.errors ?? []).map((e: any) => e.extensions?.code);
    for (const item of body.data?.rememberBatch ?? []) codes.push(item.error?.code ?? 'STORED');
    // Reads with odd but harmless input may succeed; what must never happen is an uncoded or internal error.
    for (const code of codes) expect(ACCEPTABLE_CODES.has(code), `${c.name}: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
    expect(await nodes()).toBe(before);
    if (c.query.trimStart().startsWith('mutation')) expect(await snapshot(), c.name).toBe(stored);
  });
});

/** Every string of a stored value, JSON-encoded metadata opened up. */
function storedStrings(value: unknown, key = ''): string[] {
  if (typeof value === 'string') {
    if (key === 'metadata') return [value, ...storedStrings(JSON.parse(value))];
    return [value];
  }
  if (Array.isArray(value)) return value.flatMap((v) => storedStrings(v));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...storedStrings(v, k)]);
  return [];
}

describe('text that is not well-formed, in every string input of every mutation: cleaned and stored, never a refusal of the request', () => {
  let http: TestHttpServer;
  const namespaces: string[] = [];
  const props = async (namespace: string) =>
    (
      await http.services.executor.read<{ props: Record<string, unknown> }>(
        'test.props',
        'MATCH (n) WHERE n.namespace = $namespace RETURN properties(n) AS props UNION ALL MATCH (n)-[r]-() WHERE n.namespace = $namespace RETURN properties(r) AS props',
        { namespace },
      )
    ).map((row) => row.props);

  beforeAll(async () => {
    http = await startTestHttpServer({ DEFAULT_NAMESPACE: uniqueNamespace('hostile-text-default') });
  });
  afterAll(async () => {
    for (const namespace of namespaces) await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it.each(STRING_INPUT_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const namespace = uniqueNamespace('hostile-text');
    namespaces.push(namespace);
    const seeded = await http.post({
      query: 'mutation R($i: RememberInput!) { remember(input: $i) { memory { id } } }',
      variables: { i: { content: 'Ada keeps the billing service on Neo4j', namespace } },
    });
    for (const name of ['Ada', 'Neo4j'])
      await http.post({
        query: 'mutation C($ns: String, $n: String!) { createEntity(namespace: $ns, name: $n, type: person) { created } }',
        variables: { ns: namespace, n: name },
      });
    const seed: Seed = { memoryId: seeded.body.data.remember.memory.id, entityId: '' };

    const { status, body } = await http.post({ query: c.query, variables: c.variables?.(namespace, seed) ?? { ns: namespace } });
    expect(status).toBeLessThan(500);
    const codes: string[] = (body.errors ?? []).map((e: any) => e.extensions?.code);
    for (const item of body.data?.rememberBatch ?? []) if (item.error) codes.push(item.error.code);
    if (c.succeeds) expect(codes, JSON.stringify(body).slice(0, 300)).toEqual([]);
    for (const code of codes) expect(ACCEPTABLE_CODES.has(code), `${c.name}: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);

    const stored = await props(namespace);
    // The namespace is still there (a cleaned confirmation is not the namespace's name)...
    expect(stored.length).toBeGreaterThan(0);
    // ...and nothing in it holds a control, bidi or zero-width character or a surrogate half.
    const dirty = stored.flatMap((p) => storedStrings(p)).filter((v) => !isCleanText(v) || Buffer.from(v, 'utf8').toString('utf8') !== v);
    expect(dirty.map((v) => JSON.stringify(v).slice(0, 120))).toEqual([]);
    if (c.name.startsWith('remember: ') && c.name.endsWith(' in content')) {
      const sent = c.variables!(namespace, seed).i as { content: string };
      expect(stored.some((p) => p.content === normalizeContent(sent.content).storageContent && p.content !== sent.content)).toBe(true);
    }
  });
});

/** Every root field that takes a namespace, asked for one the key does not hold (and that does not exist). */
const FOREIGN: Array<[string, string, (foreign: string) => Record<string, unknown>]> = [
  ['memoriesConnection', 'query Q($ns: String) { memoriesConnection(namespace: $ns) { totalCount } }', (ns) => ({ ns })],
  ['recall', 'query Q($ns: String) { recall(query: "billing", namespace: $ns) { items { score } } }', (ns) => ({ ns })],
  ['search', 'query Q($ns: String) { search(query: "billing", namespace: $ns) { hits { id } } }', (ns) => ({ ns })],
  ['timeline', 'query Q($ns: String) { timeline(query: "billing", namespace: $ns) { anchor { id } } }', (ns) => ({ ns })],
  ['entity', 'query Q($ns: String) { entity(name: "Ada", namespace: $ns) { id } }', (ns) => ({ ns })],
  ['entities', 'query Q($ns: String) { entities(namespace: $ns) { edges { cursor } } }', (ns) => ({ ns })],
  ['jobs', 'query Q($ns: String) { jobs(namespace: $ns) { edges { node { id } } } }', (ns) => ({ ns })],
  ['pipelineStatus', 'query Q($ns: String) { pipelineStatus(namespace: $ns) { queue { pending } } }', (ns) => ({ ns })],
  ['queueByKind', 'query Q($ns: String) { queueByKind(namespace: $ns) { kind } }', (ns) => ({ ns })],
  ['documents', 'query Q($ns: String) { documents(namespace: $ns) { edges { node { id } } } }', (ns) => ({ ns })],
  ['remember', REMEMBER, (ns) => ({ i: { content: 'Planted in a namespace the key does not hold.', namespace: ns } })],
  ['rememberBatch', BATCH, (ns) => ({ i: [{ content: 'Planted by batch elsewhere.', namespace: ns }] })],
  ['createEntity', 'mutation Q($ns: String) { createEntity(namespace: $ns, name: "Eve") { created } }', (ns) => ({ ns })],
  ['relate', 'mutation Q($ns: String) { relate(namespace: $ns, source: "Ada", type: "uses", target: "Neo4j") { type } }', (ns) => ({ ns })],
  [
    'assertFact',
    'mutation Q($ns: String) { assertFact(namespace: $ns, entity: "Ada", aspect: "role", content: "Ada leads") { outcome } }',
    (ns) => ({ ns }),
  ],
  [
    'mergeEntities',
    'mutation Q($ns: String) { mergeEntities(namespace: $ns, keep: "Ada", merge: "Neo4j") { entity { id } } }',
    (ns) => ({ ns }),
  ],
  ['deleteNamespace', 'mutation Q($ns: String!) { deleteNamespace(namespace: $ns, confirm: $ns) { total } }', (ns) => ({ ns })],
  ['runRetention', 'mutation Q($ns: String) { runRetention(namespace: $ns, dryRun: true) { dryRun } }', (ns) => ({ ns })],
  [
    'ingestDocument',
    'mutation Q($ns: String) { ingestDocument(input: { namespace: $ns, text: "A document planted elsewhere." }) { id } }',
    (ns) => ({ ns }),
  ],
  ['runMaintenance', 'mutation Q($ns: String) { runMaintenance(namespace: $ns) { __typename } }', (ns) => ({ ns })],
  [
    'compressSessions',
    'mutation Q($ns: String) { compressSessions(namespace: $ns, olderThan: "2020-01-01T00:00:00Z") { sessions } }',
    (ns) => ({ ns }),
  ],
];

describe('unknown namespaces under a keyed principal: FORBIDDEN, nothing created anywhere', () => {
  let http: TestHttpServer;
  const own = uniqueNamespace('hostile-keyed');
  const foreign = uniqueNamespace('hostile-nobody');
  const KEY = 'hostile-key-0123456789abcdef';
  const READ_ONLY = 'hostile-readonly-0123456789abcdef';
  const count = async (namespace: string) => (await http.services.executor.read<{ n: number }>('test.count', NODES, { namespace }))[0]!.n;

  beforeAll(async () => {
    http = await startTestHttpServer({
      DEFAULT_NAMESPACE: own,
      API_KEYS: JSON.stringify([
        { key: KEY, name: 'hostile-agent', namespaces: [own] },
        { key: READ_ONLY, name: 'hostile-viewer', namespaces: [own], readOnly: true },
      ]),
    });
    const seeded = await http.post(
      { query: REMEMBER, variables: { i: { content: 'Ada keeps the billing service on Neo4j', namespace: own } } },
      { authorization: `Bearer ${KEY}` },
    );
    expect(seeded.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await cleanNamespace(http.services, own);
    await cleanNamespace(http.services, foreign);
    await http?.close();
  });

  it.each(FOREIGN)('%s', async (_, query, variables) => {
    const before = await count(own);
    const { status, body } = await http.post({ query, variables: variables(foreign) }, { authorization: `Bearer ${KEY}` });
    expect(status).toBeLessThan(500);
    const codes: string[] = (body.errors ?? []).map((e: any) => e.extensions?.code);
    for (const item of body.data?.rememberBatch ?? []) codes.push(item.error?.code ?? 'STORED');
    expect(codes, JSON.stringify(body).slice(0, 300)).toEqual(['FORBIDDEN']);
    expect(await count(foreign)).toBe(0);
    expect(await count(own)).toBe(before);
  });

  it.each(
    FOREIGN.filter(([, query]) => query.startsWith('mutation')),
  )('%s with a read-only key in its own namespace', async (_, query, variables) => {
    const before = await count(own);
    const { body } = await http.post({ query, variables: variables(own) }, { authorization: `Bearer ${READ_ONLY}` });
    const codes: string[] = (body.errors ?? []).map((e: any) => e.extensions?.code);
    for (const item of body.data?.rememberBatch ?? []) codes.push(item.error?.code ?? 'STORED');
    expect(codes, JSON.stringify(body).slice(0, 300)).toEqual(['FORBIDDEN']);
    expect(await count(own)).toBe(before);
  });
});
