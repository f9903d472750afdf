import { Tokenizer } from 'htmlparser2';

/** Elements whose content is never text a reader sees. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas']);
/** Elements that end a line of text. */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'tr',
  'table',
  'section',
  'article',
  'header',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'blockquote',
  'hr',
  'dd',
  'dt',
  'main',
  'nav',
  'aside',
]);
/** Void blocks: never closed, so their opening ends the line on both sides. */
const VOID_BLOCKS = new Set(['br', 'hr']);

/**
 * Streaming HTML → text on htmlparser2's Tokenizer (a linear state machine): script, style and
 * similar elements are dropped with their content, entities decoded, the first <title> kept.
 * Feed it decoded text as it arrives; `end()` returns the result.
 *
 * Not htmlparser2's Parser: it keeps the open elements in an array it `unshift`s and searches
 * per tag, so a page of 100,000 unclosed tags (`<div><div>…`) took seconds per megabyte and grew
 * with the square of the page. Here only a counter of skipped elements is kept.
 */
export class HtmlText {
  private readonly parts: string[] = [];
  private skipDepth = 0;
  private inTitle = false;
  private titleParts: string[] | null = null;
  private titleDone = false;
  private lastOpened = '';
  private readonly tokenizer: Tokenizer;
  // The chunks the tokenizer's positions point into (as htmlparser2's Parser keeps them).
  private readonly buffers: string[] = [];
  private bufferOffset = 0;

  constructor() {
    const ignore = () => undefined;
    this.tokenizer = new Tokenizer(
      { xmlMode: false, decodeEntities: true },
      {
        onopentagname: (start, end) => this.open(this.slice(start, end).toLowerCase()),
        onclosetag: (start, end) => this.close(this.slice(start, end).toLowerCase()),
        // Only foreign elements (svg) close themselves in HTML; `<div/>` stays open, like a browser.
        onselfclosingtag: () => {
          if (this.lastOpened === 'svg') this.close('svg');
        },
        ontext: (start, end) => this.text(this.slice(start, end)),
        ontextentity: (codepoint) => this.text(String.fromCodePoint(codepoint)),
        onattribdata: ignore,
        onattribentity: ignore,
        onattribend: ignore,
        onattribname: ignore,
        oncdata: ignore,
        oncomment: ignore,
        ondeclaration: ignore,
        onend: ignore,
        onopentagend: ignore,
        onprocessinginstruction: ignore,
      },
    );
  }

  write(chunk: string): void {
    this.buffers.push(chunk);
    this.tokenizer.write(chunk);
  }

  end(): { text: string; title: string | null } {
    this.tokenizer.end();
    const title = this.titleParts ? collapse(this.titleParts.join('')).replace(/\n/g, ' ') : '';
    return { text: collapse(this.parts.join('')), title: title || null };
  }

  private open(name: string): void {
    this.lastOpened = name;
    if (SKIPPED.has(name)) this.skipDepth += 1;
    else if (name === 'title') {
      // Only the first title is kept; a later one is dropped, not read as body text.
      this.inTitle = true;
      this.titleParts ??= [];
      this.titleDone = this.titleParts.length > 0;
    } else if (BLOCKS.has(name)) this.parts.push(VOID_BLOCKS.has(name) ? '\n\n' : '\n');
  }

  private close(name: string): void {
    this.lastOpened = '';
    if (SKIPPED.has(name)) this.skipDepth = Math.max(0, this.skipDepth - 1);
    else if (name === 'title') this.inTitle = false;
    else if (BLOCKS.has(name)) this.parts.push('\n');
  }

  private text(text: string): void {
    if (this.inTitle) {
      if (!this.titleDone) this.titleParts!.push(text);
    } else if (this.skipDepth === 0) this.parts.push(text);
  }

  /** Characters [start, end) of the input fed so far; chunks wholly before `start` are released. */
  private slice(start: number, end: number): string {
    while (start - this.bufferOffset >= this.buffers[0]!.length) this.shift();
    let out = this.buffers[0]!.slice(start - this.bufferOffset, end - this.bufferOffset);
    while (end - this.bufferOffset > this.buffers[0]!.length) {
      this.shift();
      out += this.buffers[0]!.slice(0, end - this.bufferOffset);
    }
    return out;
  }

  private shift(): void {
    this.bufferOffset += this.buffers[0]!.length;
    this.buffers.shift();
  }
}

/** Spaces to one, blank lines to one (each pattern linear: no overlapping quantifiers). */
export function collapse(text: string): string {
  return text
    .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
