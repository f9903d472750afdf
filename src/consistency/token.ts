import { ValidationError } from '../errors.js';

export const BOOKMARK_HEADER = 'x-mnemograph-bookmark';
/** A token carries the few bookmarks of one chain (one per database touched; we use one). */
export const MAX_BOOKMARKS = 8;
export const MAX_BOOKMARK_CHARS = 256;
export const MAX_BOOKMARK_TOKEN_CHARS = 4096;

const TOKEN = /^[A-Za-z0-9_-]+$/;
// Neo4j's bookmarks are printable ASCII without spaces ("FB:kcwQ…" on 5.x).
const BOOKMARK = /^[\x21-\x7e]+$/;

/** An opaque token for clients: base64url of the JSON array of bookmarks. */
export function encodeBookmarkToken(bookmarks: readonly string[]): string {
  return Buffer.from(JSON.stringify(bookmarks), 'utf8').toString('base64url');
}

/** The bookmarks of a token a client sent back; BAD_USER_INPUT when it is not one we made. */
export function decodeBookmarkToken(token: string): string[] {
  const invalid = () =>
    new ValidationError(`${BOOKMARK_HEADER} is not a bookmark token: send back the value of a previous response's ${BOOKMARK_HEADER}`, {
      header: BOOKMARK_HEADER,
    });
  if (token.length === 0 || token.length > MAX_BOOKMARK_TOKEN_CHARS || !TOKEN.test(token)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_BOOKMARKS) throw invalid();
  for (const bookmark of parsed) {
    if (typeof bookmark !== 'string' || bookmark.length === 0 || bookmark.length > MAX_BOOKMARK_CHARS || !BOOKMARK.test(bookmark))
      throw invalid();
  }
  return parsed as string[];
}
