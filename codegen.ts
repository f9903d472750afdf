import type { CodegenConfig } from '@graphql-codegen/cli';

// Resolver and model types are generated from schema.graphql; never edit the output by hand.
const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    'src/graphql/generated/types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useIndexSignature: false,
        contextType: '../context.js#GraphQLContext',
        mappers: {
          Memory: '../../db/records.js#MemoryRecord',
          Chunk: '../../db/records.js#ChunkRecord',
          Entity: '../../db/records.js#EntityRecord',
          Aspect: '../../db/records.js#AspectRecord',
          Attribute: '../../db/records.js#AttributeRecord',
          Relation: '../../db/records.js#RelationView',
          Job: '../../db/records.js#JobRecord',
          HistoryEvent: '../../db/records.js#HistoryRecord',
          RememberPayload: '../../write/remember-service.js#RememberResult',
        },
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
        avoidOptionals: false,
        maybeValue: 'T | null',
        inputMaybeValue: 'T | null | undefined',
      },
    },
  },
};

export default config;
