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
