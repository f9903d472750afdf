import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revertProposal } from '../../src/deep/index.js';
import { collapseDuplicates } from '../../src/recall/stages/collapse-duplicates.js';
import { duplicateGroups } from '../../src/recall/stages/collapse-duplicates.js';
import { extraction, query, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { uniqueNamespace } from '../support/services.js';

const TIMEOUT = 120_000;

// Pairs between the default model's near-duplicate and duplicate thresholds (e5-small-v2: 0.97
// and 0.99): cosines 0.983, 0.982, 0.979.
const TEA = ['Alice prefers green tea in the morning.', 'Alice prefers hot green tea in the morning.'] as const;
const PG = [
  "The staging environment's database runs PostgreSQL 15 on a single node in Frankfurt.",
  "The staging environment's database runs PostgreSQL 16 on a single node in Frankfurt.",
] as const;
const VOLVO = ['Bob drives a red Volvo to the office.', 'Bob drives a red Volvo to the office each day.'] as const;
const MERGED_TEA = 'Alice prefers hot green tea in the morning, brewed for two minutes.';

interface MemoryState {
  content: string;
  supersededAt: string | null;
  supersededBy: string | null;
}

describe('near-duplicates: the LLM decides merge / replace / keep both; without it recall collapses them', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('dedup');

  beforeAll(async () => {
    rig = await startDeepPath(namespace);
  }, TIMEOUT);
  afterAll(async () => rig?.close(), TIMEOUT);

  const state = async (id: string) =>
    (
      await query<MemoryState & Record<string, unknown>>(
        rig.services,
        `MATCH (m:Memory {id: $id}) RETURN m.content AS content, m.supersededAt AS supersededAt, m.supersededBy AS supersededBy`,
        { id },
      )
    )[0]!;
  const link = async (newId: string, oldId: string) =>
    (
      await query<{ decision: string | null; reviewedAt: string | null }>(
        rig.services,
        `MATCH (:Memory {id: $newId})-[d:DUPLICATE_OF]->(:Memory {id: $oldId}) RETURN d.decision AS decision, d.reviewedAt AS reviewedAt`,
        { newId, oldId },
      )
    )[0];
  const dedupEvent = async (id: string) =>
    await query<{ outcome: string; details: string; actor: string }>(
      rig.services,
      `MATCH (h:HistoryEvent {event: 'pipeline.dedup'})-[:ABOUT]->(:Memory {id: $id}) RETURN h.outcome AS outcome, h.details AS details, h.actor AS actor`,
      { id },
    );

  it(
    'without an LLM decision, recall collapses an open near-duplicate group into its best member',
    async () => {
      const { services } = rig;
      const older = (await services.remember.remember({ content: VOLVO[0], namespace })).memory;
      const newer = await services.remember.remember({ content: VOLVO[1], namespace });
      expect(newer.dedup).toMatchObject({ action: 'NEAR_DUPLICATE', existingId: older.id });
      // The write transaction queued the dedup job next to the extract job.
      expect(await waitForJob(services, newer.memory.id, ['pending'], { kind: 'dedup' })).toMatchObject({ status: 'pending' });

      const other = (await services.remember.remember({ content: 'Carol manages the Lisbon office budget.', namespace })).memory;
      const groups = await duplicateGroups(services.executor, namespace, [newer.memory.id, other.id, older.id]);
      expect(groups.get(newer.memory.id)).toBe(groups.get(older.id));
      expect(groups.has(other.id)).toBe(false);
      const ranked = [newer.memory.id, other.id, older.id].map((id) => ({ id }));
      expect(collapseDuplicates(ranked, groups, (r) => r.id).items.map((r) => r.id)).toEqual([newer.memory.id, other.id]);
      // Another namespace's ids find nothing.
      expect((await duplicateGroups(services.executor, `${namespace}-other`, [newer.memory.id, older.id])).size).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'merge, replace and keep_both are applied and audited; the superseded memory leaves the open groups',
    async () => {
      const { services, fake, worker } = rig;
      scriptStages(fake, {
        extract: () => extraction([]),
        dedup: (r) => {
          if (r.prompt.includes('green tea'))
            return JSON.stringify({ action: 'merge', merged: MERGED_TEA, confidence: 0.9, reason: 'the newer adds a detail' });
          if (r.prompt.includes('PostgreSQL'))
            return JSON.stringify({ action: 'replace', merged: '', confidence: 0.9, reason: 'the version was upgraded' });
          return JSON.stringify({ action: 'keep_both', merged: '', confidence: 0.9, reason: 'a habit, not a fact about the car' });
        },
      });
      const tea0 = (await services.remember.remember({ content: TEA[0], namespace })).memory;
      const tea1 = await services.remember.remember({ content: TEA[1], namespace });
      const pg0 = (await services.remember.remember({ content: PG[0], namespace })).memory;
      const pg1 = await services.remember.remember({ content: PG[1], namespace });
      expect([tea1.dedup.action, pg1.dedup.action]).toEqual(['NEAR_DUPLICATE', 'NEAR_DUPLICATE']);
      const [volvoOld] = await query<{ id: string }>(
        services,
        `MATCH (m:Memory {namespace: $namespace, content: $content}) RETURN m.id AS id`,
        { namespace, content: VOLVO[0] },
      );
      const [volvoNew] = await query<{ id: string }>(
        services,
        `MATCH (m:Memory {namespace: $namespace, content: $content}) RETURN m.id AS id`,
        { namespace, content: VOLVO[1] },
      );
      worker.start();
      for (const id of [tea1.memory.id, pg1.memory.id, volvoNew!.id])
        expect((await waitForJob(services, id, ['completed', 'dead'], { kind: 'dedup', timeoutMs: 90_000 })).status).toBe('completed');

      // merge: the older memory carries the merged text (through the update path), the newer is superseded by it.
      expect(await state(tea0.id)).toMatchObject({ content: MERGED_TEA, supersededAt: null });
      expect(await state(tea1.memory.id)).toMatchObject({ content: TEA[1], supersededBy: tea0.id });
      expect(await link(tea1.memory.id, tea0.id)).toMatchObject({ decision: 'merge' });
      const [merge] = await dedupEvent(tea1.memory.id);
      expect(merge!.outcome).toBe('applied:merge');
      expect(JSON.parse(merge!.details)).toMatchObject({ previousContent: TEA[0], existingMemoryId: tea0.id, mergedContent: MERGED_TEA });
      const [chunk] = await query<{ text: string }>(services, `MATCH (:Memory {id: $id})-[:HAS_CHUNK]->(c:Chunk) RETURN c.text AS text`, {
        id: tea0.id,
      });
      expect(chunk!.text).toBe(MERGED_TEA);

      // replace: the older memory is superseded by the newer.
      expect(await state(pg0.id)).toMatchObject({ supersededBy: pg1.memory.id });
      expect((await state(pg1.memory.id)).supersededAt).toBeNull();
      const [method] = await query<{ method: string }>(
        services,
        `MATCH (:Memory {id: $a})-[s:SUPERSEDES]->(:Memory {id: $b}) RETURN s.method AS method`,
        { a: pg1.memory.id, b: pg0.id },
      );
      expect(method!.method).toBe('replace');
      expect((await dedupEvent(pg1.memory.id))[0]!.outcome).toBe('applied:replace');

      // keep_both: nothing superseded, the link is marked reviewed and no longer collapses.
      expect((await state(volvoOld!.id)).supersededAt).toBeNull();
      expect((await state(volvoNew!.id)).supersededAt).toBeNull();
      expect(await link(volvoNew!.id, volvoOld!.id)).toMatchObject({ decision: 'keep_both' });
      expect((await dedupEvent(volvoNew!.id))[0]).toMatchObject({ outcome: 'applied:keep_both', actor: 'pipeline-v2' });
      const groups = await duplicateGroups(services.executor, namespace, [volvoNew!.id, volvoOld!.id, pg1.memory.id, pg0.id]);
      expect(groups.size).toBe(0);

      // Default recall leaves the superseded memories out.
      const recalled = await services.recall.recall({ query: 'Which PostgreSQL version does staging run?', namespace, limit: 10 });
      const contents = recalled.items.map((i) => i.memory.content);
      expect(contents).toContain(PG[1]);
      expect(contents).not.toContain(PG[0]);
      await worker.stop();

      // The replace is reverted from its event: the older memory is active again, the pair open again.
      const [replaceEvent] = await query<{ id: string }>(
        services,
        `MATCH (h:HistoryEvent {event: 'pipeline.dedup'})-[:ABOUT]->(:Memory {id: $id}) RETURN h.id AS id`,
        { id: pg1.memory.id },
      );
      const reverted = await revertProposal(services.executor, replaceEvent!.id, { namespaces: [namespace], actor: 'test' });
      expect(reverted.restoredMemoryIds).toEqual([pg0.id]);
      expect((await state(pg0.id)).supersededAt).toBeNull();
      expect(await link(pg1.memory.id, pg0.id)).toMatchObject({ decision: 'reverted', reviewedAt: null });
      expect((await duplicateGroups(services.executor, namespace, [pg1.memory.id, pg0.id])).size).toBe(2);
      await expect(revertProposal(services.executor, replaceEvent!.id, { namespaces: [namespace], actor: 'test' })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
    },
    TIMEOUT,
  );
});
