import { describe, expect, it } from 'vitest';
import { EXACT_SCAN_BUDGET, MAX_INDEX_K, planVectorSearch } from './vector-search.js';

describe('planVectorSearch: cost follows the namespace, not the store', () => {
  it('scans a small namespace exactly, however large the store', () => {
    for (const total of [1_000, 100_000, 10_000_000]) expect(planVectorSearch({ namespaceChunks: 800, totalChunks: total }, 1, 10)).toEqual({ path: 'exact' });
  });

  it('asks the index for more candidates the smaller the namespace’s share', () => {
    const half = planVectorSearch({ namespaceChunks: 50_000, totalChunks: 100_000 }, 1, 50);
    const tenth = planVectorSearch({ namespaceChunks: 50_000, totalChunks: 500_000 }, 1, 50);
    expect(half).toEqual({ path: 'index', k: 200 });
    expect(tenth).toEqual({ path: 'index', k: 1_000 });
  });

  it('prefers the scan when many query vectors would each pay for a wide index search', () => {
    // 6,000 chunks are 0.06 % of the store: k hits the cap, and 100 searches of 4,000 cost more than one scan.
    expect(planVectorSearch({ namespaceChunks: 6_000, totalChunks: 10_000_000 }, 100, 5)).toEqual({ path: 'exact' });
    // One query vector: one index search is cheaper than reading 6,000 vectors.
    expect(planVectorSearch({ namespaceChunks: 6_000, totalChunks: 10_000_000 }, 1, 5)).toEqual({ path: 'index', k: MAX_INDEX_K });
  });

  it('takes the index for a batch in a large namespace (a scan of it per batch would take seconds)', () => {
    expect(planVectorSearch({ namespaceChunks: 10_000, totalChunks: 150_000 }, 100, 5)).toEqual({ path: 'index', k: 150 });
  });

  it('weighs the number of query vectors (semantic dedup of a whole batch)', () => {
    const chunks = Math.floor(EXACT_SCAN_BUDGET / 4);
    expect(planVectorSearch({ namespaceChunks: chunks, totalChunks: chunks }, 4, 10).path).toBe('exact');
    expect(planVectorSearch({ namespaceChunks: chunks, totalChunks: chunks }, 5, 10)).toEqual({ path: 'index', k: 50 });
  });

  it('never asks the index for more than MAX_INDEX_K', () => {
    const plan = planVectorSearch({ namespaceChunks: 1_000_000, totalChunks: 1_000_000_000 }, 1, 100);
    expect(plan).toEqual({ path: 'index', k: MAX_INDEX_K });
  });
});
