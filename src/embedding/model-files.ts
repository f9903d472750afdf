import fs from 'node:fs';
import path from 'node:path';

import { env } from '@huggingface/transformers';

import { MnemographError } from '../errors.js';

/** transformers.js dtypes we ship: `fp32` reads `onnx/model.onnx`, `q8` reads `onnx/model_quantized.onnx`. */
export type ModelDtype = 'fp32' | 'q8';

export interface ModelLocation {
  modelName: string;
  /** Local models root holding `<modelName>/`; when set, remote download is off. */
  modelDir?: string | undefined;
  /** Download cache for remote models (only used when `modelDir` is unset). */
  cacheDir?: string | undefined;
}

export function dtypeFor(quantized: boolean): ModelDtype {
  return quantized ? 'q8' : 'fp32';
}

export function modelFile(modelDir: string, modelName: string, dtype: ModelDtype): string {
  return path.join(modelDir, modelName, 'onnx', dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx');
}

/**
 * Points transformers.js' global `env` at the local models (or the hub). It is one global per
 * thread, so the worker and the main thread each call this before loading anything.
 */
export function configureModelSource({ modelName, modelDir, cacheDir }: ModelLocation, dtype: ModelDtype): void {
  if (modelDir) {
    const file = modelFile(modelDir, modelName, dtype);
    if (!fs.existsSync(file)) {
      throw new MnemographError('UNAVAILABLE', `embedding model not found at ${file}; run npm run model:provision`, {
        details: { modelDir, modelName, dtype },
      });
    }
    env.localModelPath = path.resolve(modelDir);
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
  } else {
    env.allowRemoteModels = true;
  }
  if (cacheDir) env.cacheDir = cacheDir;
}
