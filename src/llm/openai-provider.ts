import OpenAI from 'openai';
import { AVAILABILITY_TIMEOUT_MS } from './ollama-provider.js';
import { hostedCall } from './hosted-call.js';
import { LlmError, type GenerateOptions, type LlmProvider, type ProviderIdentity } from './provider.js';
import { safeEndpoint, urlCredentials } from './safe-endpoint.js';
import { recordUsage } from './usage.js';

export interface OpenAiProviderOptions {
  /** OPENAI_BASE_URL: any OpenAI-compatible server (vLLM, llama.cpp, LM Studio) or OpenAI's own. */
  baseUrl?: string | null;
  /** OPENAI_API_KEY; a local server that checks none takes any value. */
  apiKey?: string | null;
  model: string;
  /** Tests only: the wait before a retry. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A JSON Schema's name in `response_format` (OpenAI: letters, digits, _ and -). */
const SCHEMA_NAME = 'answer';
const JSON_INSTRUCTION = 'Answer with one JSON object and nothing else.';

/**
 * LlmProvider over the official `openai` client: one chat completion per call, the job's JSON
 * Schema as `response_format: {type: "json_schema", strict: true}`. A server that refuses
 * json_schema (a 400 naming response_format) is asked again with `json_object` and the schema
 * in the instructions, and from then on always so; the deep path validates the answer either way.
 * Retries, the deadline and error reports: hosted-call.ts.
 */
export class OpenAiProvider implements LlmProvider {
  readonly model: string;
  private readonly client: OpenAI;
  /** Taken out of every error message: the key, and a key in the base URL's user info. */
  private readonly secrets: readonly string[];
  private jsonSchema = true;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.model = options.model;
    const apiKey = options.apiKey || 'not-needed';
    // The SDK's console logger (OPENAI_LOG) is off: failures are reported by this provider's errors, redacted.
    this.client = new OpenAI({ apiKey, baseURL: options.baseUrl || undefined, maxRetries: 0, logLevel: 'off' });
    this.secrets = [apiKey, ...urlCredentials(this.client.baseURL)];
  }

  async generate(prompt: string, options: GenerateOptions): Promise<string> {
    const call = { model: `openai ${this.model}`, timeoutMs: options.timeoutMs, secrets: this.secrets, sleep: this.options.sleep };
    return hostedCall(call, async (signal) => {
      const started = Date.now();
      const completion = await this.complete(prompt, options.format, signal);
      const choice = completion.choices[0];
      const text = choice?.message?.content;
      if (typeof text !== 'string') {
        const refusal = choice?.message?.refusal;
        throw new LlmError(`LLM server sent no answer (model ${this.model})${refusal ? ': the model refused' : ''}`, { retriable: false });
      }
      recordUsage({
        promptTokens: completion.usage?.prompt_tokens ?? 0,
        evalTokens: completion.usage?.completion_tokens ?? 0,
        totalDurationMs: Date.now() - started,
        loadDurationMs: 0,
        promptDurationMs: 0,
        evalDurationMs: 0,
      });
      return text;
    });
  }

  private async complete(prompt: string, format: GenerateOptions['format'], signal: AbortSignal) {
    const messages = (instruction: string | null) => [
      ...(instruction ? [{ role: 'system' as const, content: instruction }] : []),
      { role: 'user' as const, content: prompt },
    ];
    if (format === undefined) return this.client.chat.completions.create({ model: this.model, messages: messages(null) }, { signal });
    if (typeof format === 'object' && this.jsonSchema) {
      try {
        return await this.client.chat.completions.create(
          {
            model: this.model,
            messages: messages(null),
            response_format: { type: 'json_schema', json_schema: { name: SCHEMA_NAME, schema: format, strict: true } },
          },
          { signal },
        );
      } catch (error) {
        if (!refusesJsonSchema(error)) throw error;
        this.jsonSchema = false;
      }
    }
    const instruction =
      typeof format === 'object' ? `${JSON_INSTRUCTION} It must match this JSON Schema: ${JSON.stringify(format)}` : JSON_INSTRUCTION;
    return this.client.chat.completions.create(
      { model: this.model, messages: messages(instruction), response_format: { type: 'json_object' } },
      { signal },
    );
  }

  identity(): ProviderIdentity {
    return { provider: 'openai', endpoint: safeEndpoint(this.client.baseURL), keyConfigured: Boolean(this.options.apiKey) };
  }

  async available(): Promise<boolean> {
    try {
      const listed = await this.client.models.list({ signal: AbortSignal.timeout(AVAILABILITY_TIMEOUT_MS) });
      return listed.data.some((m) => m.id === this.model);
    } catch {
      return false;
    }
  }
}

/** A 400 about response_format: a server that knows only json_object (or a schema strict mode cannot take). */
function refusesJsonSchema(error: unknown): boolean {
  const { status, message, param } = error as { status?: unknown; message?: unknown; param?: unknown };
  return status === 400 && (param === 'response_format' || (typeof message === 'string' && /response_format|json_schema/i.test(message)));
}
