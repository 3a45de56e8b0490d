// kind.js: the games' names, 'oware' (Oware Abapa) and 'togyz' (Togyz
// Kumalak), the pit names, how a pit is written for people. No imports,
// so every module may use it; what else differs between the games (the
// engine, the wire, the keys, the computer) is the kind's record in
// kinds.js. It keeps no page's kind: each screen's state holds its game
// (the start page's, start.js's controller; a room's, model.js's).
//
// Pit names (the ids the board, the timeline and the computer share):
// Oware 'a'..'f' South's pits, 'A'..'F' North's; Togyz 'a'..'i' White's
// (South's) holes 1..9, 'A'..'I' Black's (North's) holes 1..9. A lower-case
// name is always South's.

// @ts-check
/** @type {['oware', 'togyz']} */
export const KINDS = ['oware', 'togyz'];
export const PIT_IDS = { oware: 'abcdefABCDEF', togyz: 'abcdefghiABCDEFGHI' };
// The prefix of a kind's own variant of a key in the language files
// ("togyz.<key>": White and Black, its rules), '' for none (kinds.js's
// records name theirs; i18n.js's lookup asks it).
export const KEY_PREFIX = { oware: '', togyz: 'togyz.' };
// Kinds whose pits people write as hole numbers (Kazakh records), not letters.
const NUMBERED = { oware: false, togyz: true };
const KIND_KEY = 'oware.kind';

// The kind k names: 'togyz', else 'oware' (anything else read or received).
/** @type {(k: unknown) => 'oware' | 'togyz'} */
export const kindOf = (k) => KINDS.find((x) => x === k) || KINDS[0];

// The pits of a row (6 or 9) and all pit names of kind k.
export const rowOf = (k) => PIT_IDS[kindOf(k)].length / 2;
export const pitIds = (k) => PIT_IDS[kindOf(k)];

// How people write a pit of kind k: Oware its letter; Togyz its hole
// number 1..9 (Kazakh records), whichever side it is on.
export function pitLabel(id, k) {
  if (!NUMBERED[kindOf(k)]) return id;
  const ids = pitIds(k), i = ids.indexOf(id);
  return i < 0 ? String(id) : String(i % rowOf(k) + 1);
}

// The Togyz pit name of hole 1..9 of side ('south' | 'north'), or null.
export function togyzPit(side, hole) {
  const h = Number(hole);
  if (!Number.isInteger(h) || h < 1 || h > 9) return null;
  return PIT_IDS.togyz[(side === 'north' ? 9 : 0) + h - 1];
}

// The game the start page offers (remembered by this browser).
export function chosenKind() {
  try { return kindOf(localStorage.getItem(KIND_KEY)); } catch { return 'oware'; }
}
export function chooseKind(k) {
  try { localStorage.setItem(KIND_KEY, kindOf(k)); } catch { /* private mode */ }
}

// A Togyz room's state from the wire (PROTOCOL.md: moves and legal as hole
// numbers 1..9, "1".."9" or 1..9, of the side that plays them; last with
// pit as a hole number and sown/captured as pit indices 0..17) in the
// page's terms: moves and legal as pit names (turns alternate from the
// start position's), last's pits named. Other fields are kept as they are.
export function togyzFromWire(st) {
  const first = (st.start && st.start.turn) || 'south';
  const moverAt = (i) => ((i % 2 === 0) === (first === 'south') ? 'south' : 'north');
  const named = (v, side) => (typeof v === 'number' && v >= 0 && v < 18 ? PIT_IDS.togyz[v] : togyzPit(side, v) || v);
  const moves = (st.moves || []).map((m, i) => togyzPit(moverAt(i), m) || String(m));
  const game = { ...st.game, legal: (st.game.legal || []).map((h) => togyzPit(st.game.turn, h)).filter(Boolean) };
  let last = st.last;
  if (last && moves.length) {
    const side = moverAt(moves.length - 1);
    last = {
      ...last, pit: togyzPit(side, last.pit) || last.pit,
      sown: (last.sown || []).map((v) => named(v, side)), captured: (last.captured || []).map((v) => named(v, side)),
    };
  }
  return { ...st, moves, game, last };
}
