// ear.js: the game screen by ear (issue 52): the keys that read the board
// (also the lessons' and the puzzles' boards, in their panels)
// on demand into the live region (your row, the opponent's, the stores,
// whose move, the last move, the time left) and the keyboard's help that
// `?` opens. Loaded by app.js at the first such key, with its words
// (web/i18n/keyboard/<lang>.json, loadPart), so a first visit fetches
// neither. It is handed the state shown and reads nothing else.
// @ts-check
import { t, tIn, loadPart, holeName } from './i18n.js';
import { $, announce } from './ui.js';
import { facts, mySide, moverOf, other } from './model.js';
import { pitIds, pitLabel, rowOf } from './kind.js';
import { nameAndSide } from './names.js';
import { moveSaid, resultSentence, resultText } from './texts.js';
import { clockNow, formatClock } from './clock.js';

// The keys that read the game screen aloud (either case; app.js loads
// this module at the first), and what each reads; `?` opens their help.
export const READ_KEYS = Object.freeze({ r: 'row', o: 'opp', s: 'stores', w: 'turn', l: 'last', t: 'time' });

// A key pressed on the game screen showing m (app.js): the board read, or
// the help opened.
/** @param {import('./model.js').GameState} m @param {string} key */
export function pressed(m, key) {
  const what = READ_KEYS[key.toLowerCase()];
  return what ? hear(m, what) : key === '?' ? openKeys(m.kind) : Promise.resolve();
}

// Whose row "your row" is: the player's; with two players on this device
// the side to move's; for a spectator the row at the bottom.
/** @param {import('./model.js').GameState} m */
function nearSide(m, f) {
  return mySide(m) || (m.mode === 'local' ? f.shown.game.turn : f.near);
}

// A row in sowing order: "a: 4, b: 0, …"; Togyz holes with their
// traditional names where the language has them, a tuzdyk said as one.
// counts: every pit's seeds in the kind's order; tuzdyks: the pit ids
// that are tuzdyks.
/** @param {string} kind @param {number[]} counts @param {string[]} tuzdyks @param {string} side */
function rowWords(kind, counts, tuzdyks, side) {
  const ids = pitIds(kind), row = rowOf(kind);
  const from = side === 'south' ? 0 : row;
  const items = [];
  for (let i = from; i < from + row; i++) {
    const pit = pitLabel(ids[i], kind);
    // ({name}: Togyz's in Kazakh and Russian, togyz.read.pit.)
    items.push(tIn(kind, tuzdyks.includes(ids[i]) ? 'read.pit.tuzdyk' : 'read.pit', { pit, n: counts[i] || 0, name: holeName(pit) }));
  }
  return items.join(', ');
}

// The rows of the position f shows.
function rowText(f, side) {
  const g = f.shown.game, ids = pitIds(f.kind), row = rowOf(f.kind);
  // The tuzdyks as pit ids (each sits in the opponent's row).
  const tz = g.tuzdyk || {};
  return rowWords(f.kind, g.pits, [tz.south ? ids[row + tz.south - 1] : '', tz.north ? ids[tz.north - 1] : ''], side);
}

// The sentence a reading key says about a panel's board (what: a value
// of READ_KEYS): its rows and stores, whose move (or how it ended), the
// last move marked, and that it has no clock.
/** @param {import('./board.js').Board} board @param {string} what */
export function readPanel(board, what) {
  const kind = board.kind, near = board.me || board.view;
  const sideWord = (s) => tIn(kind, `side.${s}`);
  const who = { kind, names: null };
  switch (what) {
  case 'row':
  case 'opp': {
    const side = what === 'row' ? near : other(near);
    return t(board.me === side ? 'read.row.yours' : 'read.row', { pits: rowWords(kind, board.counts, [board.tuzdyk.south || '', board.tuzdyk.north || ''], side), side: sideWord(side) });
  }
  case 'stores':
    return ['south', 'north'].map((s) => tIn(kind, 'store.label', { side: sideWord(s), n: board.captured[s] })).join('. ') + '.';
  case 'turn':
    if (board.over) return resultText(board.over, board.me, who);
    if (!board.me) return t('turn.side', { side: sideWord(board.turn) });
    return board.turn === board.me ? t('announce.turn') : t('turn.theirs', { side: sideWord(board.turn) });
  case 'last':
    return board.last ? moveSaid(board.last, moverOf(board.last.pit), board.me, who) : t('read.last.none');
  case 'time': return t('read.time.panel');
  default: return '';
  }
}

// The lessons' and the puzzles' panels (learn.js, puzzles.js): the
// reading keys read their board (board.js's Board: its kind, counts,
// stores, the player's side or the one at the bottom, the side to move,
// the last move), said in a live region inside the panel (a modal dialog
// hides the page's own from screen readers); ? opens the keys' help over
// the panel. (ev: the key pressed in the panel, its dialog; none in a
// text field.)
/** @param {import('./board.js').Board} board @param {KeyboardEvent} ev */
export async function readBoard(board, ev) {
  const target = /** @type {HTMLElement} */ (ev.target);
  const panel = /** @type {HTMLElement} */ (target.closest('dialog'));
  if (!panel || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
  if (ev.key === '?') { await openKeys(board.kind, true); return; }
  const what = READ_KEYS[ev.key.toLowerCase()];
  if (!what) return;
  await loadPart('keyboard');
  const text = readPanel(board, what);
  let live = /** @type {HTMLElement | null} */ (panel.querySelector('.ear-live'));
  if (!live) {
    live = document.createElement('div');
    live.className = 'ear-live sr-only';
    live.setAttribute('aria-live', 'polite');
    live.setAttribute('aria-relevant', 'additions');
    panel.append(live);
  }
  // A node of its own for each sentence, as ui.js's announce.
  const p = document.createElement('p');
  p.textContent = text;
  live.replaceChildren(p);
}

// A time left in words: "4 minutes 5 seconds"; a correspondence clock's
// days and hours as the clock shows them.
function timeWords(ms, kind) {
  if (kind === 'correspondence' && ms >= 3600000) return formatClock(ms, kind);
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), min = Math.floor((s % 3600) / 60), sec = s % 60;
  const out = [];
  if (h) out.push(t('read.hours', { n: h }));
  if (min) out.push(t('read.minutes', { n: min }));
  if (sec || !out.length) out.push(t('read.seconds', { n: sec }));
  return out.join(' ');
}

// The sentence a reading key says about the state m shows (what: a value
// of READ_KEYS).
/** @param {import('./model.js').GameState} m @param {string} what */
export function readOut(m, what) {
  const f = facts(m);
  const who = { kind: f.kind, names: f.names };
  const g = f.shown.game;
  const near = nearSide(m, f);
  switch (what) {
  case 'row':
  case 'opp': {
    const side = what === 'row' ? near : other(near);
    const pits = rowText(f, side);
    if (f.me) return t(side === f.me ? 'read.row.yours' : 'read.row.theirs', { pits, side: nameAndSide(who, side) });
    return t('read.row', { pits, side: nameAndSide(who, side) });
  }
  case 'stores':
    return ['south', 'north'].map((s) => tIn(f.kind, 'store.label', { side: nameAndSide(who, s), n: g.captured[s] })).join('. ') + '.';
  case 'turn':
    if (f.st.game.over) return resultSentence(f.st, f.me, f.kind);
    if (f.me) return f.st.game.turn === f.me ? t('announce.turn') : t('turn.theirs', { side: nameAndSide(who, f.st.game.turn) });
    return t('turn.side', { side: nameAndSide(who, f.st.game.turn) });
  case 'last': {
    const last = f.shown.last;
    return last ? moveSaid(last, moverOf(last.pit), f.me, who) : t('read.last.none');
  }
  case 'time': {
    const c = clockNow(m);
    if (!c) return t('read.time.none');
    return ['south', 'north'].map((s) => t(c.running === s && !f.st.game.over ? 'read.time.running' : 'read.time',
      { side: f.me === s ? t('read.you') : nameAndSide(who, s), time: timeWords(c.left[s], c.kind) })).join('. ') + '.';
  }
  default: return '';
  }
}

// Says what a reading key asks for, once its words are here.
/** @param {import('./model.js').GameState} m @param {string} what */
export async function hear(m, what) {
  await loadPart('keyboard');
  if (m && m.state) announce(readOut(m, what));
}

// Where the focus was when the help opened.
/** @type {HTMLElement | null} */
let backTo = null;

// The help's style sheet (ear.css, beside index.html), once: resolves
// when it is there (or could not be had: the help still works).
function loadStyles() {
  if (document.getElementById('ear-css')) return Promise.resolve();
  const l = document.createElement('link');
  l.id = 'ear-css';
  l.rel = 'stylesheet';
  l.href = new URL('ear.css', document.baseURI).href;
  const done = new Promise((res) => { l.onload = l.onerror = () => res(undefined); });
  document.head.append(l);
  return done;
}

// The points of a real-time clock at which the player's own time left is
// said (the live region), each once a move, when the clock passes it: not
// every second.
export const SAY_AT = Object.freeze([60000, 30000, 10000]);

// The point of SAY_AT passed between two readings of the same clock in
// the same move (before: its time then, ms: now), or null.
export function pointPassed(before, ms) {
  return SAY_AT.find((p) => before >= p && ms < p && ms > 0) || null;
}

// "One minute left on your clock.", "30 seconds left on your clock."
export const pointText = (p) => (p === 60000 ? t('clock.warn.min') : t('clock.warn.sec', { n: p / 1000 }));

// The player's own clock at the last tick: {at: game_number:ply, ms}.
let lastTick = { at: '', ms: 0 };

// A tick of the room's clocks (clock.js's scheduleClock): the player's own
// time said when it passes a point of SAY_AT.
/** @param {import('./model.js').GameState} m */
export async function lowTime(m) {
  const c = clockNow(m), me = m.online.seat;
  if (!c || c.kind !== 'realtime' || c.running !== me || c.frozen) return;
  const at = `${m.state.game_number}:${m.state.moves.length}`;
  const p = lastTick.at === at ? pointPassed(lastTick.ms, c.left[me]) : null;
  lastTick = { at, ms: c.left[me] };
  if (!p) return;
  await loadPart('keyboard');
  announce(pointText(p));
}

// The keyboard's help: a modal dialog listing the keys, in the page's
// language and the game's words, made when first opened; the focus comes
// back where it was when it closes.
// (panel: over the lessons' or the puzzles' panel, whose board has no
// clock and no moves to step through.)
/** @param {string} kind @param {boolean} [panel] */
export async function openKeys(kind, panel = false) {
  await Promise.all([loadPart('keyboard'), loadStyles()]);
  let dlg = $('keys');
  if (!dlg) {
    dlg = document.createElement('dialog');
    dlg.id = 'keys';
    dlg.className = 'confirm keys';
    dlg.setAttribute('aria-labelledby', 'keys-title');
    dlg.addEventListener('close', () => { if (backTo && backTo.isConnected) backTo.focus(); });
    document.body.appendChild(dlg);
  }
  const tk = (key, p) => tIn(kind, key, p);
  const head = document.createElement('h2');
  head.id = 'keys-title';
  head.textContent = t('keys.title');
  const intro = document.createElement('p');
  intro.textContent = t(panel ? 'keys.intro.panel' : 'keys.intro');
  const list = document.createElement('dl');
  const first = pitLabel(pitIds(kind)[0], kind), lastPit = pitLabel(pitIds(kind)[rowOf(kind) - 1], kind);
  const rows = [
    [`${first}–${lastPit}`, tk('keys.play', { first, last: lastPit })],
    ...Object.entries(READ_KEYS).map(([k, what]) => [k, tk(panel && what === 'time' ? 'keys.time.panel' : `keys.${what}`)]),
    ...(panel ? [] : [['← →', t('keys.review')]]),
    ['?', t('keys.help')],
  ];
  for (const [key, what] of rows) {
    const dt = document.createElement('dt');
    const kbd = document.createElement('kbd');
    kbd.textContent = key;
    dt.append(kbd);
    const dd = document.createElement('dd');
    dd.textContent = what;
    list.append(dt, dd);
  }
  const form = document.createElement('form');
  form.method = 'dialog';
  const close = document.createElement('button');
  close.type = 'submit';
  close.className = 'primary';
  close.textContent = t('keys.close');
  form.append(close);
  dlg.replaceChildren(head, intro, list, form);
  if (!dlg.open) {
    backTo = /** @type {HTMLElement | null} */ (document.activeElement);
    dlg.showModal();
    close.focus();
  }
}
