// Upkeep state that must outlive a process and be one for every replica (src/db/queries/upkeep-state.ts):
// one node per key (aspect feedback counters of a namespace, maintenance rate limits of an action).
CREATE CONSTRAINT upkeep_state_key IF NOT EXISTS FOR (n:UpkeepState) REQUIRE n.key IS UNIQUE;
CREATE INDEX upkeep_state_namespace IF NOT EXISTS FOR (n:UpkeepState) ON (n.namespace);
