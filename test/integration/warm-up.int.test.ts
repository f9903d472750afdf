import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServices, type Services } from '../../src/app.js';
import { testServices } from '../support/services.js';

// Readiness waits until every index recall reads has answered once (the first recall after a restart is not cold).
describe('start-up warms the indexes', () => {
  let services: Services;
  const queries: string[] = [];

  beforeAll(async () => {
    services = testServices();
    services.executor.onQuery((event) => queries.push(event.cypher));
  });
  afterAll(async () => {
    await services.executor.close();
  });

  it('prepareServices queries the vector, full-text and chunk range indexes before it returns', async () => {
    await prepareServices(services);
    expect(queries.some((q) => q.includes('SEARCH c IN (VECTOR INDEX chunk_embedding'))).toBe(true);
    expect(queries.filter((q) => q.includes('db.index.fulltext.queryNodes($index'))).toHaveLength(3);
    expect(queries.some((q) => q.includes('MATCH (c:Chunk) WHERE c.namespace IS NOT NULL'))).toBe(true);
  });

  it('reports each index answered (a time, not an error)', async () => {
    const { warmUpIndexes } = await import('../../src/db/index.js');
    const report = await warmUpIndexes(services.executor, 384);
    expect(Object.keys(report.indexes).sort()).toEqual([
      'chunk_embedding',
      'chunk_namespace',
      'entity_name',
      'hint_text',
      'memory_content',
    ]);
    for (const value of Object.values(report.indexes)) expect(typeof value).toBe('number');
  });
});
