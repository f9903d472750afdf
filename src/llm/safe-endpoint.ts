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

/**
 * What a server URL carries in its user info (`https://user:key@host`, `https://key@host`), to be
 * taken out of every message: Node's fetch refuses such a URL with an error that quotes it whole.
 * The user info as a URL shows it first, then the password (or a user name standing alone, most
 * likely a key), each as written and decoded.
 */
export function urlCredentials(url: string | null | undefined): string[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const { username, password } = parsed;
  if (!username && !password) return [];
  const parts = [password ? `${username}:${password}` : username, password || username];
  return [...new Set(parts.flatMap((part) => [part, decoded(part)]))].filter(Boolean);
}

/** The text with each secret replaced by `[REDACTED]` (the first ones listed first). */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((t, secret) => (secret ? t.replaceAll(secret, '[REDACTED]') : t), text);
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
