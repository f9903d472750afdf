import { Parser } from 'htmlparser2';

/** Elements whose content is never text a reader sees. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas']);
/** Elements that end a line of text. */
const BLOCKS = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'tr', 'table', 'section', 'article', 'header', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'hr', 'dd', 'dt', 'main', 'nav', 'aside']);

/**
 * Streaming HTML → text (htmlparser2's tokenizer is a linear state machine): script, style and
 * similar elements are dropped with their content, entities decoded, the first <title> kept.
 * Feed it decoded text as it arrives; `end()` returns the result.
 */
export class HtmlText {
  private readonly parts: string[] = [];
  private skipDepth = 0;
  private inTitle = false;
  private titleParts: string[] | null = null;
  private titleDone = false;
  private readonly parser: Parser;

  constructor() {
    this.parser = new Parser(
      {
        onopentagname: (name) => {
          if (SKIPPED.has(name)) this.skipDepth += 1;
          else if (name === 'title') {
            // Only the first title is kept; a later one is dropped, not read as body text.
            this.inTitle = true;
            this.titleParts ??= [];
            this.titleDone = this.titleParts.length > 0;
          } else if (BLOCKS.has(name)) this.parts.push('\n');
        },
        onclosetag: (name) => {
          if (SKIPPED.has(name)) this.skipDepth = Math.max(0, this.skipDepth - 1);
          else if (name === 'title') this.inTitle = false;
          else if (BLOCKS.has(name)) this.parts.push('\n');
        },
        ontext: (text) => {
          if (this.inTitle) {
            if (!this.titleDone) this.titleParts!.push(text);
          } else if (this.skipDepth === 0) this.parts.push(text);
        },
      },
      { decodeEntities: true, lowerCaseTags: true },
    );
  }

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): { text: string; title: string | null } {
    this.parser.end();
    const title = this.titleParts ? collapse(this.titleParts.join('')).replace(/\n/g, ' ') : '';
    return { text: collapse(this.parts.join('')), title: title || null };
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
