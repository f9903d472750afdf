import type { ApolloServer } from '@apollo/server';
import type { Services } from '../../src/app.js';
import type { GraphQLContext } from '../../src/graphql/context.js';
import { createApollo, createContext } from '../../src/server.js';

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string } & Record<string, unknown> }>;
}

export type GraphQLClient = Awaited<ReturnType<typeof graphqlClient>>;

/** Executes operations through the real Apollo server (no HTTP), as a caller with `headers`. */
export async function graphqlClient(services: Services) {
  const apollo: ApolloServer<GraphQLContext> = createApollo(services);
  await apollo.start();
  return {
    async exec<T = Record<string, unknown>>(
      query: string,
      variables: Record<string, unknown> = {},
      headers: { authorization?: string } = {},
    ): Promise<GraphQLResponse<T>> {
      const response = await apollo.executeOperation<T>({ query, variables }, { contextValue: createContext(services, headers) });
      if (response.body.kind !== 'single') throw new Error('unexpected incremental response');
      return response.body.singleResult as GraphQLResponse<T>;
    },
    /** Data of a call that must succeed; fails the test with the errors otherwise. */
    async data<T = Record<string, any>>(
      query: string,
      variables: Record<string, unknown> = {},
      headers: { authorization?: string } = {},
    ): Promise<T> {
      const result = await this.exec<T>(query, variables, headers);
      if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
      return result.data as T;
    },
    stop: () => apollo.stop(),
  };
}
