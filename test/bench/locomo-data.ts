import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One LoCoMo conversation as the benchmark uses it (see ../shared/bench/locomo/README.md). */
export interface Conversation {
  id: string;
  turns: Array<{ content: string; externalId: string; occurredAt: string | null; sessionId: string }>;
  questions: Array<{ question: string; evidence: string[]; category: number }>;
}

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ISO 8601 (UTC; the dataset gives no zone). */
export function parseSessionDate(text: string): string | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) return null;
  const [, h, min, ampm, day, month, year] = m;
  const monthIndex = MONTHS.indexOf(month!.toLowerCase());
  if (monthIndex < 0) return null;
  const hour = (Number(h) % 12) + (ampm!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(year), monthIndex, Number(day), hour, Number(min))).toISOString();
}

export async function loadConversations(dir: string): Promise<Conversation[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => toConversation(file.replace(/\.json$/, ''), JSON.parse(await readFile(join(dir, file), 'utf8')))));
}

function toConversation(id: string, raw: Record<string, unknown>): Conversation {
  const sessions = Object.keys(raw)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const turns = sessions.flatMap((n) => {
    const occurredAt = parseSessionDate(String(raw[`session_${n}_date_time`] ?? ''));
    return (raw[`session_${n}`] as Turn[]).map((t) => ({
      content: `${t.speaker}: ${t.text}${t.blip_caption ? ` [image: ${t.blip_caption}]` : ''}`,
      externalId: t.dia_id,
      occurredAt,
      sessionId: `session_${n}`,
    }));
  });
  const qa = (raw.qa as Array<{ question: string; evidence?: string[]; category: number }>) ?? [];
  const questions = qa
    .filter((q) => q.category >= 1 && q.category <= 4)
    .map((q) => ({ question: q.question, category: q.category, evidence: (q.evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).filter(Boolean) }))
    .filter((q) => q.evidence.length > 0);
  return { id, turns, questions };
}
