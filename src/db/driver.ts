import neo4j, { type Driver } from 'neo4j-driver';
import { disableNagleForOutboundSockets } from './tcp-no-delay.js';

export interface Neo4jConnection {
  uri: string;
  user: string;
  password: string;
  database: string;
}

const CONNECTION_TIMEOUT_MS = 10 * 1000;
const MAX_TRANSACTION_RETRY_TIME_MS = 15 * 1000;

/** Integers come back as JS numbers (our counts never approach 2^53). */
export function createDriver(connection: Neo4jConnection): Driver {
  disableNagleForOutboundSockets();
  return neo4j.driver(connection.uri, neo4j.auth.basic(connection.user, connection.password), {
    disableLosslessIntegers: true,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    maxTransactionRetryTime: MAX_TRANSACTION_RETRY_TIME_MS,
    userAgent: 'mnemograph/0.1',
  });
}
