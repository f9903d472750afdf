import { linkMemory, type LinkResult } from '../linker/index.js';
import { chunkText, type Chunk } from './chunk.js';
import { classifyMemoryType, salienceScore } from './importance.js';
import { normalizeContent } from './normalize.js';
import { redactSecrets, type RedactionOptions } from '../redaction/index.js';
import { RedactionTally, redactJsonString, redactStored, redactStoredOrNull } from '../redaction/index.js';
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
 * The CPU-only stages of the write path, in the order docs/architecture.md gives. The hash is taken after
 * redaction, so a secret never shapes a stored value; every other stored field is redacted too,
 * and `redactions` counts what was found in all of them.
 */
export function prepareMemory(input: ValidatedInput, options: PrepareOptions): PreparedMemory {
  const { text: redacted, redactions: contentRedactions } = redactSecrets(
    normalizeContent(input.content).storageContent,
    options.redaction,
  );
  const tally = new RedactionTally();
  tally.add(contentRedactions);
  const fields = redactFields(input, options.redaction, tally);
  const { storageContent, normalizedContent, contentHash } = normalizeContent(redacted);
  const links = linkMemory(storageContent);
  const autoTags = autoTag(storageContent, { source: fields.source ?? undefined }).tags;
  const type = input.type ?? (links.isDecision ? 'decision' : classifyMemoryType(storageContent));
  return {
    ...input,
    ...fields,
    storageContent,
    normalizedContent,
    contentHash,
    caption: caption(storageContent),
    type,
    tags: [...new Set([...fields.tags, ...autoTags])],
    redactions: tally.list(),
    chunks: chunkText(storageContent),
    links,
    salience: salienceScore(storageContent),
    ...classifyTemporal(storageContent, input.occurredAt),
  };
}

type RedactedFields = Pick<ValidatedInput, 'sessionId' | 'source' | 'externalId' | 'who' | 'why' | 'tags' | 'metadata'>;

/** Every stored field besides the content, through the same redactor and settings. */
function redactFields(input: ValidatedInput, redaction: RedactionOptions, tally: RedactionTally): RedactedFields {
  const field = (value: string | null) => redactStoredOrNull(value, redaction, tally);
  return {
    sessionId: field(input.sessionId),
    source: field(input.source),
    externalId: field(input.externalId),
    who: field(input.who),
    why: field(input.why),
    tags: [...new Set(input.tags.map((t) => redactStored(t, redaction, tally).toLowerCase()))],
    metadata: redactJsonString(input.metadata, redaction, tally),
  };
}

function caption(content: string): string {
  const firstLine = content.split('\n', 1)[0]!;
  return firstLine.length > CAPTION_CHARS ? `${firstLine.slice(0, CAPTION_CHARS - 1)}…` : firstLine;
}
