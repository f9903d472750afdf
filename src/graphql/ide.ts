import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type Router } from 'express';

/** Where the IDE's scripts and styles are served from; the page itself is GET /graphql. */
export const IDE_ASSETS_PATH = '/ide/assets';
const ASSET_MAX_AGE_MS = 60 * 60 * 1000;

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Files served as they are installed: GraphiQL 3's UMD bundle and React 18's UMD builds. */
const ASSET_FILES = new Map<string, string>([
  ['react.production.min.js', join(packageDir('react'), 'umd', 'react.production.min.js')],
  ['react-dom.production.min.js', join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js')],
  ['graphiql.min.js', join(packageDir('graphiql'), 'graphiql.min.js')],
  ['graphiql.min.css', join(packageDir('graphiql'), 'graphiql.min.css')],
]);

const DEFAULT_QUERY = `# Mnemograph GraphQL IDE, served by this service: no internet needed.
# Run with Ctrl-Enter. The Docs panel (book icon) lists every query and mutation.
# With API_KEYS configured, put {"Authorization": "Bearer <key>"} in the Headers tab.
#
# mutation { remember(input: {content: "We chose Neo4j for the graph", namespace: "demo"}) { memory { id } } }
# query { recall(query: "which database?", namespace: "demo") { items { score memory { content } } } }

{
  health {
    ok
    neo4j { connected schemaVersion }
    embedding { loaded model }
  }
}
`;

const AUTH_HEADERS_TEMPLATE = `{
  "Authorization": "Bearer <your API key>"
}`;

function bootScript(options: { headersTemplate: boolean }): string {
  const props = {
    defaultQuery: DEFAULT_QUERY,
    ...(options.headersTemplate ? { defaultHeaders: AUTH_HEADERS_TEMPLATE } : {}),
    shouldPersistHeaders: false,
  };
  return `(function () {
  var props = ${JSON.stringify(props)};
  props.fetcher = GraphiQL.createFetcher({ url: new URL('/graphql', window.location.href).toString() });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, props));
})();
`;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Mnemograph · GraphiQL</title>
  <link rel="stylesheet" href="${IDE_ASSETS_PATH}/graphiql.min.css">
  <link rel="stylesheet" href="${IDE_ASSETS_PATH}/ide.css">
</head>
<body>
  <div id="graphiql">Loading the GraphQL IDE…</div>
  <script src="${IDE_ASSETS_PATH}/react.production.min.js"></script>
  <script src="${IDE_ASSETS_PATH}/react-dom.production.min.js"></script>
  <script src="${IDE_ASSETS_PATH}/graphiql.min.js"></script>
  <script src="${IDE_ASSETS_PATH}/boot.js"></script>
</body>
</html>
`;

const IDE_CSS = 'html, body { height: 100%; margin: 0; } #graphiql { height: 100vh; }\n';

/**
 * The browser may load nothing from elsewhere: scripts and styles only from this origin, the
 * fonts GraphiQL inlines as data: URLs, and GraphQL requests to this origin.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** A browser asking for a page, not a client asking for a GraphQL result. */
function wantsHtml(req: Request): boolean {
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

/**
 * GraphiQL, hosted entirely by the service: GET /graphql from a browser (and GET /) shows it;
 * its scripts come from node_modules. Introspection stays on so its docs and completion work.
 */
export function graphiqlRouter(options: { headersTemplate: boolean }): Router {
  const router = express.Router();
  const boot = bootScript(options);

  router.get('/', (_req, res) => res.redirect(302, '/graphql'));
  router.get('/graphql', (req, res, next) => {
    if (!wantsHtml(req) || req.query.query !== undefined) return next();
    res.set({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'Cache-Control': 'no-cache' }).type('html').send(PAGE);
  });
  router.get(`${IDE_ASSETS_PATH}/boot.js`, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/javascript').send(boot);
  });
  router.get(`${IDE_ASSETS_PATH}/ide.css`, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('text/css').send(IDE_CSS);
  });
  router.get(`${IDE_ASSETS_PATH}/:file`, (req, res, next) => {
    const file = ASSET_FILES.get(req.params.file);
    if (!file) return next();
    res.sendFile(file, { maxAge: ASSET_MAX_AGE_MS });
  });
  return router;
}
