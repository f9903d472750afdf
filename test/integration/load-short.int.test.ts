import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { runLoad, verifyAcks, type LoadResult } from '../support/load-driver.js';
import { cleanNamespace } from '../support/services.js';

const DELIBERATE = new Set(['TIMEOUT', 'UNAVAILABLE']);

/** The short form of `npm run bench:load`: the same driver and check, a few seconds, a few clients. */
describe('mixed load over HTTP (short)', () => {
  let http: TestHttpServer;
  let result: LoadResult | undefined;

  beforeAll(async () => {
    http = await startTestHttpServer({ LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    for (const namespace of result?.namespaces ?? []) await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it('4 clients for 8 s: every acknowledged write is stored exactly once, no 5xx, reads served while writes run', async () => {
    result = await runLoad({
      url: http.server.url,
      clients: 4,
      seconds: 8,
      runId: `ls-${randomUUID().slice(0, 8)}`,
      rotate: true,
      batchSize: 4,
      longItemShare: 0.2,
      longItemChars: [5_000, 12_000],
    });

    expect(result.serverErrors).toBe(0);
    // Only the deliberate answers of an overloaded machine may appear (a query past its timeout).
    expect(Object.keys(result.errorsByCode).filter((code) => !DELIBERATE.has(code))).toEqual([]);
    // The clients start on different operations: writes and reads run side by side.
    for (const op of ['remember', 'rememberBatch', 'recall', 'search'] as const)
      expect(result.byOp[op].ok, `${op} succeeded`).toBeGreaterThan(0);
    expect(result.acks.length).toBeGreaterThan(0);

    const verification = await verifyAcks(http.services.executor, result);
    expect(verification.lost).toEqual([]);
    expect(verification.duplicated).toEqual([]);
    expect(verification.withoutChunks).toBe(0);
    // A memory nobody saw acknowledged can only come from a write that failed.
    const failedWrites = result.byOp.remember.failed + result.byOp.rememberBatch.failed * 4;
    expect(verification.unacknowledgedStored).toBeLessThanOrEqual(failedWrites);
  }, 180_000);
});
