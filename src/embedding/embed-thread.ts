import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { MnemographError } from '../errors.js';
import type { EmbedRequest, WorkerMessage, WorkerSettings } from './worker-protocol.js';

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/**
 * The worker entry beside this module: `.js` once compiled; from source (tsx, vitest) the `.ts`
 * file, loaded through tsx by a one-line bootstrap, since Node 20 applies no `--import` loader
 * to a worker's entry.
 */
function workerEntry(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./embed-worker.js', import.meta.url);
  const entry = new URL('./embed-worker.ts', import.meta.url).href;
  const tsxApi = pathToFileURL(tsxEsmApiPath()).href;
  const bootstrap = `import { tsImport } from ${JSON.stringify(tsxApi)}; await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/** tsx's ESM API file, read from its package exports (its CommonJS build cannot be imported from ESM). */
function tsxEsmApiPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = JSON.parse(fs.readFileSync(packageJson, 'utf8')).exports as Record<string, { import?: { default?: string } }>;
  const file = exports['./esm/api']?.import?.default;
  if (!file) throw new Error('tsx has no ./esm/api export; is tsx installed?');
  return path.join(path.dirname(packageJson), file);
}

/** One worker thread holding the model; requests are answered in order. */
export class EmbedThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  readonly ready: Promise<number>;

  constructor(settings: WorkerSettings) {
    this.worker = new Worker(workerEntry(), { workerData: settings });
    this.ready = new Promise<number>((resolve, reject) => {
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') resolve(message.dimensions);
        else if (message.type === 'load-failed') {
          const code = message.code === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'INTERNAL';
          reject(new MnemographError(code, message.message, { details: { modelName: settings.modelName, dtype: settings.dtype } }));
        } else this.settle(message);
      });
      const stop = (error: Error) => {
        this.failure ??= error;
        reject(error);
        for (const { reject: rejectPending } of this.pending.values()) rejectPending(error);
        this.pending.clear();
      };
      this.worker.on('error', (error) =>
        stop(new MnemographError('UNAVAILABLE', 'embedding thread failed', { cause: error, retriable: true })),
      );
      this.worker.on('exit', (exitCode) =>
        stop(new MnemographError('UNAVAILABLE', `embedding thread exited (code ${exitCode})`, { retriable: true })),
      );
    });
    // Callers see load errors through `ready`; this only keeps an unobserved rejection quiet.
    this.ready.catch(() => undefined);
  }

  /** Whether the thread has stopped (crashed or terminated); a stopped thread is not reused. */
  get stopped(): boolean {
    return this.failure !== undefined;
  }

  embed(texts: string[], batchSize: number): Promise<Float32Array[]> {
    if (this.failure) return Promise.reject(this.failure);
    const request: EmbedRequest = { id: this.nextId++, texts, batchSize };
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  async terminate(): Promise<void> {
    this.failure ??= new MnemographError('UNAVAILABLE', 'embedder was disposed');
    await this.worker.terminate();
  }

  private settle(message: Extract<WorkerMessage, { type: 'vectors' | 'failed' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.type === 'failed') {
      pending.reject(new MnemographError('INTERNAL', `embedding failed: ${message.message}`));
      return;
    }
    const { data, width } = message;
    // Copies, so each vector owns its memory rather than pinning the whole request's buffer.
    const vectors: Float32Array[] = [];
    for (let offset = 0; offset < data.length; offset += width) vectors.push(data.slice(offset, offset + width));
    pending.resolve(vectors);
  }
}
