import { FallbackProvider } from './fallback-provider.js';
import type { LlmProvider } from './provider.js';

/** One configured provider as health shows it: what it is, where, and whether it answers now. Never a key. */
export interface LlmProviderHealth {
  /** ollama, openai, anthropic, claude-code (or the provider's model when it cannot say). */
  name: string;
  model: string;
  /** The server's URL without credentials or query, or the executable run. */
  endpoint: string | null;
  /** Whether a key was configured; null for a provider that takes none. */
  keyConfigured: boolean | null;
  available: boolean;
}

export interface LlmHealth {
  /** In the order they are asked (LLM_PROVIDER); one unless a fallback chain is configured. */
  providers: LlmProviderHealth[];
  /** Whether some provider answers now. */
  available: boolean;
  checkedAt: string;
}

/** How long a report is reused: readiness probes every few seconds must not each call a hosted API. */
export const LLM_HEALTH_TTL_MS = 30 * 1000;

/** Each provider of the chain (or the one provider): identity and reachability, asked at once. */
export async function providerReport(provider: LlmProvider): Promise<LlmHealth> {
  const members = provider instanceof FallbackProvider ? provider.members() : [provider];
  const providers = await Promise.all(
    members.map(async (member): Promise<LlmProviderHealth> => {
      const identity = member.identity?.();
      return {
        name: identity?.provider ?? member.model,
        model: member.model,
        endpoint: identity?.endpoint ?? null,
        keyConfigured: identity?.keyConfigured ?? null,
        available: await member.available().catch(() => false),
      };
    }),
  );
  return { providers, available: providers.some((p) => p.available), checkedAt: new Date().toISOString() };
}

/**
 * providerReport, asked at most once per `ttlMs`. Only the first call waits for the check (each
 * provider's own availability timeout bounds it); after that the last report is answered at once
 * while a stale one is refreshed behind it, so a readiness probe never waits on a model server.
 */
export function cachedProviderReport(provider: LlmProvider, ttlMs = LLM_HEALTH_TTL_MS): () => Promise<LlmHealth> {
  let last: LlmHealth | null = null;
  let askedAt = 0;
  let pending: Promise<LlmHealth> | null = null;
  const refresh = () => {
    askedAt = Date.now();
    pending ??= providerReport(provider).then((report) => {
      last = report;
      pending = null;
      return report;
    });
    return pending;
  };
  return async () => {
    if (last === null) return pending ?? refresh();
    if (Date.now() - askedAt >= ttlMs) void refresh();
    return last;
  };
}
