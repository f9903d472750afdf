import { afterEach, describe, expect, it } from 'vitest';
import { uniqueNamespace } from '../support/services.js';
import {
  extraction,
  memoryTextOf,
  query,
  scriptStages,
  stageOf,
  startDeepPath,
  waitForJob,
  type DeepPathRig,
} from '../support/deep-path.js';

interface AttributeRow extends Record<string, unknown> {
  id: string;
  content: string;
  status: string;
  validTo: string | null;
  supersedes: string[];
}

const ATTRIBUTES = `
MATCH (:Entity {namespace: $namespace, canonicalName: $entity})-[:HAS_ASPECT]->(:Aspect {canonicalName: $aspect})-[:HAS_ATTRIBUTE]->(a:Attribute)
RETURN a.id AS id, a.content AS content, a.status AS status, a.validTo AS validTo,
       [(a)-[:SUPERSEDES]->(old) | old.id] AS supersedes
ORDER BY a.validFrom`;

/** Extraction of each memory is scripted by its text: one fact about Alice and one triple. */
function scriptFacts(
  rig: DeepPathRig,
  factsByMemory: Record<string, string>,
  contradiction?: Parameters<typeof scriptStages>[1]['contradiction'],
): void {
  scriptStages(rig.fake, {
    extract: (r) => {
      const fact = factsByMemory[memoryTextOf(r.prompt)];
      return fact
        ? extraction([[fact, 'fact', 0.9]], [['Alice', 'uses', fact.includes('MongoDB') ? 'MongoDB' : 'PostgreSQL']])
        : extraction([]);
    },
    decide: () => JSON.stringify({ action: 'ADD', confidence: 0.9, reason: 'a newer statement about Alice' }),
    ...(contradiction ? { contradiction } : {}),
  });
}

async function processInOrder(rig: DeepPathRig, contents: string[]): Promise<string[]> {
  const ids: string[] = [];
  rig.worker.start();
  for (const content of contents) {
    const { memory } = await rig.services.remember.remember({ content });
    await waitForJob(rig.services, memory.id, ['completed']);
    ids.push(memory.id);
  }
  return ids;
}

describe('retroactive supersession of attributes', () => {
  let rig: DeepPathRig | undefined;
  let namespace = '';

  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('a contradicting attribute (negation) supersedes the active sibling on the same entity/aspect, keeping history', async () => {
    namespace = uniqueNamespace('wsneg');
    rig = await startDeepPath(namespace);
    const old = 'Alice uses PostgreSQL for the billing service.';
    const newer = 'Alice does not use PostgreSQL for the billing service anymore.';
    scriptFacts(rig, { 'Note: Alice runs billing on PostgreSQL.': old, 'Correction: billing is off PostgreSQL now.': newer });
    const [, second] = await processInOrder(rig, ['Note: Alice runs billing on PostgreSQL.', 'Correction: billing is off PostgreSQL now.']);

    const attrs = await query<AttributeRow>(rig.services, ATTRIBUTES, { namespace, entity: 'alice', aspect: 'facts' });
    expect(attrs.map((a) => [a.content, a.status])).toEqual([
      [old, 'superseded'],
      [newer, 'active'],
    ]);
    expect(attrs[0]!.validTo).toEqual(expect.any(String));
    expect(attrs[1]!.validTo).toBeNull();
    expect(attrs[1]!.supersedes).toEqual([attrs[0]!.id]);

    const [edge] = await query<{ method: string; reason: string }>(
      rig.services,
      `MATCH (:Attribute {id: $newer})-[s:SUPERSEDES]->(:Attribute {id: $old}) RETURN s.method AS method, s.reason AS reason`,
      { newer: attrs[1]!.id, old: attrs[0]!.id },
    );
    expect(edge).toEqual({ method: 'syntactic', reason: 'negation: only one statement is negated' });
    const [event] = await query<{ outcome: string; details: string }>(
      rig.services,
      `MATCH (h:HistoryEvent {event: 'attribute.superseded'})-[:ABOUT]->(:Memory {id: $id}) RETURN h.outcome AS outcome, h.details AS details`,
      { id: second },
    );
    expect(event!.outcome).toBe('superseded');
    expect(JSON.parse(event!.details)).toMatchObject({
      oldAttributeId: attrs[0]!.id,
      newAttributeId: attrs[1]!.id,
      oldContent: old,
      method: 'syntactic',
    });
    // No model call was needed for this one.
    expect(rig.fake.requests.some((r) => stageOf(r) === 'contradiction')).toBe(false);
  });

  it('with SEMANTIC_CONTRADICTION_ENABLED, the model catches what syntax cannot ("uses PostgreSQL" vs "uses MongoDB")', async () => {
    namespace = uniqueNamespace('wssem');
    rig = await startDeepPath(namespace, { SEMANTIC_CONTRADICTION_ENABLED: 'true' });
    const old = 'Alice uses PostgreSQL for the billing service.';
    const newer = 'Alice uses MongoDB for the billing service.';
    scriptFacts(
      rig,
      { 'Alice: billing runs on PostgreSQL.': old, 'Alice: billing now runs on MongoDB.': newer },
      () =>
        '<think>same system, different database</think>{"contradicts": true, "confidence": 0.85, "reasoning": "one database replaced the other"}',
    );
    await processInOrder(rig, ['Alice: billing runs on PostgreSQL.', 'Alice: billing now runs on MongoDB.']);

    const attrs = await query<AttributeRow>(rig.services, ATTRIBUTES, { namespace, entity: 'alice', aspect: 'facts' });
    expect(attrs.map((a) => [a.content, a.status, a.supersedes.length])).toEqual([
      [old, 'superseded', 0],
      [newer, 'active', 1],
    ]);
    const [edge] = await query<{ method: string; reason: string }>(
      rig.services,
      `MATCH (:Attribute {id: $id})-[s:SUPERSEDES]->() RETURN s.method AS method, s.reason AS reason`,
      { id: attrs[1]!.id },
    );
    expect(edge).toEqual({ method: 'semantic', reason: 'one database replaced the other' });
  });

  it('a semantic check that times out means "no contradiction": both attributes stay active', async () => {
    namespace = uniqueNamespace('wsslow');
    rig = await startDeepPath(namespace, { SEMANTIC_CONTRADICTION_ENABLED: 'true', EXTRACTION_TIMEOUT_MS: '5000' });
    scriptFacts(
      rig,
      {
        'Alice: billing runs on PostgreSQL.': 'Alice uses PostgreSQL for the billing service.',
        'Alice: billing now runs on MongoDB.': 'Alice uses MongoDB for the billing service.',
      },
      () => ({ text: '{"contradicts": true, "confidence": 1, "reasoning": "too late"}', delayMs: 15_000 }),
    );
    const [, second] = await processInOrder(rig, ['Alice: billing runs on PostgreSQL.', 'Alice: billing now runs on MongoDB.']);

    const attrs = await query<AttributeRow>(rig.services, ATTRIBUTES, { namespace, entity: 'alice', aspect: 'facts' });
    expect(attrs.map((a) => a.status)).toEqual(['active', 'active']);
    const job = await waitForJob(rig.services, second!, ['completed']);
    expect(JSON.parse(job.result!)).toMatchObject({ supersededAttributes: 0, outcomes: { created: 1 } });
    await expect.poll(() => rig!.fake.requests.filter((r) => stageOf(r) === 'contradiction').every((r) => r.aborted)).toBe(true);
  }, 60_000);
});
