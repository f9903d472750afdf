import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

/**
 * One conversation as the benchmark uses it: LoCoMo's file shape (also used by the LongMemEval
 * dev files). A question may carry the time it is asked (`asOf`), from `question_date`.
 */
export interface Conversation {
  id: string;
  turns: Array<{ content: string; externalId: string; occurredAt: string | null; sessionId: string }>;
  questions: Question[];
}

export interface Question {
  question: string;
  evidence: string[];
  category: number;
  /** ISO 8601 time the question is asked; null when the dataset does not say. */
  asOf: string | null;
  /** The dataset the question came from, when asked in a pool of several (locomo-pooled.ts). */
  source?: string;
}

export interface Dataset {
  /** The folder's name, e.g. "locomo". */
  name: string;
  dir: string;
  conversations: Conversation[];
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

/** "2023/05/28 (Sun) 19:47" → ISO 8601 (UTC); session-date text is accepted too. */
export function parseQuestionDate(text: string | undefined): string | null {
  if (!text) return null;
  const m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s+\(\w+\))?(?:\s+(\d{1,2}):(\d{2}))?/.exec(text.trim());
  if (!m) return parseSessionDate(text);
  const [, y, mo, d, h, min] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(min ?? 0)));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export async function loadDataset(dir: string): Promise<Dataset> {
  const path = resolve(dir);
  const files = (await readdir(path)).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`${path} holds no conversation (*.json) files`);
  const conversations = await Promise.all(
    files.map(async (file) => toConversation(file.replace(/\.json$/, ''), JSON.parse(await readFile(join(path, file), 'utf8')))),
  );
  return { name: basename(path), dir: path, conversations };
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
  const qa = (raw.qa as Array<{ question: string; evidence?: string[]; category: number; question_date?: string }>) ?? [];
  const questions = qa
    .filter((q) => q.category >= 1 && q.category <= 4)
    .map((q) => ({
      question: q.question,
      category: q.category,
      asOf: parseQuestionDate(q.question_date),
      evidence: (q.evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).filter(Boolean),
    }))
    .filter((q) => q.evidence.length > 0);
  return { id, turns, questions };
}
