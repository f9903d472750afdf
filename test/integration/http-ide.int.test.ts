import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';

// Hosts of public CDNs a GraphQL IDE typically loads from.
const CDN_HOSTS =
  /(unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|esm\.sh|fonts\.googleapis\.com|fonts\.gstatic\.com|embeddable-sandbox|apollographql\.com)/;

function externalUrls(text: string, origin: string): string[] {
  const urls = text.match(/https?:\/\/[^\s"'`)<>]+/g) ?? [];
  return urls.filter((u) => !u.startsWith(origin) && !/^https?:\/\/127\.0\.0\.1[:/]/.test(u));
}

describe('the locally hosted GraphQL IDE', () => {
  let http: TestHttpServer;
  let html: string;
  let page: Response;

  beforeAll(async () => {
    http = await startTestHttpServer();
    page = await fetch(`${http.origin}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    html = await page.text();
  });
  afterAll(async () => {
    await http?.close();
  });

  it('serves GraphiQL at GET /graphql to a browser, with no URL outside this service', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('<div id="graphiql">');
    expect(externalUrls(html, http.origin)).toEqual([]);
    // The browser itself is told to load nothing from elsewhere.
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*script-src 'self'.*connect-src 'self'/);
  });

  it('serves every script and stylesheet the page references from node_modules, none from a CDN', async () => {
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(references.length).toBe(6);
    for (const reference of references) {
      expect(reference, 'a same-origin path').toMatch(/^\/ide\/assets\/[\w.-]+$/);
      const asset = await fetch(`${http.origin}${reference}`);
      expect(asset.status, reference).toBe(200);
      const text = await asset.text();
      expect(text.length, reference).toBeGreaterThan(0);
      expect(text, reference).not.toMatch(CDN_HOSTS);
      if (reference.endsWith('.css')) {
        // Stylesheets may only pull data: URLs (GraphiQL inlines its fonts).
        expect(text.match(/url\((?!["']?data:)[^)]*\)|@import/g) ?? [], reference).toEqual([]);
      }
      if (reference.endsWith('boot.js')) expect(externalUrls(text, http.origin)).toEqual([]);
    }
  });

  it('redirects / to the IDE and keeps GraphQL over GET and POST working at the same URL', async () => {
    const root = await fetch(`${http.origin}/`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/graphql');

    const get = await fetch(`${http.origin}/graphql?query=${encodeURIComponent('{ health { ok } }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(await get.json()).toMatchObject({ data: { health: { ok: true } } });

    const post = await http.post({ query: '{ __schema { queryType { name } mutationType { name } } }' });
    expect(post.body.data.__schema).toEqual({ queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } });
  });
});
