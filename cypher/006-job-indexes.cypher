// Job reads by the filters the API offers, each an index seek (never a scan of every Job):
// jobs pages (oldest first, by namespace and optionally status; the namespace-free forms too),
// the most recent failures, and the jobs that called the model (pipelineStatus).
CREATE INDEX job_namespace_status_created IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.status, n.createdAt);
CREATE INDEX job_namespace_created IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.createdAt);
CREATE INDEX job_status_created IF NOT EXISTS FOR (n:Job) ON (n.status, n.createdAt);
CREATE INDEX job_created IF NOT EXISTS FOR (n:Job) ON (n.createdAt);
CREATE INDEX job_namespace_failed IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.failedAt);
CREATE INDEX job_failed IF NOT EXISTS FOR (n:Job) ON (n.failedAt);
CREATE INDEX job_namespace_llm_calls IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.llmCalls);
CREATE INDEX job_llm_calls IF NOT EXISTS FOR (n:Job) ON (n.llmCalls);
