import { CYPHER_DIR, type Services } from '../../src/app.js';
import { migrate } from '../../src/db/index.js';
import { createLogger } from '../../src/logger.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';

const INDEXES = `SHOW INDEXES YIELD name, type, labelsOrTypes AS labels, properties, options RETURN name, type, labels, properties, options ORDER BY name`;
const CONSTRAINTS = `SHOW CONSTRAINTS YIELD name, type, labelsOrTypes AS labels, properties RETURN name, type, labels, properties ORDER BY name`;

describe('schema migrations on the real Neo4j', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));

  async function schemaSnapshot() {
    const indexes = await services.executor.autoCommit<{ name: string }>('test.indexes', INDEXES);
    const constraints = await services.executor.autoCommit<{ name: string }>('test.constraints', CONSTRAINTS);
    return { indexes, constraints };
  }

  it('applying the migrations again changes nothing', async () => {
    const before = await schemaSnapshot();
    const report = await migrate(services.executor, CYPHER_DIR, createLogger('silent'));
    expect(report.applied).toEqual([]);
    expect(report.version).toBeGreaterThanOrEqual(4);
    expect(await schemaSnapshot()).toEqual(before);
  });

  it('has the 384-dimension cosine vector index on Chunk.embedding, filterable by namespace, unquantized', async () => {
    const { indexes } = await schemaSnapshot();
    const vector = indexes.find((i) => i.name === 'chunk_embedding') as unknown as {
      type: string;
      labels: string[];
      properties: string[];
      options: { indexConfig: Record<string, unknown> };
    };
    expect(vector).toMatchObject({ type: 'VECTOR', labels: ['Chunk'], properties: ['embedding', 'namespace'] });
    expect(vector.options.indexConfig).toMatchObject({
      'vector.dimensions': 384,
      'vector.similarity_function': 'COSINE',
      'vector.quantization.type': 'NONE',
      'vector.default_search_expansion_factor': 2,
    });
  });

  it('has the full-text indexes and the entity uniqueness constraint', async () => {
    const { indexes, constraints } = await schemaSnapshot();
    expect(
      indexes
        .filter((i) => (i as unknown as { type: string }).type === 'FULLTEXT')
        .map((i) => i.name)
        .sort(),
    ).toEqual(['entity_alias', 'entity_name', 'hint_text', 'memory_content']);
    expect(constraints.find((c) => c.name === 'entity_canonical_name')).toMatchObject({ properties: ['namespace', 'canonicalName'] });
  });

  it('returns the nearest chunk through the vector index', async ({ namespace }) => {
    const texts = [
      'The cat sat on the warm windowsill.',
      'Quarterly revenue grew by twelve percent.',
      'Kubernetes schedules pods onto nodes.',
    ];
    const vectors = await services.embedder.embed(texts);
    await services.executor.write(
      'test.chunks',
      `UNWIND range(0, size($texts) - 1) AS i
       CREATE (c:Chunk {id: randomUUID(), namespace: $namespace, text: $texts[i], index: 0})
       WITH c, i CALL db.create.setNodeVectorProperty(c, 'embedding', $vectors[i])`,
      { namespace, texts, vectors: vectors.map((v) => Array.from(v)) },
    );
    const [query] = await services.embedder.embed(['Which container orchestrator places pods on machines?']);
    const rows = await services.executor.read<{ text: string; score: number }>(
      'test.nearest',
      `MATCH (c:Chunk)
         SEARCH c IN (VECTOR INDEX chunk_embedding FOR $vector WHERE c.namespace = $namespace LIMIT 1) SCORE AS score
       RETURN c.text AS text, score`,
      { namespace, vector: Array.from(query!) },
    );
    expect(rows[0]?.text).toBe(texts[2]);
  });
});
