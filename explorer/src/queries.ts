// Every query the explorer sends. Lists ask for bounded pages (PAGE_SIZE), within the service's
// MAX_PAGE_SIZE, depth and cost limits like any other client's.

export const PAGE_SIZE = 20;

export const VIEWER = `query Viewer { viewer { name readOnly allNamespaces namespaces defaultNamespace } }`;

export interface Viewer {
  name: string;
  readOnly: boolean;
  allNamespaces: boolean;
  namespaces: string[];
  defaultNamespace: string;
}

export const MEMORY_TYPES = ['episodic', 'semantic', 'procedural', 'working', 'fact', 'preference', 'decision', 'document_chunk'] as const;

export const TIMELINE = `query Timeline($ns: String, $filters: MemoryFilters, $first: Int, $after: String) {
  memoriesConnection(namespace: $ns, filters: $filters, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id content type importance tags source sessionId createdAt occurredAt deletedAt supersededAt pinned } }
  }
}`;

export interface MemoryRow {
  id: string;
  content: string;
  type: string;
  importance: number;
  tags: string[];
  source: string | null;
  sessionId: string | null;
  createdAt: string;
  occurredAt: string | null;
  deletedAt: string | null;
  supersededAt: string | null;
  pinned: boolean;
}

export interface TimelineData {
  memoriesConnection: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: Array<{ cursor: string; node: MemoryRow }>;
  };
}

export const SEARCH = `query Search($q: String!, $ns: String) {
  search(query: $q, namespace: $ns, limit: ${PAGE_SIZE}) { hasMore hits { id title type score createdAt occurredAt tokenEstimate } }
}`;

export interface SearchHit {
  id: string;
  title: string;
  type: string;
  score: number;
  createdAt: string;
  occurredAt: string | null;
  tokenEstimate: number;
}

export const MEMORY = `query Memory($id: ID!) {
  memory(id: $id) {
    id namespace content type importance tags source externalId sessionId who actor why
    occurredAt createdAt updatedAt lastAccessed accessCount temporal validUntil pinned
    deletedAt supersededAt supersededBy embeddingModel
    chunks { id index text startChar endChar }
    entities { id name type mentions }
    attributes { id content kind status confidence validFrom validTo supersedes { id content } supersededBy { id content } }
    history { id event reason actor model confidence outcome at details }
    jobs { id kind status attempts maxAttempts error createdAt updatedAt }
  }
}`;

export interface Job {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface HistoryEvent {
  id: string;
  event: string;
  reason: string | null;
  actor: string | null;
  model: string | null;
  confidence: number | null;
  outcome: string | null;
  at: string;
  details: Record<string, unknown> | null;
}

export interface MemoryDetail extends MemoryRow {
  namespace: string;
  externalId: string | null;
  who: string | null;
  actor: string | null;
  why: string | null;
  updatedAt: string;
  lastAccessed: string | null;
  accessCount: number;
  temporal: string;
  validUntil: string | null;
  supersededBy: string | null;
  embeddingModel: string | null;
  chunks: Array<{ id: string; index: number; text: string; startChar: number; endChar: number }>;
  entities: Array<{ id: string; name: string; type: string; mentions: number }>;
  attributes: Array<{
    id: string;
    content: string;
    kind: string;
    status: string;
    confidence: number;
    validFrom: string;
    validTo: string | null;
    supersedes: { id: string; content: string } | null;
    supersededBy: { id: string; content: string } | null;
  }>;
  history: HistoryEvent[];
  jobs: Job[];
}

export const ENTITY = `query Entity($id: ID!) {
  entity(id: $id) {
    id namespace name canonicalName type description aliases mentions createdAt
    aspects { id name weight attributes(includeSuperseded: true) { id content kind status confidence validFrom validTo supersededBy { id content source { id } } source { id } } }
    memories(first: ${PAGE_SIZE}) { id content type createdAt entities { id name type } }
  }
}`;

export interface EntityRef {
  id: string;
  name: string;
  type: string;
}

export interface AttributeView {
  id: string;
  content: string;
  kind: string;
  status: string;
  confidence: number;
  validFrom: string;
  validTo: string | null;
  supersededBy: { id: string; content: string; source: { id: string } | null } | null;
  source: { id: string } | null;
}

/** The audit trail of the memory a superseding attribute came from: it says why. */
export const SUPERSESSION = `query Supersession($id: ID!) { memory(id: $id) { history { event reason outcome at details } } }`;

export interface EntityDetail extends EntityRef {
  namespace: string;
  canonicalName: string;
  description: string | null;
  aliases: string[];
  mentions: number;
  createdAt: string;
  aspects: Array<{ id: string; name: string; weight: number; attributes: AttributeView[] }>;
  memories: Array<{ id: string; content: string; type: string; createdAt: string; entities: EntityRef[] }>;
}

export const ENTITIES = `query Entities($ns: String, $search: String) {
  entities(namespace: $ns, search: $search, first: ${PAGE_SIZE}) { edges { node { id name type mentions } } }
}`;

export const NEIGHBORS = `query Neighbors($id: ID!) {
  neighbors(entityId: $id, depth: 1) {
    center { id name type }
    entities { id name type mentions }
    relations { type strength mentions source { id name type } target { id name type } }
  }
}`;

export interface Neighborhood {
  center: EntityRef;
  entities: Array<EntityRef & { mentions: number }>;
  relations: Array<{ type: string; strength: number; mentions: number; source: EntityRef; target: EntityRef }>;
}

const LEG = '{ raw normalized rank }';
export const RECALL = `query Recall($q: String!, $ns: String, $limit: Int, $budget: Int) {
  recall(query: $q, namespace: $ns, limit: $limit, tokenBudget: $budget, explain: true) {
    totalTokens budgetUsed prompt rerankApplied tookMs
    items {
      score tokens
      memory { id content type importance createdAt }
      explain { method vector ${LEG} keyword ${LEG} hint ${LEG} fused graphBoost resolution importance time stale pinned context rerank final }
    }
  }
  ranked: search(query: $q, namespace: $ns, limit: ${PAGE_SIZE}) { hits { id title type score tokenEstimate } }
}`;

export interface Leg {
  raw: number;
  normalized: number;
  rank: number;
}

export interface Explain {
  method: string;
  vector: Leg | null;
  keyword: Leg | null;
  hint: Leg | null;
  fused: number;
  graphBoost: number;
  resolution: number;
  importance: number;
  time: number;
  stale: number;
  pinned: boolean;
  context: number;
  rerank: number | null;
  final: number;
}

export interface RecallData {
  recall: {
    totalTokens: number;
    budgetUsed: number;
    prompt: string;
    rerankApplied: boolean;
    tookMs: number;
    items: Array<{
      score: number;
      tokens: number;
      memory: { id: string; content: string; type: string; importance: number; createdAt: string };
      explain: Explain | null;
    }>;
  };
  ranked: { hits: SearchHit[] };
}

export const UPKEEP = `query Upkeep($ns: String) {
  pipelineStatus(namespace: $ns) {
    queue { pending leased completed dead }
    worker { running workerId processed failed lastTickAt llmAvailable mode }
    lastErrors { jobId kind error at }
    embeddings { running model processed failed skippedCycles lastCycleAt queueDepth }
    retention { namespace dryRun startedAt durationMs total steps { step deleted cutoff batchFull } }
    maintenance { namespace mode at scoreDelta halted before { score } after { score } actions { action reason outcome affected } }
    echoes { remembers skipped lastAt since }
  }
  queueByKind(namespace: $ns) { kind pending leased completed dead }
  dead: jobs(namespace: $ns, status: dead, first: ${PAGE_SIZE}) { edges { node { id kind attempts maxAttempts error updatedAt memory { id } } } }
}`;

export interface Depth {
  pending: number;
  leased: number;
  completed: number;
  dead: number;
}

export interface UpkeepData {
  pipelineStatus: {
    queue: Depth;
    worker: {
      running: boolean;
      workerId: string | null;
      processed: number;
      failed: number;
      lastTickAt: string | null;
      llmAvailable: boolean;
      mode: string;
    };
    lastErrors: Array<{ jobId: string; kind: string; error: string; at: string }>;
    embeddings: {
      running: boolean;
      model: string;
      processed: number;
      failed: number;
      skippedCycles: number;
      lastCycleAt: string | null;
      queueDepth: number;
    } | null;
    retention: {
      namespace: string | null;
      dryRun: boolean;
      startedAt: string;
      durationMs: number;
      total: number;
      steps: Array<{ step: string; deleted: number; cutoff: string; batchFull: boolean }>;
    } | null;
    maintenance: {
      namespace: string | null;
      mode: string;
      at: string;
      scoreDelta: number;
      halted: string[];
      before: { score: number };
      after: { score: number } | null;
      actions: Array<{ action: string; reason: string; outcome: string; affected: number }>;
    } | null;
    echoes: { remembers: number; skipped: number; lastAt: string | null; since: string };
  };
  queueByKind: Array<Depth & { kind: string }>;
  dead: { edges: Array<{ node: Job & { memory: { id: string } | null } }> };
}

export const REQUEUE = `mutation Requeue($id: ID!) { requeueJob(id: $id) { id status } }`;
