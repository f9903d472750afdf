import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraction, query, scriptStages, stageOf, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { uniqueNamespace } from '../support/services.js';

const TIMEOUT = 120_000;
const FACTS: Array<[string, string, number]> = [
  ['The kestrel pipeline must never deploy on Fridays.', 'decision', 0.9],
  ['The kestrel pipeline publishes nightly builds to the mirror.', 'fact', 0.9],
  ['The kestrel pipeline is owned by the data team.', 'fact', 0.9],
];

interface AttributeRow {
  content: string;
  aspect: string;
  kind: string;
  classifiedBy: string | null;
}

describe('structural classification: one LLM call per entity, applied in one transaction', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('classify');

  beforeAll(async () => {
    rig = await startDeepPath(namespace);
  }, TIMEOUT);
  afterAll(async () => rig?.close(), TIMEOUT);

  const attributes = () =>
    query<AttributeRow & Record<string, unknown>>(
      rig.services,
      `MATCH (e:Entity {namespace: $namespace, canonicalName: 'kestrel pipeline'})-[:HAS_ASPECT]->(asp:Aspect)-[:HAS_ATTRIBUTE]->(a:Attribute {createdBy: 'pipeline-v2'})
       RETURN a.content AS content, asp.name AS aspect, a.kind AS kind, a.classifiedBy AS classifiedBy ORDER BY content`,
      { namespace },
    );

  it(
    "a batch for one entity: aspects by the model (suggested for its inferred type), kinds, the entity's type",
    async () => {
      const { services, fake, worker } = rig;
      scriptStages(fake, {
        extract: () => extraction(FACTS, [['kestrel pipeline', 'owned by', 'data team']]),
        decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: 'new' }),
        classify: (r) => {
          const index = (text: string) => Number(new RegExp(`(\\d+)\\. ${text}`).exec(r.prompt)![1]);
          return JSON.stringify({
            entityType: 'project',
            assignments: [
              { i: index('The kestrel pipeline must never'), aspect: 'release schedule', kind: 'constraint', new: true },
              { i: index('The kestrel pipeline publishes'), aspect: 'release schedule', kind: 'attribute', new: true },
              { i: index('The kestrel pipeline is owned'), aspect: 'team', kind: 'attribute', new: true },
            ],
          });
        },
      });
      const memory = (
        await services.remember.remember({
          content: 'kestrel pipeline notes: never deploy on Fridays, nightly builds go to the mirror, the data team owns it.',
          namespace,
        })
      ).memory;
      worker.start();
      expect((await waitForJob(services, memory.id, ['completed', 'dead'])).status).toBe('completed');

      // The rules placed the facts first (decisions / facts).
      const [entity] = await query<{ id: string; type: string }>(
        services,
        `MATCH (e:Entity {namespace: $namespace, canonicalName: 'kestrel pipeline'}) RETURN e.id AS id, e.type AS type`,
        { namespace },
      );
      const deadline = Date.now() + 60_000;
      let job: { status: string; result: string | null } | undefined;
      while (Date.now() < deadline) {
        [job] = await query<{ status: string; result: string | null }>(
          services,
          `MATCH (j:Job {kind: 'classify'})-[:FOR]->(:Entity {id: $id}) RETURN j.status AS status, j.result AS result`,
          { id: entity!.id },
        );
        if (job && (job.status === 'completed' || job.status === 'dead')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(job?.status).toBe('completed');
      expect(JSON.parse(job!.result!)).toMatchObject({ calls: 1, classified: 3, keptByRules: 0, entityType: 'project' });

      const classifyCalls = fake.requests.filter((r) => stageOf(r) === 'classify');
      expect(classifyCalls).toHaveLength(1);
      for (const [fact] of FACTS) expect(classifyCalls[0]!.prompt).toContain(fact);
      expect(classifyCalls[0]!.prompt).toMatch(/Existing aspects: .*(decisions|facts)/);
      expect(classifyCalls[0]!.format).toMatchObject({ required: ['entityType', 'assignments'] });

      expect(await attributes()).toEqual(
        [
          { content: FACTS[2]![0], aspect: 'team', kind: 'attribute', classifiedBy: 'llm' },
          { content: FACTS[0]![0], aspect: 'release schedule', kind: 'constraint', classifiedBy: 'llm' },
          { content: FACTS[1]![0], aspect: 'release schedule', kind: 'attribute', classifiedBy: 'llm' },
        ].sort((a, b) => a.content.localeCompare(b.content)),
      );
      const [after] = await query<{ type: string }>(services, `MATCH (e:Entity {id: $id}) RETURN e.type AS type`, { id: entity!.id });
      // The pipeline created the entity untyped; the model's inference set it.
      expect(entity!.type === 'extracted' || entity!.type === 'project').toBe(true);
      expect(after!.type).toBe('project');
      const [event] = await query<{ outcome: string; details: string }>(
        services,
        `MATCH (h:HistoryEvent {event: 'pipeline.classify'})-[:ABOUT]->(:Entity {id: $id}) RETURN h.outcome AS outcome, h.details AS details`,
        { id: entity!.id },
      );
      expect(event!.outcome).toBe('classified');
      expect(JSON.parse(event!.details).assignments).toHaveLength(3);
      await worker.stop();
    },
    TIMEOUT,
  );
});
