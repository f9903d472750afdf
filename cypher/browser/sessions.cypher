// Sessions: the newest of a namespace with their counts, checkpoints, end and summary; then the
// memories flagged stale by the decay pass, and why.
//
// :param namespace => 'demo'
MATCH (s:Session {namespace: $namespace})
OPTIONAL MATCH (j:Job {id: s.jobId})
RETURN s.sessionId AS session, s.status AS status, s.prompts AS prompts, s.toolResults AS toolResults,
       s.checkpoints AS checkpoints, s.startedAt AS startedAt, s.endReason AS ended, j.status AS summaryJob,
       s.summarizer AS summarizer, s.continuityScore AS continuity, s.summaryLearned AS learned
ORDER BY startedAt DESC
LIMIT 50;

MATCH (m:Memory {namespace: $namespace, stale: true})
RETURN m.staleReason AS reason, m.staleAt AS since, m.validUntil AS validUntil, m.lastAccessed AS lastRetrieved, m.name AS memory
ORDER BY since DESC
LIMIT 50;
