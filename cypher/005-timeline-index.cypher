// Neighbours in time within a session (recall's context stage) and within a namespace (timeline).
CREATE INDEX memory_session_timeline IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.sessionId, n.timelineKey);
CREATE INDEX memory_namespace_timeline IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.timelineKey);
