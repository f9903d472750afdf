// Found by the Cypher plan tier (test/integration/cypher-plans.int.test.ts): statements that read one
// namespace (pages, counts, a session's context) or one session's checkpoints scanned every tenant's
// nodes of the label, because a composite index serves only a statement that names all of its
// properties. One range index per label on namespace alone turns them into seeks; checkpoints had
// no index at all.
CREATE INDEX memory_namespace IF NOT EXISTS FOR (n:Memory) ON (n.namespace);
CREATE INDEX entity_namespace IF NOT EXISTS FOR (n:Entity) ON (n.namespace);
CREATE INDEX document_namespace IF NOT EXISTS FOR (n:Document) ON (n.namespace);
CREATE INDEX session_namespace IF NOT EXISTS FOR (n:Session) ON (n.namespace);
CREATE INDEX job_namespace IF NOT EXISTS FOR (n:Job) ON (n.namespace);
CREATE INDEX checkpoint_namespace IF NOT EXISTS FOR (n:Checkpoint) ON (n.namespace);
CREATE INDEX checkpoint_session IF NOT EXISTS FOR (n:Checkpoint) ON (n.namespace, n.sessionId);
CREATE INDEX checkpoint_created IF NOT EXISTS FOR (n:Checkpoint) ON (n.createdAt);
CREATE INDEX aspect_namespace IF NOT EXISTS FOR (n:Aspect) ON (n.namespace);
// Maintenance requeues dead jobs across the store: status alone, which job_status_available cannot serve.
CREATE INDEX job_status IF NOT EXISTS FOR (n:Job) ON (n.status);
