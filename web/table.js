// table.js: draws the board (position, sowing, responding pits, last move) and the two players' rows.
// @ts-check
import { t, tIn } from './i18n.js';
import { $ } from './ui.js';
import { Board } from './board.js';
import { tapPreview } from './touch.js';
import { sideName } from './texts.js';
import { drawPlayerClock } from './clock.js';
import { displayName } from './names.js';
import { requestRedraw } from './redraw.js';
import { bestShown } from './analysis.js';
import { setAttr, setData, setText } from './dom.js';
import { notArrived } from './model.js';

let board = null;  // the Board of the game screen

// The game screen's board; onPlay(letter): a pit clicked, tapped or typed;
// onPreview(letter): a pit hovered or focused (null: left).
export function wireBoard({ onPlay, onPreview }) {
  board = new Board($('board'), {}, { onPlay, onPreview, tapPreview });
}

// Whether letter may be played now (a key typed).
export const playable = (letter) => board.legal.has(letter);

// The setting "tap to preview" turned off: a pit tapped once needs no second tap.
export function disarm() { board.arm(null); }

// Draws the board for the facts f of render.js: the position shown (left
// alone while a sowing runs: it ends on the position it was given; a
// review ends it first, review.js), the
// last move, the pits that respond and the marks (preview, hint, best move).
/** @param {import('./model.js').Facts} f */
export function drawBoard(f) {
  board.setKind(f.kind);
  board.setView(f.near);
  board.me = f.me;
  // Stores: left is the far player's, right the near player's.
  board.stores = { [f.far]: document.querySelector('.store-left'), [f.near]: document.querySelector('.store-right') };
  if (!board.anim) board.show(f.shown.game);
  board.markLast(f.shown.last);
  board.setLegal(f.canMove && !board.anim ? f.g.legal : []);
  board.markPreview(f.preview);
  board.markHint(f.hint);
  board.markBest(bestShown(f));
  $('board').classList.toggle('my-turn', f.canMove);
}

// After the draw pass (redraw.js): the keyboard's focus follows the pits
// that respond (Board.keepFocus).
export function keepFocus() { if (board) board.keepFocus(); }

// Resolves once no sowing runs (at once when none does).
export function moveSettled() { return board.settled(); }

// The sowing running stops at its end (a move shown at once was refused).
export function finishMove() { board.finish(); }

// A move played (or shown at once, before the server confirms it): its
// sowing from the position before to the one after; the screen is drawn
// again when it ends. (A move that comes while the player looks back at
// an earlier position is not sown: the controllers ask only while none
// is reviewed.)
export function animateMove(before, last, after) {
  board.animate(before, last, after).then(() => requestRedraw());
}

// A new game starts at the top of the page: the board, and the header
// above it, in view (also after a scroll of a few pixels to reach the
// result's buttons, which left the logo cut).
export function boardIntoView() {
  if (window.scrollY > 0) window.scrollTo(0, 0);
}

// The players: the one nearest is at the bottom.
/** @param {import('./model.js').Facts} f */
export function drawPlayers(f) {
  drawPlayer($('player-bottom'), f.near, f);
  drawPlayer($('player-top'), f.far, f);
}

function drawPlayer(el, side, f) {
  const { model, me } = f;
  const seat = f.seats[side];
  // A player's name when the seat has one (online), else the side.
  let name = displayName(f, side);
  if (me !== side && model.local.ai && model.local.ai.side === side) name = t('ai.name', { side: sideName(side, f.kind), level: t(`ai.level.${model.local.ai.level}`) });
  // The bar cuts a long name: the whole of it in the title, and shown when
  // the name is focused (a tap on a phone).
  const nameEl = el.querySelector('.player-name');
  setText(nameEl, name);
  setAttr(nameEl, 'title', name);
  // "(you)" apart, so that it stays when the name is cut.
  setText(el.querySelector('.player-you'), me === side ? t('seat.you') : '');
  // While this page is offline it knows nobody's presence.
  const known = f.online && model.online.conn === 'open';
  const here = known && seat.taken && seat.connected;
  let status = '';
  if (known) {
    if (!seat.taken) status = t(f.g.over ? 'seat.empty' : 'seat.waiting');  // over: nobody will come
    else if (seat.connected) status = t('seat.connected');
    else status = notArrived(f.st, side) ? t('seat.not_arrived') : t('seat.disconnected');
  }
  setText(el.querySelector('.player-status'), status);
  setText(el.querySelector('.player-score'), String(f.shown.game.captured[side]));
  setText(el.querySelector('.player-turn'), t('player.turn'));
  setData(el, 'side', side);
  el.classList.toggle('online', here);
  el.classList.toggle('absent', f.online && !here);
  const started = !f.online || f.bothSeated;
  el.classList.toggle('turn', started && !f.g.over && f.g.turn === side && model.review === null);
  drawPlayerClock(el, side, model);
}

// The clocks alone, between states (clock.js ticks them).
/** @param {import('./model.js').GameState} model */
export function drawClocks(model) {
  drawPlayerClock($('player-bottom'), $('player-bottom').dataset.side, model);
  drawPlayerClock($('player-top'), $('player-top').dataset.side, model);
}
