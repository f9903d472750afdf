import { describe, expect, it } from 'vitest';
import { canonicalName, classifyFact } from './classify-fact.js';
import { gate, OUTCOME } from './gates.js';
import { pipelineMode } from './mode.js';
import type { Decision, ExtractedFact } from './extraction-types.js';

const triples = [
  { source: 'Billing Service', relationship: 'uses', target: 'PostgreSQL', confidence: 0.9 },
  { source: 'Maya', relationship: 'works on', target: 'Billing Service', confidence: 0.8 },
];

describe('classifyFact', () => {
  it('attaches a fact to the earliest source entity it names, aspect by type', () => {
    expect(classifyFact({ content: 'Maya maintains the billing service.', type: 'fact', confidence: 0.9 }, triples)).toEqual({
      entityName: 'Maya',
      entityCanonicalName: 'maya',
      aspect: 'facts',
      aspectCanonicalName: 'facts',
      kind: 'attribute',
      importance: 0.5,
    });
    // a source entity wins over a target-only one mentioned earlier
    expect(classifyFact({ content: 'PostgreSQL powers the billing service.', type: 'preference', confidence: 0.9 }, triples)).toMatchObject(
      {
        entityName: 'Billing Service',
        aspect: 'preferences',
      },
    );
  });

  it('makes decisions constraints', () => {
    const plan = classifyFact({ content: 'PostgreSQL was chosen over MySQL.', type: 'decision', confidence: 0.9 }, triples);
    expect(plan).toMatchObject({ entityCanonicalName: 'postgresql', aspect: 'decisions', kind: 'constraint', importance: 0.85 });
  });

  it('matches whole words only, and returns null when no entity is named', () => {
    expect(classifyFact({ content: 'Mayan history is interesting.', type: 'fact', confidence: 0.9 }, triples)).toBeNull();
    expect(classifyFact({ content: 'Nothing relevant here.', type: 'fact', confidence: 0.9 }, [])).toBeNull();
  });

  it('canonicalizes names', () => {
    expect(canonicalName('  Billing   SERVICE ')).toBe('billing service');
  });
});

describe('pipeline modes and gates', () => {
  const flags = { PIPELINE_ENABLED: true, PIPELINE_SHADOW_MODE: false, MUTATIONS_FROZEN: false, ALLOW_UPDATE_DELETE: false };
  const fact: ExtractedFact = { content: 'Alice uses PostgreSQL.', type: 'fact', confidence: 0.9 };
  const decision = (action: Decision['action'], confidence = 0.9): Decision => ({
    action,
    targetId: action === 'ADD' || action === 'NONE' ? null : 'm1',
    confidence,
    reason: 'r',
    byModel: true,
  });

  it('composes the mode from the flags, frozen first', () => {
    expect(pipelineMode(flags)).toBe('controlled-write');
    expect(pipelineMode({ ...flags, ALLOW_UPDATE_DELETE: true })).toBe('full');
    expect(pipelineMode({ ...flags, PIPELINE_SHADOW_MODE: true })).toBe('shadow');
    expect(pipelineMode({ ...flags, PIPELINE_SHADOW_MODE: true, MUTATIONS_FROZEN: true })).toBe('frozen');
    expect(pipelineMode({ ...flags, PIPELINE_ENABLED: false, MUTATIONS_FROZEN: true })).toBe('disabled');
  });

  it('applies nothing in shadow and frozen modes', () => {
    expect(gate('shadow', fact, decision('ADD'), 0.7)).toEqual({ apply: 'none', outcome: OUTCOME.shadow });
    expect(gate('frozen', fact, decision('DELETE'), 0.7)).toEqual({ apply: 'none', outcome: OUTCOME.frozen });
  });

  it('gates ADD on fact confidence and blocks UPDATE/DELETE unless full', () => {
    expect(gate('controlled-write', fact, decision('ADD'), 0.7)).toEqual({ apply: 'add' });
    expect(gate('controlled-write', { ...fact, confidence: 0.5 }, decision('ADD'), 0.7)).toEqual({
      apply: 'none',
      outcome: OUTCOME.lowFactConfidence,
    });
    expect(gate('controlled-write', fact, decision('UPDATE'), 0.7)).toEqual({ apply: 'none', outcome: OUTCOME.blocked });
    expect(gate('full', fact, decision('UPDATE'), 0.7)).toEqual({ apply: 'update', targetId: 'm1' });
    expect(gate('full', fact, decision('DELETE', 0.2), 0.7)).toEqual({ apply: 'none', outcome: OUTCOME.lowDecisionConfidence });
    expect(gate('full', fact, decision('NONE'), 0.7)).toEqual({ apply: 'none', outcome: OUTCOME.recorded });
    expect(gate('full', fact, null, 0.7)).toEqual({ apply: 'none', outcome: OUTCOME.dropped });
  });
});
