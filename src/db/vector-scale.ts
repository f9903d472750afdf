/**
 * Neo4j's cosine vector index scores a match as (1 + cos) / 2, in [0, 1]; the thresholds people
 * set (duplicate, near duplicate, minimum score) and the deep path's blend are on the cosine
 * itself, in [-1, 1]. The two are one quantity on two scales: this converts a score to its cosine.
 */

/** The cosine behind a vector index score: 2s − 1. */
export function cosineFromIndexScore(score: number): number {
  return 2 * score - 1;
}
