import type { Services } from '../../src/app.js';
import { describe, expect, it } from '../support/fixture.js';

const REMEMBER = `mutation ($input: RememberInput!) { remember(input: $input) { memory { id } } }`;
const NODES_OF = `MATCH (n) WHERE n.namespace IN $namespaces RETURN count(n) AS nodes`;

const nodesOf = async (services: Services, namespaces: string[]) =>
  (await services.executor.read<{ nodes: number }>('test.fixture.nodes', NODES_OF, { namespaces }))[0]!.nodes;

describe('the integration fixture', () => {
  const first: { services?: Services; namespaces: string[] } = { namespaces: [] };

  it('gives the file one set of services and each test namespaces of its own', async ({ services, graphql, namespace, freshNamespace }) => {
    const other = freshNamespace('other');
    expect(other).not.toBe(namespace);
    for (const ns of [namespace, other])
      await graphql.data(REMEMBER, { input: { content: 'Ada Lovelace reviews the billing service on Mondays.', namespace: ns } });
    expect(await nodesOf(services, [namespace, other])).toBeGreaterThan(2);
    first.services = services;
    first.namespaces = [namespace, other];
  });

  it('erased them after the test, through the production erase', async ({ services, namespace }) => {
    expect(services).toBe(first.services);
    expect(first.namespaces).not.toContain(namespace);
    expect(await nodesOf(services, first.namespaces)).toBe(0);
  });
});
