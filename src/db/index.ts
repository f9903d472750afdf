export { createDriver, type Neo4jConnection } from './driver.js';
export {
  DEFAULT_EXECUTOR_TIMEOUTS,
  Executor,
  type ExecutorTimeouts,
  type Params,
  type Row,
  type TxRunner,
  type TxWork,
} from './executor.js';
export {
  migrate,
  schemaVersion,
  loadMigrations,
  type MigrationReport,
  schemaReadiness,
  expectedSchemaVersion,
  MIGRATION_LOCK_ID,
  type SchemaReadiness,
} from './migrate.js';
export { mapNeo4jError } from './neo4j-errors.js';
export { warmUpIndexes, type WarmUpReport } from './queries/warm-up.js';
