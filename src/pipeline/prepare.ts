import { linkMemory, type LinkResult } from '../linker/index.js';
import { chunkText, type Chunk } from './chunk.js';
import { classifyMemoryType, salienceScore } from './importance.js';
import { normalizeContent } from './normalize.js';
import { redactSecrets, type RedactionOptions } from './redact.js';
import { autoTag } from './tags.js';
import { classifyTemporal } from './temporal.js';
import type { ValidatedInput } from './validate-input.js';

export interface PrepareOptions {
  redaction: RedactionOptions;
}

export interface PreparedMemory extends Omit<ValidatedInput, 'content' | 'type'> {
  storageContent: string;
  normalizedContent: string;
  contentHash: string;
  caption: string;
  type: string;
  redactions: Array<{ kind: string; count: number }>;
  chunks: Chunk[];
  links: LinkResult;
  salience: number;
  temporal: 'persistent' | 'temporal';
  validUntil: string | null;
}

const CAPTION_CHARS = 60;

/**
 * The CPU-only stages of the write path, in DESIGN.md's order. The hash is taken after
 * redaction, so a secret never shapes a stored value.
 */
export function prepareMemory(input: ValidatedInput, options: PrepareOptions): PreparedMemory {
  const { text: redacted, redactions } = redactSecrets(normalizeContent(input.content).storageContent, options.redaction);
  const { storageContent, normalizedContent, contentHash } = normalizeContent(redacted);
  const links = linkMemory(storageContent);
  const autoTags = autoTag(storageContent, { source: input.source ?? undefined }).tags;
  const type = input.type ?? (links.isDecision ? 'decision' : classifyMemoryType(storageContent));
  return {
    ...input,
    storageContent,
    normalizedContent,
    contentHash,
    caption: caption(storageContent),
    type,
    tags: [...new Set([...input.tags, ...autoTags])],
    redactions,
    chunks: chunkText(storageContent),
    links,
    salience: salienceScore(storageContent),
    ...classifyTemporal(storageContent),
  };
}

function caption(content: string): string {
  const firstLine = content.split('\n', 1)[0]!;
  return firstLine.length > CAPTION_CHARS ? `${firstLine.slice(0, CAPTION_CHARS - 1)}…` : firstLine;
}
