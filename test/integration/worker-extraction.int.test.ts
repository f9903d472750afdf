import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueNamespace } from '../support/services.js';
import { answerBySchema } from '../support/schema-answer.js';
import {
  candidateIdsOf,
  extraction,
  memoryTextOf,
  query,
  scriptStages,
  startDeepPath,
  stageOf,
  waitForJob,
  type DeepPathRig,
} from '../support/deep-path.js';

const SEED = 'Maya has been comparing databases for the billing service this quarter.';
const SOURCE = 'Maya told the team: for the billing service we prefer PostgreSQL. The billing service runs on Kubernetes. Lunch was nice.';

describe('deep path end to end: worker → fake Ollama → Neo4j (controlled-write)', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('wx');

  beforeAll(async () => {
    rig = await startDeepPath(namespace, { HINTS_ENABLED: 'true' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('extracts through <think> blocks and code fences; stores facts, graph, attributes and audit', async () => {
    const { services, fake, worker } = rig;
    scriptStages(fake, {
      extract: (r) => {
        if (memoryTextOf(r.prompt) === SEED) return '<think>nothing durable here</think>{"facts":[],"entities":[]}';
        return [
          '<think>\nThe user mentions Maya, billing, PostgreSQL {not json}.\n</think>',
          'Here is the JSON:',
          '```json',
          extraction(
            [
              ['Maya prefers PostgreSQL for the billing service.', 'preference', 0.92],
              ['The billing service runs on Kubernetes.', 'fact', 0.88],
              ['Lunch with the team was nice today.', 'fact', 0.3],
            ],
            [
              ['Maya', 'works on', 'billing service', 0.8],
              ['billing service', 'runs on', 'Kubernetes'],
              ['billing service', 'uses', 'PostgreSQL'],
            ],
          ),
          '```',
        ].join('\n');
      },
      decide: (r) =>
        JSON.stringify({
          action: 'ADD',
          targetId: null,
          confidence: 0.9,
          reason: `new detail (${candidateIdsOf(r.prompt).length} candidates)`,
        }),
      hints: () =>
        '```json\n{"questions":["Which database does the billing service prefer?","Where does the billing service run?","Who works on billing?","What does Maya prefer?","Is PostgreSQL used?","A sixth question beyond the cap?"]}\n```',
      // The per-entity classification that follows extraction: answered by the schema it sends.
      classify: (r) => JSON.stringify(answerBySchema(r.format)),
    });

    const seed = await services.remember.remember({ content: SEED });
    const source = await services.remember.remember({ content: SOURCE });
    worker.start();
    await waitForJob(services, seed.memory.id, ['completed']);
    const job = await waitForJob(services, source.memory.id, ['completed']);

    const result = JSON.parse(job.result!);
    expect(result).toMatchObject({
      mode: 'controlled-write',
      facts: 3,
      entities: 3,
      outcomes: { created: 2, 'skipped:low_fact_confidence': 1 },
      graphError: null,
    });

    // Each generate call was a non-streamed request constrained by a JSON Schema; the seed memory was a decision candidate.
    const decisions = fake.requests.filter((r) => stageOf(r) === 'decide');
    expect(
      fake.requests.every(
        (r) =>
          r.path === '/api/generate' &&
          r.stream === false &&
          typeof r.format === 'object' &&
          (r.format as { type?: string }).type === 'object',
      ),
    ).toBe(true);
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.some((d) => candidateIdsOf(d.prompt).includes(seed.memory.id))).toBe(true);
    expect(decisions.every((d) => !candidateIdsOf(d.prompt).includes(source.memory.id))).toBe(true);

    const facts = await query<{ id: string; content: string; type: string; why: string; jobs: number }>(
      services,
      `MATCH (f:Memory {namespace: $namespace, who: 'pipeline-v2'})-[:EXTRACTED_FROM]->(:Memory {id: $source})
       RETURN f.id AS id, f.content AS content, f.type AS type, f.why AS why, COUNT { (:Job)-[:FOR]->(f) } AS jobs ORDER BY content`,
      { namespace, source: source.memory.id },
    );
    expect(facts.map((f) => [f.content, f.type, f.why, f.jobs])).toEqual([
      ['Maya prefers PostgreSQL for the billing service.', 'preference', 'extracted-fact', 0],
      ['The billing service runs on Kubernetes.', 'fact', 'extracted-fact', 0],
    ]);

    const relations = await query<{ s: string; type: string; o: string; strength: number; mentions: number; confidence: number }>(
      services,
      `MATCH (s:Entity {namespace: $namespace})-[r:RELATES_TO]->(o:Entity) WHERE r.type <> 'co_mentioned' RETURN s.canonicalName AS s, r.type AS type, o.canonicalName AS o, r.strength AS strength, r.mentions AS mentions, r.confidence AS confidence ORDER BY s, type`,
      { namespace },
    );
    expect(relations).toEqual([
      { s: 'billing service', type: 'runs on', o: 'kubernetes', strength: 1, mentions: 1, confidence: 0.9 },
      { s: 'billing service', type: 'uses', o: 'postgresql', strength: 1, mentions: 1, confidence: 0.9 },
      { s: 'maya', type: 'works on', o: 'billing service', strength: 1, mentions: 1, confidence: 0.8 },
    ]);
    const mentioned = await query<{ name: string; token: boolean }>(
      services,
      `MATCH (:Memory {id: $source})-[:MENTIONS]->(e:Entity) RETURN e.canonicalName AS name, e.namespaceToken IS NOT NULL AS token ORDER BY name`,
      { source: source.memory.id },
    );
    expect(mentioned.map((m) => m.name)).toEqual(expect.arrayContaining(['billing service', 'kubernetes', 'maya', 'postgresql']));
    expect(mentioned.every((m) => m.token)).toBe(true);

    const attributes = await query<{ entity: string; aspect: string; content: string; kind: string; status: string; from: string }>(
      services,
      `MATCH (e:Entity {namespace: $namespace})-[:HAS_ASPECT]->(a:Aspect)-[:HAS_ATTRIBUTE]->(attr:Attribute {createdBy: 'pipeline-v2'})-[:FROM]->(m:Memory)
       RETURN e.canonicalName AS entity, a.name AS aspect, attr.content AS content, attr.kind AS kind, attr.status AS status, m.who AS from ORDER BY entity`,
      { namespace },
    );
    expect(attributes).toEqual([
      {
        entity: 'billing service',
        aspect: 'facts',
        content: 'The billing service runs on Kubernetes.',
        kind: 'attribute',
        status: 'active',
        from: 'pipeline-v2',
      },
      {
        entity: 'maya',
        aspect: 'preferences',
        content: 'Maya prefers PostgreSQL for the billing service.',
        kind: 'attribute',
        status: 'active',
        from: 'pipeline-v2',
      },
    ]);

    const history = await query<{ event: string; outcome: string; actor: string; model: string; details: string }>(
      services,
      `MATCH (h:HistoryEvent)-[:ABOUT]->(:Memory {id: $source}) WHERE h.event STARTS WITH 'pipeline.'
       RETURN h.event AS event, h.outcome AS outcome, h.actor AS actor, h.model AS model, h.details AS details ORDER BY event, outcome`,
      { source: source.memory.id },
    );
    expect(history.map((h) => [h.event, h.outcome])).toEqual([
      ['pipeline.extraction', 'ok'],
      ['pipeline.hints', 'created'],
      ['pipeline.proposal', 'created'],
      ['pipeline.proposal', 'created'],
      ['pipeline.proposal', 'skipped:low_fact_confidence'],
    ]);
    expect(history.every((h) => h.actor === 'pipeline-v2' && h.model === 'qwen3:4b')).toBe(true);
    expect(JSON.parse(history[2]!.details)).toMatchObject({
      action: 'ADD',
      sourceMemoryId: source.memory.id,
      factCount: 3,
      entityCount: 3,
      extractionModel: 'qwen3:4b',
    });

    // Hints: at most five, searchable in the namespace.
    await waitForJob(services, source.memory.id, ['completed'], { kind: 'hints' });
    const hints = await query<{ text: string; token: string }>(
      services,
      `MATCH (h:Hint)-[:HINT_OF]->(:Memory {id: $source}) RETURN h.text AS text, h.namespaceToken AS token`,
      { source: source.memory.id },
    );
    expect(hints).toHaveLength(5);
    expect(hints[0]!.token).toMatch(/^ns/);
    expect(worker.state()).toMatchObject({ running: true, mode: 'controlled-write', llmAvailable: true });
    expect(worker.state().processed).toBeGreaterThanOrEqual(4);
  });

  it('garbage output: the job completes with warnings and no facts; partial garbage keeps the valid items', async () => {
    const { services, fake } = rig;
    const GARBAGE = 'A memory the model cannot parse into anything useful at all.';
    const PARTIAL = 'Priya owns the deploy pipeline and it is on GitHub Actions.';
    scriptStages(fake, {
      extract: (r) =>
        memoryTextOf(r.prompt) === GARBAGE
          ? 'I am sorry, as a language model I cannot produce JSON today.'
          : JSON.stringify({
              facts: [
                { content: 'tiny' },
                { content: 'Priya owns the deploy pipeline.', type: 'ownership', confidence: 0.95 },
                'not an object',
              ],
              entities: [
                { source: 'Priya', relationship: '', target: 'deploy pipeline' },
                { source: 'Priya', relationship: 'owns', target: 'deploy pipeline', confidence: 0.9 },
              ],
            }),
      decide: () => JSON.stringify({ action: 'ADD', confidence: 0.9, reason: 'new' }),
      hints: () => '{"questions":[]}',
      // The first test's classification jobs may still be queued: unanswered, each failure would
      // back the worker off (1 s doubling) and leave this test's extraction waiting past its time.
      classify: (r) => JSON.stringify(answerBySchema(r.format)),
    });
    const garbage = await services.remember.remember({ content: GARBAGE });
    const partial = await services.remember.remember({ content: PARTIAL });

    const gJob = await waitForJob(services, garbage.memory.id, ['completed', 'dead']);
    expect(gJob.status).toBe('completed');
    const gResult = JSON.parse(gJob.result!);
    expect(gResult).toMatchObject({ facts: 0, entities: 0, outcomes: {} });
    expect(gResult.warnings[0]).toMatch(/extraction output unusable: LLM output is not valid JSON/);
    const [raw] = await query<{ content: string }>(
      services,
      `MATCH (m:Memory {id: $id}) WHERE m.deletedAt IS NULL RETURN m.content AS content`,
      { id: garbage.memory.id },
    );
    expect(raw!.content).toBe(GARBAGE);
    const [event] = await query<{ outcome: string }>(
      services,
      `MATCH (h:HistoryEvent {event: 'pipeline.extraction'})-[:ABOUT]->(:Memory {id: $id}) RETURN h.outcome AS outcome`,
      { id: garbage.memory.id },
    );
    expect(event!.outcome).toBe('empty');

    const pJob = await waitForJob(services, partial.memory.id, ['completed', 'dead']);
    const pResult = JSON.parse(pJob.result!);
    expect(pResult).toMatchObject({ facts: 1, entities: 1, outcomes: { created: 1 } });
    expect(pResult.warnings.join('\n')).toMatch(/fact 0: shorter than 10/);
    expect(pResult.warnings.join('\n')).toMatch(/unknown type "ownership"/);
    expect(pResult.warnings.join('\n')).toMatch(/entity 0: source, relationship and target must all be non-empty/);
    const stored = await query<{ type: string }>(
      services,
      `MATCH (f:Memory {who: 'pipeline-v2'})-[:EXTRACTED_FROM]->(:Memory {id: $id}) RETURN f.type AS type`,
      { id: partial.memory.id },
    );
    expect(stored).toEqual([{ type: 'fact' }]);
  });
});
