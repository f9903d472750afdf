// Chunk embeddings: all-MiniLM-L6-v2, 384 dims, L2-normalized, searched by cosine.
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS
FOR (n:Chunk) ON n.embedding
OPTIONS { indexConfig: { `vector.dimensions`: 384, `vector.similarity_function`: 'cosine' } };
