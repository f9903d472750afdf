import { describe, expect, it } from 'vitest';
import { decodeBookmarkToken, encodeBookmarkToken, MAX_BOOKMARK_TOKEN_CHARS } from './token.js';

describe('bookmark tokens', () => {
  it('round-trips the bookmarks of a chain', () => {
    const bookmarks = ['FB:kcwQnecNleTKTQaPF8zTGHo13AWQ', 'FB:kcwQ+/=='];
    expect(decodeBookmarkToken(encodeBookmarkToken(bookmarks))).toEqual(bookmarks);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$def'],
    ['too long', 'a'.repeat(MAX_BOOKMARK_TOKEN_CHARS + 1)],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['not an array', encodeURIComponent(Buffer.from('{"x":1}').toString('base64url'))],
    ['non-string member', Buffer.from('[1]').toString('base64url')],
    ['control characters', encodeBookmarkToken(['FB:\u0000'])],
    ['too many', encodeBookmarkToken(Array.from({ length: 9 }, () => 'FB:a'))],
    ['oversized bookmark', encodeBookmarkToken(['FB:' + 'a'.repeat(300)])],
  ])('refuses %s with BAD_USER_INPUT', (_name, token) => {
    expect(() => decodeBookmarkToken(token)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
  });
});
