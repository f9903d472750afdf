import { afterEach as vitestAfterEach, beforeEach as vitestBeforeEach, test as base, type TestAPI } from 'vitest';
import { closeServices, type AppOptions, type Services } from '../../src/app.js';
import { graphqlClient, type GraphQLClient } from './graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from './services.js';

/**
 * The integration tier's one fixture (vitest `test.extend`):
 * - `services`: built once per test file against the test Neo4j (model loaded), closed after the file;
 * - `graphql`: the GraphQL client over those services (the real Apollo server, no HTTP), once per file;
 * - `namespace`: a namespace of the test's own, erased after the test through the production erase
 *   (`deleteNamespace`, what the GraphQL mutation runs);
 * - `freshNamespace(prefix)`: more of them, each erased after the test the same way.
 *
 *   import { describe, expect, it } from '../support/fixture.js';
 *   it('…', async ({ graphql, namespace }) => { … });
 *
 * A file whose services need other settings makes its own: `const it = integrationTest({ env: { … } })`,
 * one per file (file-scoped values are kept per file by name, so a second one would get the first's
 * services). A helper written once for a describe block reaches the fixtures through
 * `beforeEach(({ services }) => …)`: `beforeAll` runs outside any test and sees none, so a file that
 * seeds shared data in `beforeAll` keeps building its own services.
 */
export interface IntegrationFixtures {
  services: Services;
  graphql: GraphQLClient;
  namespace: string;
  freshNamespace: (prefix?: string) => string;
}

export interface IntegrationOptions {
  /** Config overrides as environment variables (see testServices). */
  env?: Record<string, string>;
  /** Composition overrides (an executor wrapper, remember hooks, …). */
  app?: Partial<AppOptions>;
  /**
   * Namespaces the file's tests share, named before any test runs (a DEFAULT_NAMESPACE, an API
   * key's namespaces): erased the same way when the file's services close.
   */
  sharedNamespaces?: string[];
}

export function integrationTest(options: IntegrationOptions = {}): TestAPI<IntegrationFixtures> {
  return base.extend<IntegrationFixtures>({
    services: [
      // vitest reads a fixture's dependencies from its first parameter: this one has none.
      async ({}, use) => {
        const services = testServices(options.env, options.app);
        await services.embedder.load();
        try {
          await use(services);
          for (const namespace of options.sharedNamespaces ?? []) await cleanNamespace(services, namespace);
        } finally {
          await closeServices(services);
        }
      },
      { scope: 'file' },
    ],
    graphql: [
      async ({ services }, use) => {
        const client = await graphqlClient(services);
        try {
          await use(client);
        } finally {
          await client.stop();
        }
      },
      { scope: 'file' },
    ],
    freshNamespace: async ({ services }, use) => {
      const made: string[] = [];
      await use((prefix = 't') => {
        const namespace = uniqueNamespace(prefix);
        made.push(namespace);
        return namespace;
      });
      for (const namespace of made) await cleanNamespace(services, namespace);
    },
    namespace: async ({ freshNamespace }, use) => {
      await use(freshNamespace());
    },
  });
}

/** The fixture with the default test settings. */
export const test = integrationTest();
export const it = test;
/** Hooks that see the fixtures (typed for them). */
export const beforeEach = vitestBeforeEach<IntegrationFixtures>;
export const afterEach = vitestAfterEach<IntegrationFixtures>;
export { afterAll, beforeAll, describe, expect } from 'vitest';
