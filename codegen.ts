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
        // The records src/api answers with: resolvers map their fields, never cast them.
        mappers: {
          Memory: '../../api/index.js#MemoryRecord',
          Chunk: '../../api/index.js#ChunkRecord',
          Entity: '../../api/index.js#EntityRecord',
          Aspect: '../../api/index.js#AspectRecord',
          Attribute: '../../api/index.js#AttributeRecord',
          Relation: '../../api/index.js#RelationView',
          Job: '../../api/index.js#JobRecord',
          HistoryEvent: '../../api/index.js#HistoryRecord',
          RememberPayload: '../../api/index.js#RememberAnswer',
          Session: '../../api/index.js#SessionRecord',
          Checkpoint: '../../api/index.js#CheckpointRecord',
          Document: '../../api/index.js#DocumentRecord',
          Transcript: '../../api/index.js#TranscriptRecord',
          PipelineStatus: '../../api/index.js#PipelineStatusView',
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
