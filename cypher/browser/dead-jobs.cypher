// Dead jobs: deep-path jobs that used up their attempts, newest first, with the last error and
// the memory they were FOR; then the queue depth by status. Put one back in the queue with the
// GraphQL mutation requeueJob(id: "<job>").
//
// :param namespace => 'demo'     (or null for every namespace)
MATCH (j:Job {status: 'dead'})
WHERE $namespace IS NULL OR j.namespace = $namespace
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
RETURN j.id AS job, j.kind AS kind, j.attempts AS attempts, j.maxAttempts AS maxAttempts,
       j.error AS error, j.updatedAt AS diedAt, j.namespace AS namespace, m.id AS memoryId, m.name AS memory
ORDER BY diedAt DESC
LIMIT 50;

MATCH (j:Job)
WHERE $namespace IS NULL OR j.namespace = $namespace
RETURN j.status AS status, j.kind AS kind, count(*) AS jobs
ORDER BY status, kind;
