// Retention: expired tombstones, old history and finished jobs are found by index seek.
CREATE INDEX memory_deleted_at IF NOT EXISTS FOR (n:Memory) ON (n.deletedAt);
CREATE INDEX history_at IF NOT EXISTS FOR (n:HistoryEvent) ON (n.at);
CREATE INDEX job_status_completed IF NOT EXISTS FOR (n:Job) ON (n.status, n.completedAt);
CREATE INDEX job_status_failed IF NOT EXISTS FOR (n:Job) ON (n.status, n.failedAt);

// Embedding tracker: chunks by the model that embedded them.
CREATE INDEX chunk_embedding_model IF NOT EXISTS FOR (n:Chunk) ON (n.embeddingModel);
