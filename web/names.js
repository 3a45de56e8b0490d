// names.js: players' names (issue 14): the one this browser remembers, the
// check the server makes (protocol/PROTOCOL.md, "Names and chat"), and the
// name shown for a seat ("South"/"North" when it has none).
import { t } from './i18n.js';
import { load, store } from './ui.js';
import { model } from './model.js';

const NAME_KEY = 'oware.name';
export const NAME_MAX = 24;
export const CHAT_MAX = 300;

// What the server refuses inside a name or a chat line: controls, format
// characters, private use, line and paragraph separators, noncharacters.
const REFUSED = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\u{FDD0}-\u{FDEF}\u{FFFE}\u{FFFF}]/u;

// The trimmed text if the server would accept it (1..max code points), else null.
export function cleanText(s, max) {
  const v = String(s ?? '').replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
  const n = [...v].length;
  if (n < 1 || n > max || REFUSED.test(v)) return null;
  return v;
}

// The name this browser offers for its rooms, or null.
export function myName() {
  return cleanText(load(NAME_KEY), NAME_MAX);
}

// Remembers name (null forgets it).
export function rememberName(name) {
  store(NAME_KEY, name || null);
}

// The name of a seat in the room shown (null when it has none).
export function seatName(side) {
  const st = model && model.state;
  return (st && st.names && st.names[side]) || null;
}

// What the page calls a side: its player's name, else "South"/"North".
export function displayName(side) {
  return seatName(side) || t(`side.${side}`);
}
