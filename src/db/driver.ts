import neo4j, { type Driver } from 'neo4j-driver';

export interface Neo4jConnection {
  uri: string;
  user: string;
  password: string;
  database: string;
}

const CONNECTION_TIMEOUT_MS = 10 * 1000;
const MAX_TRANSACTION_RETRY_TIME_MS = 15 * 1000;

/**
 * Integers come back as JS numbers (our counts never approach 2^53). Driver 6 sets TCP_NODELAY on
 * its sockets itself (5.x did not: a query vector waited ~40 ms for the server's delayed ACK).
 */
export function createDriver(connection: Neo4jConnection): Driver {
  return neo4j.driver(connection.uri, neo4j.auth.basic(connection.user, connection.password), {
    disableLosslessIntegers: true,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    maxTransactionRetryTime: MAX_TRANSACTION_RETRY_TIME_MS,
    userAgent: 'mnemograph/0.1',
  });
}
