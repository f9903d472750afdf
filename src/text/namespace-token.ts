import { createHash } from 'node:crypto';

/** One opaque Lucene token per namespace (see cypher/004-fulltext-indexes.cypher). */
export function namespaceToken(namespace: string): string {
  return `ns${createHash('sha256').update(namespace).digest('hex').slice(0, 24)}`;
}
