/**
 * Whether a lone word is one English uses to describe (an adjective, adverb or verb form):
 * "the password for the box is strict / random / hidden" says what it is like, not what it is.
 * compromise's lexicon (already loaded for entity recognition) knows ~25,000 words; a made-up or
 * rare word (a password such as "swordfish" or "orbitviolet") is not in it.
 */
import nlp from 'compromise';

const lexicon = (nlp.world() as { model: { one: { lexicon: Record<string, string | string[] | undefined> } } }).model.one.lexicon;
const DESCRIPTIVE = /Adjective|Adverb|Verb|Participle|Gerund|PastTense|Comparative|Superlative|Infinitive/;

export function isDescriptiveWord(word: string): boolean {
  const tag = lexicon[word.toLowerCase()];
  if (tag === undefined) return false;
  return DESCRIPTIVE.test(Array.isArray(tag) ? tag.join(' ') : tag);
}

/** Whether compromise's lexicon knows the word, or its stem without -s/-es/-ed/-ing (any part of speech). */
export function isKnownWord(word: string): boolean {
  const w = word.toLowerCase();
  return [w, w.replace(/s$/, ''), w.replace(/es$/, ''), w.replace(/ed$/, ''), w.replace(/ing$/, '')].some(
    (x) => x.length >= 2 && lexicon[x] !== undefined,
  );
}
