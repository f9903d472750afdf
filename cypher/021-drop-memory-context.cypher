// The keyword leg's in-context reading (migration 019) is gone: it did not pay on the dev sets
// (docs/recall-quality.md), while every session write recomputed Memory.contextText. Its index and
// the derived property go; the memories' content is untouched. Safe to run again.
DROP INDEX memory_in_context IF EXISTS;

MATCH (m:Memory) WHERE m.contextText IS NOT NULL
CALL (m) { REMOVE m.contextText } IN TRANSACTIONS OF 1000 ROWS;
