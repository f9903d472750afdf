/**
 * Mean over the tokens the attention mask keeps, then L2 normalization: sentence-transformers'
 * pooling for all-MiniLM-L6-v2. Walks the hidden states once, row by row.
 *
 * @param hidden `[batch, tokens, width]`, row-major
 * @param mask `[batch, tokens]`, 1 for a real token and 0 for padding
 */
export function meanPoolNormalized(
  hidden: Float32Array,
  mask: ArrayLike<number | bigint>,
  batch: number,
  tokens: number,
  width: number,
): Float32Array {
  const out = new Float32Array(batch * width);
  const sum = new Float64Array(width);
  for (let b = 0; b < batch; b++) {
    sum.fill(0);
    let kept = 0;
    for (let t = 0; t < tokens; t++) {
      if (Number(mask[b * tokens + t]) === 0) continue;
      kept++;
      const row = (b * tokens + t) * width;
      for (let k = 0; k < width; k++) sum[k]! += hidden[row + k]!;
    }
    let norm = 0;
    for (let k = 0; k < width; k++) norm += sum[k]! * sum[k]!;
    // The mean's 1/kept cancels out in the normalization; an all-padding row stays zero.
    const scale = kept > 0 && norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let k = 0; k < width; k++) out[b * width + k] = sum[k]! * scale;
  }
  return out;
}

/**
 * The first token's hidden state (BERT's [CLS]), L2-normalized: bge's pooling. Padding sits at
 * the end of a row, so the first token is always a real one.
 *
 * @param hidden `[batch, tokens, width]`, row-major
 */
export function clsPoolNormalized(hidden: Float32Array, batch: number, tokens: number, width: number): Float32Array {
  const out = new Float32Array(batch * width);
  for (let b = 0; b < batch; b++) {
    const row = b * tokens * width;
    let norm = 0;
    for (let k = 0; k < width; k++) norm += hidden[row + k]! * hidden[row + k]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let k = 0; k < width; k++) out[b * width + k] = hidden[row + k]! * scale;
  }
  return out;
}
