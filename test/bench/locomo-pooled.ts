import type { Conversation, Dataset } from './locomo-data.js';

/**
 * The pooled condition of bench:locomo (quality at scale): every conversation of a dataset in ONE
 * namespace — one agent's memory after months of use — each question still asked as of its date.
 * Turn ids and session ids are prefixed by their conversation ("conv-26/D1:3", "conv-26/session_1"),
 * so a session never spans two conversations and an evidence turn names exactly one memory; the
 * question's evidence is prefixed the same way. Identical turns of two conversations become one
 * memory (the write path's exact dedup), which then stands for both ids.
 */
export const POOLED_CONVERSATION_ID = 'pooled';

export function pooledDataset(dataset: Dataset): Dataset {
  const pooled: Conversation = { id: POOLED_CONVERSATION_ID, turns: [], questions: [] };
  for (const c of dataset.conversations) {
    const prefix = (id: string) => `${c.id}/${id}`;
    pooled.turns.push(...c.turns.map((t) => ({ ...t, externalId: prefix(t.externalId), sessionId: prefix(t.sessionId) })));
    pooled.questions.push(...c.questions.map((q) => ({ ...q, evidence: q.evidence.map(prefix) })));
  }
  return { ...dataset, conversations: [pooled] };
}

/** The pool of every dataset named ("all"): its rows are reported per dataset a question came from. */
export const ALL_POOL = 'all';

export function pooledAll(datasets: readonly Dataset[]): Dataset {
  const conversations = datasets.flatMap((d) =>
    d.conversations.map((c) => ({ ...c, id: `${d.name}/${c.id}`, questions: c.questions.map((q) => ({ ...q, source: d.name })) })),
  );
  return pooledDataset({ name: ALL_POOL, dir: '', conversations });
}
