/**
 * Decision auto-protection: a 14-pattern battery that recognises decision language at
 * write time, so the attributes of a decision become constraints that recall always keeps.
 * It also names what was decided about ("Redis" and "Memcached" in "chose Redis over Memcached"),
 * which the linker turns into strong entities.
 */
import { trimEndChars } from '../text/index.js';
import { canonicalize, CALENDAR_WORDS, knownTech, STOP_WORDS } from './vocabulary.js';

export interface DecisionPattern {
  id: string;
  /** Case-insensitive; where `objects` is true the match ends where the first object begins. */
  regex: RegExp;
  objects: boolean;
}

// Up to ~60 characters of the same clause (dots allowed inside words, as in "Node.js").
const CLAUSE = String.raw`(?:[^\n.]|\.(?=\S)){1,60}?`;
const OVER = String.raw`\s(?:over|instead(?:\s+of)?|rather(?:\s+than)?)\b`;

const p = (id: string, source: string, objects = true): DecisionPattern => ({ id, regex: new RegExp(source, 'i'), objects });

export const DECISION_PATTERNS: readonly DecisionPattern[] = [
  p('chose', String.raw`\b(?:chose|chosen)\s+(?:to\s+(?:use|go\s+with|adopt)\s+|(?=${CLAUSE}${OVER}))`),
  p(
    'decided',
    String.raw`\bdecided\s+(?:to\s+(?:use|go\s+with|adopt|switch\s+to|migrate\s+to|move\s+to|stick\s+with|keep)\s+|on\s+|against\s+(?:using\s+)?|to\s+)`,
  ),
  p('switched', String.raw`\bswitch(?:ed|ing)\s+(?:over\s+)?(?:from|to)\s+`),
  p('migrated', String.raw`\bmigrat(?:e|ed|ing)\s+(?:away\s+from|off(?:\s+of)?|from|to)\s+`),
  p('picked', String.raw`\bpicked\s+(?!(?:up|out|off|on)\b)(?=${CLAUSE}${OVER})`),
  p('went-with', String.raw`\bwent\s+with\s+`),
  p('sticking-with', String.raw`\bsticking\s+with\s+`),
  p('committed-to', String.raw`\bcommitted\s+to\s+(?!(?:the\s+)?(?:repo(?:sitory)?|main|master|branch|git|origin|trunk)\b)`),
  p('settled-on', String.raw`\bsettled\s+on\s+`),
  p('will-use', String.raw`(?:\bwill|'ll)\s+(?:use|go\s+with|stick\s+with)\s+`),
  p('prefers-over', String.raw`\bprefer(?:s|red)?\s+(?=${CLAUSE}${OVER})`),
  p('adopted', String.raw`\badopted\s+`),
  p('architecture-decision', String.raw`\barchitect(?:ure|ural)\s+decisions?\b`, false),
  p('design-decision', String.raw`\bdesign\s+decisions?\b`, false),
];

/** Whether the text contains decision language (any of the 14 patterns). */
export function isDecisionContent(text: string): boolean {
  return DECISION_PATTERNS.some((d) => d.regex.test(text));
}

const SKIP = /(?:(?:the|a|an|our|my|their|its|using|with)\s+)*/iy;
const HEAD = /@?[A-Za-z0-9][\w.+#@/-]*/y;
const TAIL = /\s+(?:\p{Lu}[\w.+#-]*|\d[\w.]*)/uy;
const LINK = /,?\s+(?:over|instead\s+of|rather\s+than|in\s+favou?r\s+of|from|to|vs\.?|versus)\s+/iy;
const MAX_TAIL_WORDS = 2;

/** The named objects of all decision phrases, in order of appearance, deduplicated. */
export function decisionObjects(text: string): string[] {
  const found: Array<{ at: number; name: string }> = [];
  for (const d of DECISION_PATTERNS) {
    if (!d.objects) continue;
    const re = new RegExp(d.regex.source, 'gi');
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      let pos = m.index + m[0].length;
      for (let k = 0; k < 2; k++) {
        const obj = readObject(text, pos);
        if (!obj) break;
        if (isNameLike(obj.name)) found.push({ at: obj.start, name: obj.name });
        if (obj.sentenceEnded) break;
        LINK.lastIndex = obj.end;
        if (!LINK.test(text)) break;
        pos = LINK.lastIndex;
      }
      if (re.lastIndex === m.index) re.lastIndex++;
    }
  }
  const byKey = new Map<string, string>();
  for (const { name } of found.sort((a, b) => a.at - b.at)) if (!byKey.has(canonicalize(name))) byKey.set(canonicalize(name), name);
  return [...byKey.values()];
}

function readObject(text: string, pos: number): { name: string; start: number; end: number; sentenceEnded: boolean } | null {
  SKIP.lastIndex = pos;
  SKIP.test(text);
  const start = SKIP.lastIndex;
  HEAD.lastIndex = start;
  const head = HEAD.exec(text)?.[0];
  if (!head) return null;
  let name = trimEndChars(head, './-');
  let end = start + name.length;
  const sentenceEnded = name.length < head.length && head.endsWith('.');
  if (!sentenceEnded && /^\p{Lu}/u.test(name)) {
    for (let k = 0; k < MAX_TAIL_WORDS; k++) {
      TAIL.lastIndex = end;
      const tail = TAIL.exec(text)?.[0];
      if (!tail || STOP_WORDS.has(tail.trim().toLowerCase())) break;
      const trimmed = trimEndChars(tail, '.-');
      name += trimmed;
      end += trimmed.length;
      if (trimmed.length < tail.length) break;
    }
  }
  return { name, start, end, sentenceEnded };
}

/** A proper noun, a known technology, or a technical token; never a common word. */
export function isNameLike(name: string): boolean {
  const c = canonicalize(name);
  if (c.length < 2 || STOP_WORDS.has(c) || CALENDAR_WORDS.has(c)) return false;
  return /^\p{Lu}/u.test(name) || /[\d.+#@/_]|[a-z][A-Z]/.test(name) || knownTech(c) !== undefined;
}
