// Namespace scans, timelines and filters.
CREATE INDEX memory_namespace_created IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.createdAt);
CREATE INDEX memory_namespace_occurred IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.occurredAt);
CREATE INDEX memory_namespace_external IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.externalId);
CREATE INDEX memory_namespace_session IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.sessionId);
CREATE INDEX entity_namespace_mentions IF NOT EXISTS FOR (n:Entity) ON (n.namespace, n.mentions);
CREATE INDEX attribute_status IF NOT EXISTS FOR (n:Attribute) ON (n.namespace, n.status);
CREATE INDEX history_namespace_at IF NOT EXISTS FOR (n:HistoryEvent) ON (n.namespace, n.at);

// Job leasing: the worker claims the oldest runnable job by status and availability.
CREATE INDEX job_status_available IF NOT EXISTS FOR (n:Job) ON (n.status, n.availableAt);
CREATE INDEX job_status_leased IF NOT EXISTS FOR (n:Job) ON (n.status, n.leasedAt);
CREATE INDEX job_namespace_status IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.status);
