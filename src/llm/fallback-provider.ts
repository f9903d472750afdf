import { LlmError, LlmHttpError, LlmTimeoutError, type GenerateOptions, type LlmProvider } from './provider.js';

export interface NamedProvider {
  /** ollama, openai, anthropic, claude-code. */
  name: string;
  provider: LlmProvider;
}

/**
 * LLM_PROVIDER=ollama,openai: each provider in turn while the one before is unavailable (it could
 * not be reached, answered 5xx, or ran out of time), within the one deadline of the call. A
 * provider that answered — a refusal, a bad request, a wrong key, output that is not the JSON
 * asked for — is final: the next one is not asked to do better. `model` names the provider and
 * model that answered the last call (the job's usage and audit records read it after the call).
 */
export class FallbackProvider implements LlmProvider {
  private answered: NamedProvider;

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
    for (const entry of this.chain) {
      const timeoutMs = deadline - Date.now();
      if (timeoutMs <= 0) break;
      try {
        const text = await entry.provider.generate(prompt, { ...options, timeoutMs });
        this.answered = entry;
        return text;
      } catch (error) {
        if (!unavailable(error)) {
          this.answered = entry;
          throw error;
        }
        last = error;
      }
    }
    if (last instanceof LlmError) throw last;
    throw new LlmTimeoutError(options.timeoutMs, this.chain.map(label).join(', '));
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
