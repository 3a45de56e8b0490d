// table.js: draws the board (position, sowing, responding pits, last move) and the two players' rows.
import { t } from './i18n.js';
import { getKind } from './kind.js';
import { $ } from './ui.js';
import { model, board, mySide } from './model.js';
import { sideName } from './texts.js';
import { drawPlayerClock } from './clock.js';
import { displayName } from './names.js';
import { requestRedraw } from './redraw.js';

// What the board shows of the live game: the game_number:ply it shows
// (null: none, or a position reviewed), and the live position drawn last
// with its key: a move from it is animated.
let shownKey = null;
let prevGame = null;
let prevKey = null;

// A move shown at once, before the server confirms it: after is animated
// from before (the key the board then shows: game_number:ply).
export function playShown(key, before, last, after) {
  shownKey = key;
  prevGame = after;
  prevKey = key;
  board.setLegal([]);
  board.markLast(last);
  board.animate(before, last, after).then(() => { if (model && model.state) requestRedraw(); });
}

// The move shown at once was refused: the next draw shows the state as it is.
export function forgetShown() { shownKey = null; }

// Draws the board for the facts f of render.js. Returns the promise of a
// sowing animation it started (the caller draws again when it ends), or null.
export function drawBoard(f) {
  const { st, g } = f;
  board.setKind(getKind());
  board.setView(f.near);
  board.me = f.me;
  // Stores: left is the far player's, right the near player's.
  board.stores = { [f.far]: document.querySelector('.store-left'), [f.near]: document.querySelector('.store-right') };

  let anim = null;
  if (f.reviewing) {
    board.finish();
    board.show(f.shown.game);
    shownKey = null;
  } else {
    const key = `${st.game_number}:${st.moves.length}`;
    if (shownKey !== key) {
      const prev = prevGame;
      const step = prev && prevKey === `${st.game_number}:${st.moves.length - 1}` && st.last;
      shownKey = key;
      if (step) anim = board.animate(prev, st.last, g);
      else { board.finish(); board.show(g); }
    } else if (!board.anim) {
      board.show(g);
    }
    prevGame = g;
    prevKey = key;
  }
  board.markLast(f.shown.last);

  board.setLegal(f.canMove && !board.anim ? g.legal : []);
  if (!f.canMove && model.preview) { model.preview = null; board.markPreview(null); }
  $('board').classList.toggle('my-turn', f.canMove);
  return anim;
}

// The players: the one nearest is at the bottom.
export function drawPlayers(f) {
  drawPlayer($('player-bottom'), f.near, f);
  drawPlayer($('player-top'), f.far, f);
}

function drawPlayer(el, side, f) {
  const me = mySide();
  const seat = f.seats[side];
  // A player's name when the seat has one (online), else the side.
  let name = displayName(side);
  if (me === side) name = t('seat.you', { side: displayName(side) });
  else if (model.local.ai && model.local.ai.side === side) name = t('ai.name', { side: sideName(side), level: t(`ai.level.${model.local.ai.level}`) });
  el.querySelector('.player-name').textContent = name;
  // While this page is offline it knows nobody's presence.
  const known = f.online && model.online.conn === 'open';
  const here = known && seat.taken && seat.connected;
  let status = '';
  if (known) {
    if (!seat.taken) status = t(f.g.over ? 'seat.empty' : 'seat.waiting');  // over: nobody will come
    else status = seat.connected ? t('seat.connected') : t('seat.disconnected');
  }
  el.querySelector('.player-status').textContent = status;
  el.querySelector('.player-score').textContent = String(f.shown.game.captured[side]);
  el.querySelector('.player-turn').textContent = t('player.turn');
  el.dataset.side = side;
  el.classList.toggle('online', here);
  el.classList.toggle('absent', f.online && !here);
  const started = !f.online || f.bothSeated;
  el.classList.toggle('turn', started && !f.g.over && f.g.turn === side && model.review === null);
  drawPlayerClock(el, side);
}

// The clocks alone, between states (clock.js ticks them).
export function drawClocks() {
  drawPlayerClock($('player-bottom'), $('player-bottom').dataset.side);
  drawPlayerClock($('player-top'), $('player-top').dataset.side);
}
