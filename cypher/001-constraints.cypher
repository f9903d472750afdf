// Identity: every node type is addressed by a UUID string `id`.
CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (n:Memory) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT aspect_id IF NOT EXISTS FOR (n:Aspect) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT attribute_id IF NOT EXISTS FOR (n:Attribute) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (n:Job) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT history_event_id IF NOT EXISTS FOR (n:HistoryEvent) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT hint_id IF NOT EXISTS FOR (n:Hint) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT transcript_id IF NOT EXISTS FOR (n:Transcript) REQUIRE n.id IS UNIQUE;

// One entity per canonical name and namespace: the linker MERGEs on this pair.
CREATE CONSTRAINT entity_canonical_name IF NOT EXISTS FOR (n:Entity) REQUIRE (n.namespace, n.canonicalName) IS UNIQUE;

// One aspect per entity and canonical name (aspects carry their entity's id).
CREATE CONSTRAINT aspect_canonical_name IF NOT EXISTS FOR (n:Aspect) REQUIRE (n.entityId, n.canonicalName) IS UNIQUE;

// Exact dedup is race-free: a live memory's dedupKey is "<namespace>:<contentHash>";
// a forgotten memory loses its key so the same content may be remembered again.
CREATE CONSTRAINT memory_dedup_key IF NOT EXISTS FOR (n:Memory) REQUIRE n.dedupKey IS UNIQUE;
