/**
 * Boundary-aware chunking (paragraph, then sentence, then word boundaries) sized for
 * all-MiniLM-L6-v2, which reads at most 256 word pieces: ~800 characters of English is about
 * 200 word pieces, so a chunk is embedded whole instead of silently truncated.
 *
 * Invariant: every chunk's `text` is exactly `input.slice(startChar, endChar)`. Overlap is made by
 * starting chunk N+1 at the start of chunk N's last sentence (when that sentence is short enough),
 * so chunks may share a span but never contain text that is not in the input.
 * Boundaries, strongest first: paragraph (blank line, markdown header, list item, code fence),
 * sentence (". " before a capital or digit, "! ", "? ", a line break), word (space or hyphen),
 * and finally a hard cut for a single word longer than the maximum.
 */
import { ValidationError } from '../errors.js';

export interface Chunk {
  index: number;
  text: string;
  /** Offset of the first character in the input (UTF-16 code units, like String#slice). */
  startChar: number;
  /** Offset just past the last character in the input. */
  endChar: number;
}

export interface ChunkOptions {
  targetChars?: number;
  minChars?: number;
  maxChars?: number;
  overlapMaxChars?: number;
}

/** Preferred chunk size in characters (~200 MiniLM word pieces). */
export const CHUNK_TARGET_CHARS = 800;
/** Pieces smaller than this many characters are merged with a neighbour when the maximum allows. */
export const CHUNK_MIN_CHARS = 200;
/** No chunk is longer than this many characters (~300 word pieces, near the model's 256 limit). */
export const CHUNK_MAX_CHARS = 1200;
/** The one-sentence overlap is skipped when that sentence is longer than this many characters. */
export const CHUNK_OVERLAP_MAX_CHARS = 300;

const Break = { Word: 0, Sentence: 1, Paragraph: 2 } as const;
type Break = (typeof Break)[keyof typeof Break];

interface Piece {
  start: number;
  end: number;
  /** Strength of the boundary before this piece. */
  brk: Break;
  /** A whole sentence (may be repeated as overlap), not a fragment of a long one. */
  whole: boolean;
}

const PARAGRAPH_START_LINE = /^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|```|~~~)/;
// Starts only at the first mark of a run: from every mark of a long "!!!!" run it is quadratic.
const SENTENCE_BREAK = /(?<![.!?])[.!?]+["'”’)\]]*[ \t]+|\n/g;
/** After ". " a new sentence starts only with a capital or a digit ("e.g. this" does not split), maybe quoted. */
const SENTENCE_OPENER = /["'“‘(\[]?[\p{Lu}\p{N}]/uy;

export function chunkText(text: string, options: ChunkOptions = {}): Chunk[] {
  const o = resolveOptions(options);
  if (text.trim() === '') return [];
  if (text.length <= o.maxChars) return [{ index: 0, text, startChar: 0, endChar: text.length }];

  const pieces: Piece[] = [];
  for (const [ps, pe] of paragraphs(text)) {
    let brk: Break = Break.Paragraph;
    for (const [ss, se] of sentences(text, ps, pe)) {
      if (se - ss <= o.maxChars) pieces.push({ start: ss, end: se, brk, whole: true });
      else
        for (const [ws, we] of words(text, ss, se, o)) pieces.push({ start: ws, end: we, brk: ws === ss ? brk : Break.Word, whole: false });
      brk = Break.Sentence;
    }
  }
  return pack(pieces, o).map(([a, b], index) => {
    const startChar = pieces[a]!.start;
    const endChar = pieces[b - 1]!.end;
    return { index, text: text.slice(startChar, endChar), startChar, endChar };
  });
}

/** Groups pieces into chunks, as [first, last+1) index ranges. */
function pack(pieces: Piece[], o: Required<ChunkOptions>): Array<[number, number]> {
  const n = pieces.length;
  const at = (k: number) => pieces[k]!;
  const chunks: Array<[number, number]> = [];
  let overlap = -1;
  for (let i = 0; i < n; ) {
    const first = overlap >= 0 && at(i).end - at(overlap).start <= o.maxChars ? overlap : i;
    const start = at(first).start;
    let j = i + 1;
    while (j < n) {
      const len = at(j).end - start;
      if (len <= o.targetChars || (len <= o.maxChars && at(j - 1).end - start < o.minChars)) j++;
      else break;
    }
    if (j < n) {
      // Cut at the strongest boundary that still leaves at least minChars in this chunk.
      let best = j;
      for (let k = j - 1; k > i && at(k - 1).end - start >= o.minChars; k--) if (at(k).brk > at(best).brk) best = k;
      j = best;
    }
    chunks.push([first, j]);
    const last = j - 1;
    overlap = j < n && last > first && at(last).whole && at(last).end - at(last).start <= o.overlapMaxChars ? last : -1;
    i = j;
  }
  const tail = chunks[chunks.length - 1]!;
  const prev = chunks[chunks.length - 2];
  if (prev && at(tail[1] - 1).end - at(tail[0]).start < o.minChars && at(tail[1] - 1).end - at(prev[0]).start <= o.maxChars) {
    chunks.splice(-2, 2, [prev[0], tail[1]]);
  }
  return chunks;
}

/** Paragraph spans, trimmed of surrounding whitespace. */
function paragraphs(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1;
  let end = -1;
  let prevBlank = true;
  for (let ls = 0; ls <= text.length; ) {
    const nl = text.indexOf('\n', ls);
    const le = nl < 0 ? text.length : nl;
    const line = text.slice(ls, le);
    const blank = line.trim() === '';
    if (!blank) {
      if (start >= 0 && (prevBlank || PARAGRAPH_START_LINE.test(line))) {
        out.push([start, end]);
        start = -1;
      }
      if (start < 0) start = ls + (line.length - line.trimStart().length);
      end = ls + line.trimEnd().length;
    }
    prevBlank = blank;
    ls = le + 1;
  }
  if (start >= 0) out.push([start, end]);
  return out;
}

/** Sentence spans inside [from, to), trimmed. */
function sentences(text: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = new RegExp(SENTENCE_BREAK.source, 'g');
  const slice = text.slice(from, to);
  let s = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(slice)) !== null) {
    const next = m.index + m[0].length;
    const punct = m[0].trimEnd();
    SENTENCE_OPENER.lastIndex = next;
    if (punct.startsWith('.') && !SENTENCE_OPENER.test(slice)) continue;
    pushTrimmed(out, text, from + s, from + m.index + punct.length);
    s = next;
  }
  pushTrimmed(out, text, from + s, to);
  return out;
}

/** Word-boundary pieces of an over-long sentence; a word longer than maxChars is hard-cut. */
function words(text: string, from: number, to: number, o: Required<ChunkOptions>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let pos = from;
  while (to - pos > o.maxChars) {
    const cut = findCut(text, pos, pos + o.minChars, pos + o.targetChars) ?? findCut(text, pos, pos + o.targetChars, pos + o.maxChars);
    let end = cut ?? pos + o.maxChars;
    if (cut === undefined && /[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1;
    pushTrimmed(out, text, pos, end);
    pos = end;
    while (pos < to && /\s/.test(text[pos]!)) pos++;
  }
  pushTrimmed(out, text, pos, to);
  return out;
}

/** The last break (after a space or hyphen) in (lo, hi], if any. */
function findCut(text: string, pos: number, lo: number, hi: number): number | undefined {
  for (let k = hi; k > Math.max(lo, pos + 1); k--) {
    const c = text[k - 1]!;
    if (c === '-' || /\s/.test(c)) return c === '-' ? k : k - 1;
  }
  return undefined;
}

function pushTrimmed(out: Array<[number, number]>, text: string, start: number, end: number): void {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  if (end > start) out.push([start, end]);
}

function resolveOptions(options: ChunkOptions): Required<ChunkOptions> {
  const o = {
    targetChars: options.targetChars ?? CHUNK_TARGET_CHARS,
    minChars: options.minChars ?? CHUNK_MIN_CHARS,
    maxChars: options.maxChars ?? CHUNK_MAX_CHARS,
    overlapMaxChars: options.overlapMaxChars ?? CHUNK_OVERLAP_MAX_CHARS,
  };
  const ints = Object.values(o).every((v) => Number.isInteger(v) && v >= 0);
  if (!ints || o.maxChars < 1 || !(o.minChars <= o.targetChars && o.targetChars <= o.maxChars)) {
    throw new ValidationError('chunk sizes must be integers with 0 ≤ minChars ≤ targetChars ≤ maxChars and maxChars ≥ 1', { ...o });
  }
  return o;
}
