// names.js: players' names (issue 14): the one this browser remembers, the
// check the server makes (protocol/PROTOCOL.md, "Names and chat"), and the
// name shown for a seat ("South"/"North" when it has none, "White"/"Black"
// in Togyz Kumalak). A seat's name and the game's words are read from
// what the caller hands (Who: a game's kind and a room's names, as the
// facts of model.js carry them), never from a module's state, so a view
// shows the room it draws.
// @ts-check
import { tIn, has } from './i18n.js';
import { load, store } from './ui.js';

/** @typedef {{south?: string | null, north?: string | null} | null | undefined} SeatNames  a room state's `names` */
/** @typedef {{kind: string, names?: SeatNames}} Who  whose sides: the game (its words) and the room's names (none: a local game) */

const NAME_KEY = 'oware.name';
export const NAME_MAX = 24;
export const CHAT_MAX = 300;

// What the server refuses inside a name or a chat line: controls, format
// characters, private use, line and paragraph separators, noncharacters.
const REFUSED = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\u{FDD0}-\u{FDEF}\u{FFFE}\u{FFFF}]/u;

// More than 4 combining marks on one character (names and chat lines).
const MARKS = /[\p{Mn}\p{Me}]{5}/u;

// The trimmed text if the server would accept it (1..max code points), else null.
export function cleanText(s, max) {
  const v = String(s ?? '').replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
  const n = [...v].length;
  if (n < 1 || n > max || REFUSED.test(v) || MARKS.test(v)) return null;
  return v;
}

// Drawn as nothing: white space, marks, the Hangul fillers, blank Braille.
const INVISIBLE = /^[\s\p{Mn}\p{Me}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

// Whether a name reads as a side's (name-check.js): loaded with the first
// name there is to check; until then the server alone refuses those.
let sideWord = (/** @type {string} */ _name) => false;
/** @type {Promise<void> | null} */
let checkLoading = null;
export function loadNameWords() {
  return checkLoading || (checkLoading = import('./name-check.js').then((m) => { sideWord = m.sideWord; },
    () => { checkLoading = null; }));
}

// The trimmed name if the server would take it as a player's name, else
// null: a text (cleanText) with a visible character that does not read as
// a side's name (PROTOCOL.md, "Names and chat"; the server also reads
// Cyrillic, Greek and Armenian look-alikes as Latin letters).
export function cleanName(s) {
  const v = cleanText(s, NAME_MAX);
  if (v === null || INVISIBLE.test(v)) return null;
  loadNameWords();
  return sideWord(v) ? null : v;
}

// The name this browser offers for its rooms, or null.
export function myName() {
  return cleanName(load(NAME_KEY));
}

// Remembers name (null forgets it).
export function rememberName(name) {
  store(NAME_KEY, name || null);
}

// The name of side's seat in who's room (null when it has none).
/** @param {Who} who @param {string} side */
export function seatName(who, side) {
  return (who.names && who.names[side]) || null;
}

// What the page calls a side: its player's name, else "South"/"North".
/** @param {Who} who @param {string} side */
export function displayName(who, side) {
  return seatName(who, side) || tIn(who.kind, `side.${side}`);
}

// A side in a sentence: its player's name, else the side with the words
// the language puts around it. {side}: bare ("Norte", "Ana"); {the}: as a
// subject or object ("el Norte", "las Negras"); {The}: opening a sentence;
// {of}: after a noun ("del Norte", "de las Negras", "de Ana"; name.of.vowel
// before a vowel where the language has it: "d’Ana", "d’Élodie"); plural: the verb agrees with a plural ("las Negras sembraron"),
// for the keys that have a plural form (key + '.pl').
/** @param {Who} who @param {string} side */
export function sideWords(who, side) {
  const name = seatName(who, side);
  const tk = (key, params) => tIn(who.kind, key, params);
  if (name) return { side: name, the: name, The: name, of: tk(/^[aeiouy]/i.test(name.normalize('NFD')) && has('name.of.vowel') ? 'name.of.vowel' : 'name.of', { name }), plural: false };
  const the = tk(`side.the.${side}`);
  return { side: tk(`side.${side}`), the, The: the.charAt(0).toUpperCase() + the.slice(1), of: tk(`side.of.${side}`), plural: tk('side.plural') === 'yes' };
}

// The same with the side after a name, where both help: "Bruno (North)".
/** @param {Who} who @param {string} side */
export function nameAndSide(who, side) {
  const name = seatName(who, side);
  const bare = tIn(who.kind, `side.${side}`);
  return name ? `${name} (${bare})` : bare;
}
