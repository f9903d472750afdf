// Fair leasing across namespaces (src/db/jobs/enqueue.ts, lease-job.ts): each job carries a turn,
// its place in its namespace's round; claimers take the lowest turn, so one namespace's backlog
// takes turns with every other namespace's new work instead of holding it behind.
CREATE INDEX job_status_turn IF NOT EXISTS FOR (n:Job) ON (n.status, n.turn);
CREATE INDEX job_namespace_status_turn IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.status, n.turn);

// The open jobs stored before this migration: numbered 1, 2, 3... within their namespace, oldest
// first, so the backlogs already queued take turns too. Safe to run again: only jobs without a turn.
MATCH (j:Job)
WHERE j.turn IS NULL AND j.status IN ['pending', 'leased']
WITH j ORDER BY j.availableAt, j.createdAt, j.id
WITH j.namespace AS namespace, collect(j) AS jobs
UNWIND range(0, size(jobs) - 1) AS i
WITH jobs[i] AS j, i
SET j.turn = i + 1;

// Finished jobs keep turn 0: requeued, they go first, as they did before.
MATCH (j:Job)
WHERE j.turn IS NULL
CALL (j) {
  SET j.turn = 0
} IN TRANSACTIONS OF 10000 ROWS;
