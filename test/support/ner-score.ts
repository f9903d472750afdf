/**
 * Precision and recall of a recognizer on the labelled sample (ner-sample.ts), per type and
 * over all types. A prediction counts when its normalized text and its type equal a gold
 * entity's of the same example; `untyped` ignores the type (for recognizers that find names
 * but cannot type them); `names` is `untyped` without dates: what may become a graph entity (a
 * guess that is a gold date counts neither way there).
 */
import type { NerExample } from './ner-sample.js';

export interface Prediction {
  text: string;
  /** Any string: a type outside the gold types only ever counts as a false positive. */
  type: string;
}

export interface Score {
  truePositives: number;
  predicted: number;
  gold: number;
  precision: number;
  recall: number;
}

export type ScoreTable = Record<string, Score>;

/** Lowercase, leading "the" and trailing punctuation and possessive removed, spacing collapsed. */
export function normalizeNerText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '')
    .replace(/['’]s$/, '')
    .replace(/[.,;:!?]+$/, '');
}

export function scoreNer(sample: readonly NerExample[], predict: (text: string) => Prediction[]): ScoreTable {
  const counts = new Map<string, { tp: number; predicted: number; gold: number }>();
  const bump = (key: string, field: 'tp' | 'predicted' | 'gold') => {
    const c = counts.get(key) ?? { tp: 0, predicted: 0, gold: 0 };
    c[field]++;
    counts.set(key, c);
  };
  for (const example of sample) {
    const gold = new Set(example.entities.map((e) => `${e.type}\u0000${normalizeNerText(e.text)}`));
    const goldUntyped = new Set(example.entities.map((e) => normalizeNerText(e.text)));
    const goldDates = new Set(example.entities.filter((e) => e.type === 'date').map((e) => normalizeNerText(e.text)));
    for (const e of example.entities) {
      bump(e.type, 'gold');
      bump('all', 'gold');
      bump('untyped', 'gold');
      if (e.type !== 'date') bump('names', 'gold');
    }
    const seen = new Set<string>();
    for (const p of predict(example.text)) {
      const text = normalizeNerText(p.text);
      const key = `${p.type}\u0000${text}`;
      if (text === '' || seen.has(key)) continue;
      seen.add(key);
      bump(p.type, 'predicted');
      bump('all', 'predicted');
      if (gold.has(key)) {
        bump(p.type, 'tp');
        bump('all', 'tp');
      }
      if (!seen.has(`\u0001${text}`)) {
        seen.add(`\u0001${text}`);
        bump('untyped', 'predicted');
        if (goldUntyped.has(text)) bump('untyped', 'tp');
        if (p.type !== 'date' && !goldDates.has(text)) {
          bump('names', 'predicted');
          if (goldUntyped.has(text)) bump('names', 'tp');
        }
      }
    }
  }
  const table: ScoreTable = {};
  for (const [key, c] of counts) {
    table[key] = {
      truePositives: c.tp,
      predicted: c.predicted,
      gold: c.gold,
      precision: c.predicted ? c.tp / c.predicted : 1,
      recall: c.gold ? c.tp / c.gold : 1,
    };
  }
  return table;
}
