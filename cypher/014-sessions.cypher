// Sessions: one per (namespace, sessionId); the idle sweep seeks open sessions by last activity.
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (n:Session) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (n:Session) REQUIRE (n.namespace, n.sessionId) IS UNIQUE;
CREATE INDEX session_status_activity IF NOT EXISTS FOR (n:Session) ON (n.status, n.lastActivityAt);

// Decay: the pass seeks expired temporal memories by end of validity, and flagged ones by flag.
CREATE INDEX memory_valid_until IF NOT EXISTS FOR (n:Memory) ON (n.validUntil);
CREATE INDEX memory_stale IF NOT EXISTS FOR (n:Memory) ON (n.stale);
