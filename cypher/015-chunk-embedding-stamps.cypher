// Embedding tracker: a chunk is stale exactly when its embeddingModel differs from the running
// model, which the chunk_embedding_model index answers with two range seeks (< and >). Chunks
// from before the stamps take their memory's model; any other chunk whose vector is not known
// to be of its text gets the empty model, so the tracker re-embeds it.
MATCH (m:Memory)-[:HAS_CHUNK]->(ch:Chunk)
WHERE ch.embeddingModel IS NULL OR ch.embeddedHash IS NULL OR ch.embeddedHash <> ch.contentHash OR ch.embedding IS NULL
CALL (m, ch) {
  WITH m, ch, ch.embeddingModel IS NULL AND ch.embedding IS NOT NULL AND m.embeddingModel IS NOT NULL
    AND coalesce(ch.embeddedHash, ch.contentHash) = ch.contentHash AS legacy
  SET ch.embeddingModel = CASE WHEN legacy THEN m.embeddingModel ELSE '' END,
      ch.embeddedHash = CASE WHEN legacy THEN ch.contentHash ELSE ch.embeddedHash END
} IN TRANSACTIONS OF 1000 ROWS;
