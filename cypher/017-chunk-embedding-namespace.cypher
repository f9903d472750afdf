// Neo4j 2026.x filters a vector search inside the index by the properties the index is created
// WITH: the chunk index is recreated WITH [c.namespace], so `SEARCH c IN (VECTOR INDEX
// chunk_embedding FOR $v WHERE c.namespace = $ns LIMIT $k)` (src/db/search/vector.ts) answers
// with the namespace's nearest chunks however many other tenants share the index.
// Quantization NONE with a search expansion factor of 2, measured on 2026.09 (recall@50 of the
// filtered search against the exact top 50 of the namespace; 40 queries; namespaces of 500,
// 1,500 and 4,000 chunks in one index; all-MiniLM-L6-v2 vectors of the bench corpus / random
// unit vectors):
//   NONE, factor 2 (this)      1.0000 0.9975 0.9995 / 1.0000 0.9810 0.9835   scores exact
//   NONE, factor 1 (default)   1.0000 0.9920 0.9975 / 1.0000 0.9460 0.9415   scores exact
//   SCALAR, factor 1.5         0.9980 0.9920 0.9950 / 0.9905 0.9685 0.9635   scores off by ≤ 0.003
//   BINARY, factor 3 (default) 0.9945 0.9880 0.9870 / 0.9005 0.7565 0.6445   scores exact (rescored)
// Exact scores matter: semantic dedup compares them with its thresholds (0.98, 0.92 cosine).
// A 5.26 store keeps its old index (no namespace property) until this migration replaces it;
// the search needs the new one, so the old is dropped first, then built again over every chunk.
DROP INDEX chunk_embedding IF EXISTS;
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS
FOR (c:Chunk) ON c.embedding
WITH [c.namespace]
OPTIONS { indexConfig: {
  `vector.dimensions`: 384,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.type`: 'NONE',
  `vector.default_search_expansion_factor`: 2
} };
