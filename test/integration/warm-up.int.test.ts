import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServices, type Services } from '../../src/app.js';
import { CREATE_CHUNKS, MERGE_MEMORIES } from '../../src/db/queries/remember-write.js';
import { NAMED_ENTITY_MEMORIES } from '../../src/db/search/entity.js';
import { LOAD_RECALL_CANDIDATES } from '../../src/db/search/load-memories.js';
import { testServices } from '../support/services.js';

// Readiness waits until every index recall reads has answered once, and the recall and remember paths have run
// once (the model, and every statement planned; the remember rolled back): the first requests after a restart are not cold.
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

  it('prepareServices runs the hot recall and remember statements once, and writes nothing', async () => {
    for (const statement of [NAMED_ENTITY_MEMORIES, LOAD_RECALL_CANDIDATES, MERGE_MEMORIES, CREATE_CHUNKS])
      expect(queries).toContain(statement);
    const [row] = await services.executor.read<{ n: number }>(
      'test.warm-up.stored',
      "MATCH (m:Memory {namespace: $namespace}) WHERE m.content STARTS WITH 'Start-up warm-up' RETURN count(m) AS n",
      { namespace: services.config.DEFAULT_NAMESPACE },
    );
    expect(Number(row!.n)).toBe(0);
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
