// hole-letters.mjs: what a Togyz Kumalak text may not say: a hole named by
// a Latin letter (a-i, A-I, the data's and Oware's names, which the Togyz
// board does not show; it numbers its holes). Used by strings.test.mjs
// (the togyz.* keys) and tests/wasm/lessons.test.mjs (the lessons).
//
// A letter standing alone is a hole's name, save the words a language
// writes with one letter: English "a", "A" and "I", Spanish and French "a".
// "A" opening an English or Spanish sentence is the article or the
// preposition unless a verb follows it ("A went from 3 to 4", "A pasó de
// 3 a 4": the texts as first written).
const ALONE = '(?<![\\p{L}\\p{N}\'’-])(?:LETTERS)(?![\\p{L}\'’])';
const alone = (letters, extra = '') => new RegExp(ALONE.replace('LETTERS', letters) + extra, 'u');
const EN_VERB = '|(?<![\\p{L}])A (?=(?:went|goes|holds|held|has|had|gets|got|is|was|becomes|became|takes|took|keeps|kept|reaches|reached|now)(?!\\p{L}))';
const ES_VERB = '|(?<![\\p{L}])A (?=(?:pasó|pasa|tiene|tenía|queda|quedó|llega|llegó|es|era|ahora)(?!\\p{L}))';
export const HOLE_LETTER = {
  en: alone('[b-iB-H]', EN_VERB),
  es: alone('[b-iB-I]', ES_VERB),
  fr: alone('[b-iA-I]'),
  kk: alone('[a-iA-I]'),
  ru: alone('[a-iA-I]'),
};
