import type { RequestHandler } from 'express';
import { ForbiddenError } from '../errors.js';

/** Names a browser on this machine uses for loopback; anything else may be a rebound DNS name. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header (port dropped, lower case), or undefined when it is not one. */
export function hostNameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const url = new URL(`http://${header}`);
    return url.username || url.password || url.pathname !== '/' || url.search ? undefined : url.hostname;
  } catch {
    return undefined;
  }
}

/**
 * Open mode (no API keys) trusts whoever reaches the port, so it only answers requests whose
 * Host is a loopback name or one configured in ALLOWED_HOSTS: a web page whose DNS name was
 * rebound to 127.0.0.1 still sends its own name and is refused (DNS rebinding).
 */
export function hostCheck(extraNames: readonly string[]): RequestHandler {
  const allowed = new Set([...LOOPBACK_HOST_NAMES, ...extraNames.map((name) => name.toLowerCase())]);
  return (req, _res, next) => {
    const name = hostNameOf(req.headers.host);
    if (name !== undefined && allowed.has(name)) return next();
    next(
      new ForbiddenError('the Host header names no allowed host: without API_KEYS only loopback names and ALLOWED_HOSTS are served', {
        allowedHosts: [...allowed],
      }),
    );
  };
}
