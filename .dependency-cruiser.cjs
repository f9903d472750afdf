/**
 * The house rules, checked in `npm test` (`npm run check:deps`):
 * - arrows run down: a layer imports only layers below it (LAYERS, top first);
 * - another folder is used through its index.ts, never its files (and the index exports only what
 *   production code in other folders imports: test/structure/faces.test.ts);
 * - no import cycles between files;
 * - Cypher's one home is src/db/ (test/structure.test.ts);
 * - the transports (graphql/, mcp/, http/) stand side by side on one floor: none imports another,
 *   and each reaches the rest of the house only through the shared edge, src/api/, and the server
 *   shell, src/request/ (plus the leaves errors.ts and logger.ts).
 * Test files (*.test.ts) may reach into any folder; the cycle rule holds for them too.
 */

// The transports: one floor, side by side.
const TRANSPORTS = ['graphql', 'mcp', 'http'];
// All a transport may import besides its own folder.
const TRANSPORT_REACH = ['api', 'request'];

// db/'s sub-faces, split by what callers need: the job queue (worker/), the search legs (recall/),
// the retention purge steps (upkeep/). Other folders import these index files or src/db/index.ts.
const DB_FACES = ['jobs', 'search', 'retention'];

// Each entry is one layer, top first; the entries of one layer may not import each other.
const LAYERS = [
  ['main.ts', 'cli'],
  ['server.ts'],
  TRANSPORTS,
  ['api'],
  ['health.ts', 'http-errors.ts'],
  ['request'],
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
      comment: "Another folder is used through its index.ts (db/ also through its sub-faces, DB_FACES): export what others may use there.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: NOT_TEST },
      to: { path: '^src/[^/]+/.+', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', `^src/db/(${DB_FACES.join('|')})/index\\.ts$`] },
    },
    {
      name: 'transports-side-by-side',
      comment: 'A transport never imports another: what two of them share moves down into src/api/ or src/request/.',
      severity: 'error',
      from: { path: `^src/(${TRANSPORTS.join('|')})/`, pathNot: NOT_TEST },
      to: { path: `^src/(${TRANSPORTS.join('|')})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'transports-through-api',
      comment:
        'A transport reaches the services, the composition root and the database only through src/api/ (operations, records, vocabularies, Principal and Services), and the request plumbing through src/request/; errors.ts and logger.ts are leaves.',
      severity: 'error',
      from: { path: `^src/(${TRANSPORTS.join('|')})/`, pathNot: NOT_TEST },
      to: { path: '^src/', pathNot: ['^src/$1/', `^src/(${TRANSPORT_REACH.join('|')})/`, '^src/(errors|logger)\\.ts$'] },
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
