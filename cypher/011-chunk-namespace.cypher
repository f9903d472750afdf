// Namespace-exact vector candidates: a namespace too small to surface in the shared vector
// index's top k is scanned exactly, its chunks found by this index (src/db/queries/vector-search.ts).
CREATE INDEX chunk_namespace IF NOT EXISTS FOR (n:Chunk) ON (n.namespace);
