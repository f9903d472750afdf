import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// Node loads graphql's CommonJS build (what Apollo uses); Vite would pick its ESM build for our
// sources, making two graphql copies whose classes fail each other's instanceof checks.
const resolve = { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] };

// Three tiers: fast unit tests beside the code, integration tests against a real Neo4j that
// test/support/global-setup.ts starts on its own ports and data folder, and system tests
// (test/system) that run whole processes against Neo4j servers of their own.
export default defineConfig({
  test: {
    // Integration tests isolate themselves by namespace, so files may share the one database;
    // two workers keep the 2-core machine busy without starving Neo4j.
    maxWorkers: 2,
    // Background effects (access tracking, log lines, aborted requests) can lag on a busy CI machine.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/structure/**/*.test.ts', 'test/bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve,
        // Long runs of whole processes (npm start, real Neo4j starts) on their own homes and ports.
        test: {
          name: 'system',
          include: ['test/system/**/*.sys.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
