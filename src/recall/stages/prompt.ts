import type { RecallMemory } from '../types.js';

export type PromptMemory = Pick<RecallMemory, 'type' | 'content' | 'occurredAt'>;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

/**
 * The prompt stage (pure): the `<memory>` block handed to the agent's prompt, one `[TYPE] content` line per memory in the given order;
 * episodic memories with an event time read `[EPISODIC] 2024-01-20: content`. Line breaks inside
 * a memory become spaces and a literal <memory> tag is escaped, so every memory stays one line
 * inside one block.
 */
export function formatMemoryPrompt(items: readonly PromptMemory[]): string {
  const lines = items.map((m) => {
    const day = m.type === 'episodic' ? eventDay(m.occurredAt) : null;
    const content = oneLine(m.content);
    return `[${m.type.toUpperCase()}] ${day ? `${day}: ` : ''}${content}`;
  });
  return ['<memory>', ...lines, '</memory>'].join('\n');
}

/** The calendar day as written in the timestamp (the event's own offset, not UTC). */
function eventDay(occurredAt: string | null): string | null {
  if (!occurredAt) return null;
  const written = ISO_DAY.exec(occurredAt);
  if (written) return written[0];
  const time = Date.parse(occurredAt);
  return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : null;
}

function oneLine(content: string): string {
  return content
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/<(\/?)memory>/gi, '&lt;$1memory&gt;')
    .trim();
}
