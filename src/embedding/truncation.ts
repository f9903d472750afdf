/**
 * transformers.js truncates a tokenized text after its special tokens are added, so a text longer
 * than the window loses its closing token ([SEP] for BERT, </s> for XLM-R), where Hugging Face's
 * tokenizers (and sentence-transformers) keep it and drop one more word. This puts it back: every
 * row whose last position holds a real token ends with `endId` (an untruncated full row already
 * does). Rows are right-padded.
 *
 * @param ids `[batch, tokens]` token ids, row-major; changed in place
 * @param mask `[batch, tokens]`, 1 for a real token and 0 for padding
 */
export function restoreEndToken(ids: BigInt64Array, mask: ArrayLike<number | bigint>, batch: number, tokens: number, endId: bigint): void {
  for (let b = 0; b < batch; b++) {
    const last = b * tokens + tokens - 1;
    if (Number(mask[last]) !== 0) ids[last] = endId;
  }
}
