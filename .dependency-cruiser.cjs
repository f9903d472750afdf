/**
 * The house rules, checked in `npm test` (`npm run check:deps`):
 * - arrows run down: a layer imports only layers below it (LAYERS, top first);
 * - another folder is used through its index.ts, never its files;
 * - no import cycles between files;
 * - Cypher's one home is src/db/ (test/structure.test.ts), and the edges (graphql/, mcp/) reach
 *   the services and the database only through the shared edge, src/api/.
 * Test files (*.test.ts) may reach into any folder; the cycle rule holds for them too.
 */

// Each entry is one layer, top first; the entries of one layer may not import each other.
const LAYERS = [
  ['main.ts', 'cli'],
  ['server.ts'],
  ['mcp'],
  ['http'],
  ['graphql'],
  ['api'],
  ['health.ts', 'http-errors.ts'],
  ['app.ts'],
  ['worker'],
  ['sessions'],
  ['upkeep'],
  ['knowledge'],
  ['deep'],
  ['documents'],
  ['write'],
  ['recall'],
  ['linker'],
  ['observability'],
  ['llm'],
  ['embedding'],
  ['auth.ts'],
  ['db'],
  ['consistency'],
  ['config'],
  ['redaction'],
  ['text'],
  ['errors.ts', 'logger.ts'],
];

// What src/api/ stands in front of for the transports (graphql/, mcp/).
const SERVICE_FOLDERS = ['db', 'write', 'recall', 'sessions', 'upkeep', 'knowledge', 'deep', 'documents', 'worker', 'linker', 'llm', 'embedding'];

const pathOf = (name) => (name.endsWith('.ts') ? `^src/${name.replace('.', '\\.')}$` : `^src/${name}/`);
const NOT_TEST = '\\.test\\.ts$';

const layerRules = LAYERS.map((layer, i) => {
  const sameLayerOthers = (name) => layer.filter((other) => other !== name);
  return layer.map((name) => ({
    name: `layers: ${name} imports only what lies below it`,
    severity: 'error',
    from: { path: pathOf(name), pathNot: NOT_TEST },
    to: { path: [...LAYERS.slice(0, i).flat(), ...sameLayerOthers(name)].map(pathOf).filter(Boolean) },
  }));
}).flat().filter((rule) => rule.to.path.length > 0);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Two files that import each other (directly or around a loop): move the shared piece down into the lower one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'through-index',
      comment: "Another folder is used through its index.ts: export what others may use there.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: NOT_TEST },
      to: { path: '^src/[^/]+/.+', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'edges-through-api',
      comment:
        'GraphQL resolvers and MCP tools reach the services and the database through src/api/ (its operations, records and vocabularies), never directly.',
      severity: 'error',
      from: { path: '^src/(graphql|mcp)/', pathNot: NOT_TEST },
      to: { path: `^src/(${SERVICE_FOLDERS.join('|')})/` },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/generated/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
