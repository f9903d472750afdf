import Anthropic from '@anthropic-ai/sdk';
import { AVAILABILITY_TIMEOUT_MS } from './ollama-provider.js';
import { hostedCall } from './hosted-call.js';
import { LlmError, type GenerateOptions, type LlmProvider, type ProviderIdentity } from './provider.js';
import { safeEndpoint, urlCredentials } from './safe-endpoint.js';
import { recordUsage } from './usage.js';

export interface AnthropicProviderOptions {
  /** ANTHROPIC_API_KEY. */
  apiKey?: string | null;
  /** ANTHROPIC_BASE_URL; Anthropic's own API when absent. */
  baseUrl?: string | null;
  model: string;
  /** The longest answer asked for (the Messages API needs one). */
  maxTokens?: number;
  /** Tests only: the wait before a retry. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const TOOL = 'answer';
const DEFAULT_MAX_TOKENS = 4096;

/**
 * LlmProvider over the official `@anthropic-ai/sdk` client: one message per call. A JSON Schema
 * is asked for by a forced tool call (`tool_choice: {type: "tool"}`) whose input_schema is the
 * schema; the tool's input comes back as the JSON text the deep path parses and validates.
 * Plain `json` is asked for in the instructions. Retries, the deadline and errors: hosted-call.ts.
 */
export class AnthropicProvider implements LlmProvider {
  readonly model: string;
  private readonly client: Anthropic;
  /** Taken out of every error message: the key, and a key in the base URL's user info. */
  private readonly secrets: readonly string[];

  constructor(private readonly options: AnthropicProviderOptions) {
    this.model = options.model;
    const apiKey = options.apiKey ?? '';
    // The SDK's console logger (ANTHROPIC_LOG) is off: at debug it prints answer bodies (a key echoed
    // in a 401) and request URLs with their user info. Failures are reported by this provider's errors.
    this.client = new Anthropic({ apiKey, baseURL: options.baseUrl || undefined, maxRetries: 0, logLevel: 'off' });
    this.secrets = [apiKey, ...urlCredentials(this.client.baseURL)];
  }

  async generate(prompt: string, options: GenerateOptions): Promise<string> {
    const call = { model: `anthropic ${this.model}`, timeoutMs: options.timeoutMs, secrets: this.secrets, sleep: this.options.sleep };
    const schema = typeof options.format === 'object' ? options.format : null;
    return hostedCall(call, async (signal) => {
      const started = Date.now();
      const message = await this.client.messages.create(
        {
          model: this.model,
          max_tokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
          messages: [{ role: 'user', content: prompt }],
          ...(schema
            ? {
                tools: [{ name: TOOL, description: 'Give the answer.', input_schema: schema as Anthropic.Tool.InputSchema }],
                tool_choice: { type: 'tool' as const, name: TOOL },
              }
            : options.format === 'json'
              ? { system: 'Answer with one JSON object and nothing else.' }
              : {}),
        },
        { signal },
      );
      recordUsage({
        promptTokens: message.usage?.input_tokens ?? 0,
        evalTokens: message.usage?.output_tokens ?? 0,
        totalDurationMs: Date.now() - started,
        loadDurationMs: 0,
        promptDurationMs: 0,
        evalDurationMs: 0,
      });
      if (message.stop_reason === 'refusal') throw new LlmError(`the model refused to answer (model ${this.model})`, { retriable: false });
      const tool = message.content.find((block) => block.type === 'tool_use');
      if (tool) return JSON.stringify(tool.input);
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    });
  }

  identity(): ProviderIdentity {
    return { provider: 'anthropic', endpoint: safeEndpoint(this.client.baseURL), keyConfigured: Boolean(this.options.apiKey) };
  }

  async available(): Promise<boolean> {
    try {
      const listed = await this.client.models.list({}, { signal: AbortSignal.timeout(AVAILABILITY_TIMEOUT_MS) });
      return listed.data.some((m) => m.id === this.model);
    } catch {
      return false;
    }
  }
}
