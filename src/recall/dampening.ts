import type { RecallSettings } from './settings/index.js';
import { queryTokens } from '../text/index.js';
import type { LegExplanation, RecallCandidate } from './types.js';

export type DampeningSettings = RecallSettings['dampening'];

export interface DampeningFactors {
  gravity: number;
  hub: number;
  resolution: number;
}

export interface DampeningInput {
  candidate: RecallCandidate;
  vector: LegExplanation | null;
  keyword: LegExplanation | null;
  hint: LegExplanation | null;
}

export interface DampeningContext {
  /** queryTokens(query) as a set. */
  queryTokens: ReadonlySet<string>;
  /** Mention count above which an entity is a hub; see hubThreshold(). */
  hubThreshold: number;
}

const ISO_DATE = /\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/;
const MONTH_NAME = /\b(?:january|february|march|april|june|july|august|september|october|november|december)\b/i;
// "May" only capitalized and next to a number, so the modal verb is not a date.
const MAY_DATE = /\bMay\s+\d|\d(?:st|nd|rd|th)?\s+May\b/;

/** The three post-fusion corrections (gravity, hub, resolution); each is 1 when switched off or not applicable. */
export function dampeningFactors(input: DampeningInput, context: DampeningContext, settings: DampeningSettings): DampeningFactors {
  return {
    gravity: settings.gravity.enabled ? gravityFactor(input, context.queryTokens, settings.gravity) : 1,
    hub: settings.hub.enabled ? hubFactor(input.candidate, context.hubThreshold, settings.hub) : 1,
    resolution: settings.resolution.enabled ? resolutionFactor(input.candidate, settings.resolution) : 1,
  };
}

/**
 * Penalizes a "semantic hallucination": a result found only by meaning (a vector score, no
 * keyword or hint match) whose cosine similarity exceeds `minScore` yet shares no word with the query.
 * By default (`formula: 'flat'`, the design's rule) the score is multiplied by the penalty; with
 * `'excess'` the penalty scales only the index score's excess over the threshold, keeping such
 * results in vector order (docs/deviations.md has both measured). Results reached only through
 * the graph boost are left alone — the boost only adds.
 */
export function gravityFactor(input: DampeningInput, tokens: ReadonlySet<string>, settings: DampeningSettings['gravity']): number {
  const { vector, keyword, hint, candidate } = input;
  // The index reports (1 + cos) / 2; the threshold is on the cosine itself.
  if (!vector || keyword || hint || indexScoreToCosine(vector.raw) <= settings.minScore || tokens.size === 0) return 1;
  const overlaps = queryTokens(candidate.content).some((token) => tokens.has(token));
  if (overlaps) return 1;
  if (settings.formula === 'flat') return settings.penalty;
  // Only the part above the threshold is scaled, so a closer match never falls behind a weaker
  // one the threshold exempts (a flat factor would invert them around the threshold).
  const threshold = (1 + settings.minScore) / 2;
  return (threshold + settings.penalty * (vector.raw - threshold)) / vector.raw;
}

export function indexScoreToCosine(score: number): number {
  return 2 * score - 1;
}

/** Penalizes a memory whose linked entities are all hubs (mentions above the threshold). */
export function hubFactor(candidate: RecallCandidate, threshold: number, settings: DampeningSettings['hub']): number {
  const entities = candidate.entityMentions;
  if (entities.length === 0) return 1;
  return entities.every((e) => e.mentions > threshold) ? settings.penalty : 1;
}

/**
 * Mention count at `percentile` (nearest rank) over the distinct entities of the candidate set.
 * Each entity counts once however many candidates mention it, or a hub shared by most results
 * would drag the threshold up to itself. Infinity when there are no entities (nothing is a hub).
 */
export function hubThreshold(candidates: readonly RecallCandidate[], percentile: number): number {
  const mentions = new Map<string, number>();
  for (const c of candidates) for (const e of c.entityMentions) mentions.set(e.entityId, e.mentions);
  return percentileOf([...mentions.values()], percentile);
}

export function percentileOf(values: readonly number[], percentile: number): number {
  if (values.length === 0) return Number.POSITIVE_INFINITY;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(percentile * sorted.length) - 1));
  return sorted[index] as number;
}

/**
 * Rewards specific, actionable memories: constraints and decisions get `boost`, other memories
 * with a temporal anchor (ISO date or month name) half of it; content shorter than
 * `minContentChars` gets nothing.
 */
export function resolutionFactor(candidate: RecallCandidate, settings: DampeningSettings['resolution']): number {
  if (candidate.content.trim().length < settings.minContentChars) return 1;
  if (candidate.isConstraint || candidate.type === 'decision' || candidate.type === 'constraint') return settings.boost;
  if (hasTemporalAnchor(candidate.content)) return 1 + (settings.boost - 1) * 0.5;
  return 1;
}

export function hasTemporalAnchor(text: string): boolean {
  return ISO_DATE.test(text) || MONTH_NAME.test(text) || MAY_DATE.test(text);
}
