import { LlmError, LlmHttpError, LlmTimeoutError, type GenerateOptions, type LlmProvider } from './provider.js';

export interface NamedProvider {
  /** ollama, openai, anthropic, claude-code. */
  name: string;
  provider: LlmProvider;
}

/** How long a provider found unavailable is asked last: the chain's calls go to the next one meanwhile. */
const PROVIDER_REST_MS = 60_000;

/**
 * LLM_PROVIDER=ollama,openai: each provider in turn while the one before is unavailable (it could
 * not be reached, answered 5xx, or ran out of time), within the one deadline of the call. A
 * provider that answered — a refusal, a bad request, a wrong key, output that is not the JSON
 * asked for — is final: the next one is not asked to do better. `model` names the provider and
 * model that answered the last call (the job's usage and audit records read it after the call).
 *
 * A provider found unavailable rests for PROVIDER_REST_MS: calls meanwhile ask it last. Without
 * the rest, a first provider that hangs would take every call's whole deadline and the next one
 * would never be asked; with it, one call pays the wait and the job's retry goes to the next.
 */
export class FallbackProvider implements LlmProvider {
  private answered: NamedProvider;
  private readonly restingUntil = new Map<NamedProvider, number>();

  constructor(private readonly chain: readonly NamedProvider[]) {
    if (chain.length === 0) throw new Error('FallbackProvider needs at least one provider');
    this.answered = chain[0]!;
  }

  get model(): string {
    return label(this.answered);
  }

  async generate(prompt: string, options: GenerateOptions): Promise<string> {
    const deadline = Date.now() + options.timeoutMs;
    let last: unknown;
    for (const entry of this.inTurn()) {
      const timeoutMs = deadline - Date.now();
      if (timeoutMs <= 0) break;
      try {
        const text = await entry.provider.generate(prompt, { ...options, timeoutMs });
        this.answeredBy(entry);
        return text;
      } catch (error) {
        if (!unavailable(error)) {
          this.answeredBy(entry);
          throw error;
        }
        this.restingUntil.set(entry, Date.now() + PROVIDER_REST_MS);
        last = error;
      }
    }
    if (last instanceof LlmError) throw last;
    throw new LlmTimeoutError(options.timeoutMs, this.chain.map(label).join(', '));
  }

  /** A provider that answered (with a result or a refusal) is the one recorded, and rests no more. */
  private answeredBy(entry: NamedProvider): void {
    this.answered = entry;
    this.restingUntil.delete(entry);
  }

  /** The chain in its order, the providers resting after an unavailability last (in their order). */
  private inTurn(): NamedProvider[] {
    const now = Date.now();
    const resting = (entry: NamedProvider) => (this.restingUntil.get(entry) ?? 0) > now;
    return [...this.chain.filter((entry) => !resting(entry)), ...this.chain.filter(resting)];
  }

  /** Whether some provider of the chain could answer now. */
  async available(): Promise<boolean> {
    const answers = await Promise.all(this.chain.map((entry) => entry.provider.available().catch(() => false)));
    return answers.some(Boolean);
  }

  /** The providers of the chain, in order (health reports each one: provider-report.ts). */
  members(): LlmProvider[] {
    return this.chain.map((entry) => entry.provider);
  }
}

const label = (entry: NamedProvider) => (entry.name === 'ollama' ? entry.provider.model : `${entry.name}:${entry.provider.model}`);

/** Unreachable, 5xx or out of time: the next provider may answer. Everything else is an answer. */
function unavailable(error: unknown): boolean {
  if (error instanceof LlmTimeoutError) return true;
  if (error instanceof LlmHttpError) return error.status >= 500;
  return error instanceof LlmError && error.retriable && !(error instanceof LlmHttpError);
}
