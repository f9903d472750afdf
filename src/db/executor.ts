import type { Driver, ManagedTransaction, QueryResult, RecordShape } from 'neo4j-driver';
import { currentScope } from '../consistency/index.js';
import type { Logger } from '../logger.js';
import { mapNeo4jError } from './neo4j-errors.js';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

/** A unit of work inside one managed transaction: it may run several queries. */
export type TxWork<T> = (tx: TxRunner) => Promise<T>;

export interface TxRunner {
  run<T extends Row = Row>(cypher: string, params?: Params): Promise<T[]>;
}

/** Server-side transaction timeouts: Neo4j terminates a transaction that runs longer. */
export interface ExecutorTimeouts {
  readMs: number;
  writeMs: number;
}

/** Named defaults (src/config/defaults.ts repeats them as the configuration's defaults). */
export const DEFAULT_EXECUTOR_TIMEOUTS: ExecutorTimeouts = { readMs: 5 * 1000, writeMs: 30 * 1000 };

/**
 * Every statement runs as Cypher 25 whatever the server's default language: `SEARCH` and the
 * other Cypher 25 forms parse on a server still defaulting to Cypher 5 (an existing database,
 * Aura, a deployment without `db.query.default_language=CYPHER_25`).
 */
export function cypher25(cypher: string): string {
  return /^\s*CYPHER\s/i.test(cypher) ? cypher : `CYPHER 25 ${cypher.trimStart()}`;
}

export interface QueryListener {
  (event: { cypher: string; mode: 'read' | 'write' | 'auto' }): void;
}

/**
 * The only place that opens sessions and transactions. Every query goes through here with
 * parameters, transaction metadata naming the operation, and error mapping.
 */
export class Executor {
  private readonly listeners = new Set<QueryListener>();

  constructor(
    private readonly driver: Driver,
    private readonly database: string,
    private readonly logger: Logger,
    private readonly timeouts: ExecutorTimeouts = DEFAULT_EXECUTOR_TIMEOUTS,
  ) {}

  /** Observe queries (tests count them; metrics time them). Returns an unsubscribe function. */
  onQuery(listener: QueryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async read<T extends Row = Row>(operation: string, cypher: string, params: Params = {}): Promise<T[]> {
    return this.readTx(operation, (tx) => tx.run<T>(cypher, params));
  }

  async write<T extends Row = Row>(operation: string, cypher: string, params: Params = {}): Promise<T[]> {
    return this.writeTx(operation, (tx) => tx.run<T>(cypher, params));
  }

  async readTx<T>(operation: string, work: TxWork<T>): Promise<T> {
    return this.withSession('read', operation, (session) =>
      session.executeRead((tx) => work(this.runner(tx, 'read')), this.txConfig(operation, this.timeouts.readMs)),
    );
  }

  /** A managed write transaction: retried on transient errors, so `work` must be safe to re-run. */
  async writeTx<T>(operation: string, work: TxWork<T>): Promise<T> {
    return this.withSession('write', operation, (session) =>
      session.executeWrite((tx) => work(this.runner(tx, 'write')), this.txConfig(operation, this.timeouts.writeMs)),
    );
  }

  /**
   * Auto-commit query: required for schema changes and `CALL { … } IN TRANSACTIONS`. Bounded by
   * the write timeout unless the caller names a longer one (waiting for indexes to come online).
   */
  async autoCommit<T extends Row = Row>(
    operation: string,
    cypher: string,
    params: Params = {},
    options: { timeoutMs?: number } = {},
  ): Promise<T[]> {
    return this.withSession('write', operation, async (session) => {
      this.emit(cypher, 'auto');
      const result = await session.run(cypher25(cypher), params, this.txConfig(operation, options.timeoutMs ?? this.timeouts.writeMs));
      return toRows<T>(result);
    });
  }

  async verifyConnectivity(): Promise<void> {
    try {
      await this.driver.verifyConnectivity({ database: this.database });
    } catch (error) {
      throw mapNeo4jError(error);
    }
  }

  async close(): Promise<void> {
    await this.driver.close();
  }

  private runner(tx: ManagedTransaction, mode: 'read' | 'write'): TxRunner {
    return {
      run: async <T extends Row>(cypher: string, params: Params = {}) => {
        this.emit(cypher, mode);
        this.logger.debug({ cypher, params: Object.keys(params) }, 'cypher');
        return toRows<T>(await tx.run(cypher25(cypher), params));
      },
    };
  }

  private async withSession<T>(
    mode: 'read' | 'write',
    operation: string,
    use: (session: ReturnType<Driver['session']>) => Promise<T>,
  ): Promise<T> {
    // Inside a request's (or a job's) bookmark chain, the session reads at least the chain's state.
    const bookmarkManager = currentScope()?.manager;
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'read' ? 'READ' : 'WRITE',
      ...(bookmarkManager ? { bookmarkManager } : {}),
    });
    try {
      return await use(session);
    } catch (error) {
      this.logger.debug({ err: error, operation }, 'neo4j operation failed');
      throw mapNeo4jError(error);
    } finally {
      await session.close();
    }
  }

  private txConfig(operation: string, timeoutMs: number) {
    return { metadata: { app: 'mnemograph', operation }, timeout: timeoutMs };
  }

  private emit(cypher: string, mode: 'read' | 'write' | 'auto'): void {
    for (const listener of this.listeners) listener({ cypher, mode });
  }
}

function toRows<T extends Row>(result: QueryResult<RecordShape>): T[] {
  return result.records.map((record) => record.toObject() as T);
}
