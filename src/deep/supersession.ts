import type { Executor } from '../db/index.js';
import { activeSiblingAttributes } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import { trimEndChars } from '../text/index.js';
import type { AttributePlan } from './classify-fact.js';
import { detectContradiction, type ContradictionCheck } from './contradiction.js';
import { checkSemanticContradiction, needsSemanticCheck, type SemanticCheck } from './semantic-contradiction.js';

/**
 * Retroactive supersession, decided before any write: a planned attribute is compared with the
 * active attributes already on the same entity and aspect; one it contradicts (syntactically,
 * or by the optional semantic check) will be marked superseded by it.
 */

export interface PlannedAttribute {
  id: string;
  content: string;
  plan: AttributePlan;
}

export interface Supersession {
  newId: string;
  oldId: string;
  oldContent: string;
  method: 'syntactic' | 'semantic';
  detail: string;
}

export interface SemanticSettings {
  enabled: boolean;
  timeoutMs: number;
}

export async function planSupersessions(
  executor: Executor,
  provider: LlmProvider | null,
  namespace: string,
  planned: readonly PlannedAttribute[],
  semantic: SemanticSettings,
): Promise<Supersession[]> {
  if (planned.length === 0) return [];
  const keys = [
    ...new Map(
      planned.map((p) => [
        siblingKey(p.plan.entityCanonicalName, p.plan.aspectCanonicalName),
        { entity: p.plan.entityCanonicalName, aspect: p.plan.aspectCanonicalName },
      ]),
    ).values(),
  ];
  const rows = await activeSiblingAttributes(executor, namespace, keys);
  const siblings = new Map<string, Array<{ id: string; content: string }>>();
  for (const row of rows) {
    const key = siblingKey(row.entity, row.aspect);
    siblings.set(key, [...(siblings.get(key) ?? []), { id: row.id, content: row.content ?? '' }]);
  }

  const result: Supersession[] = [];
  for (const attribute of planned) {
    for (const old of siblings.get(siblingKey(attribute.plan.entityCanonicalName, attribute.plan.aspectCanonicalName)) ?? []) {
      if (normalize(old.content) === normalize(attribute.content)) continue;
      const verdict = await contradicts(provider, attribute.content, old.content, semantic);
      if (verdict) result.push({ newId: attribute.id, oldId: old.id, oldContent: old.content, ...verdict });
    }
  }
  return result;
}

export interface ContradictionAssessment {
  contradicts: boolean;
  syntactic: ContradictionCheck;
  /** Present when the semantic check ran. */
  semantic?: SemanticCheck;
}

/** Syntactic first; the semantic check only with a provider, when enabled and the fast path cannot tell. */
export async function assessContradiction(
  provider: LlmProvider | null,
  newer: string,
  older: string,
  semantic: SemanticSettings,
): Promise<ContradictionAssessment> {
  const syntactic = detectContradiction(newer, older);
  if (syntactic.contradicts || !provider || !semantic.enabled || !needsSemanticCheck(syntactic))
    return { contradicts: syntactic.contradicts, syntactic };
  const slow = await checkSemanticContradiction(provider, newer, older, { timeoutMs: semantic.timeoutMs });
  return { contradicts: slow.contradicts, syntactic, semantic: slow };
}

async function contradicts(
  provider: LlmProvider | null,
  newer: string,
  older: string,
  semantic: SemanticSettings,
): Promise<{ method: 'syntactic' | 'semantic'; detail: string } | null> {
  const a = await assessContradiction(provider, newer, older, semantic);
  if (!a.contradicts) return null;
  return a.semantic
    ? { method: 'semantic', detail: a.semantic.reasoning || 'semantic contradiction' }
    : { method: 'syntactic', detail: `${a.syntactic.kind}: ${a.syntactic.detail}` };
}

function siblingKey(entity: string, aspect: string): string {
  return `${entity}\u0000${aspect}`;
}

function normalize(text: string): string {
  return trimEndChars(text.trim().toLowerCase().replace(/\s+/g, ' '), '.!?');
}
