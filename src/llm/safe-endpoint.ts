/**
 * A server's URL as health may show it: scheme, host, port and path only. User info (a key in
 * `https://user:key@host`), the query (`?api-key=`) and the fragment are dropped; text that is
 * not a URL is not shown at all.
 */
export function safeEndpoint(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return null;
  }
}
