import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyConfig } from './config/index.js';
import { ForbiddenError, UnauthenticatedError } from './errors.js';

/** Who is calling and which namespaces they may read and write. */
export class Principal {
  constructor(
    readonly name: string,
    private readonly namespaces: readonly string[] | '*',
    readonly readOnly: boolean,
  ) {}

  /** Namespaces this principal may read, or null for all of them. */
  get readableNamespaces(): readonly string[] | null {
    return this.namespaces === '*' ? null : this.namespaces;
  }

  canRead(namespace: string): boolean {
    return this.namespaces === '*' || this.namespaces.includes(namespace);
  }

  assertRead(namespace: string): void {
    if (!this.canRead(namespace)) throw new ForbiddenError(`this API key may not read namespace "${namespace}"`, { namespace });
  }

  assertWrite(namespace: string): void {
    this.assertRead(namespace);
    if (this.readOnly) throw new ForbiddenError(`this API key is read-only`, { namespace });
  }
}

/**
 * API keys from configuration. With none configured every caller is trusted (the server then
 * binds to loopback only); with keys, every request must present one.
 */
export class AccessPolicy {
  constructor(private readonly keys: readonly ApiKeyConfig[]) {}

  get open(): boolean {
    return this.keys.length === 0;
  }

  authenticate(authorization: string | undefined, apiKeyHeader?: string): Principal {
    if (this.open) return new Principal('local', '*', false);
    const presented = apiKeyHeader ?? /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (!presented) throw new UnauthenticatedError();
    const match = this.keys.find((k) => constantTimeEquals(k.key, presented));
    if (!match) throw new UnauthenticatedError('the API key is not recognised');
    return new Principal(match.name, match.namespaces.includes('*') ? '*' : match.namespaces, match.readOnly);
  }
}

function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
