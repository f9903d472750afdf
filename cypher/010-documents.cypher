// Documents: the ingest loop claims the oldest runnable document; lists are per namespace, newest first.
CREATE INDEX document_status_created IF NOT EXISTS FOR (n:Document) ON (n.status, n.createdAt);
CREATE INDEX document_namespace_created IF NOT EXISTS FOR (n:Document) ON (n.namespace, n.createdAt);

// One transcript per session and namespace: written once (MERGE on the pair).
CREATE CONSTRAINT transcript_session IF NOT EXISTS FOR (n:Transcript) REQUIRE (n.namespace, n.sessionId) IS UNIQUE;
