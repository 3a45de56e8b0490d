// table.js: draws the board (position, sowing, responding pits, last move) and the two players' rows.
import { t } from './i18n.js';
import { getKind } from './kind.js';
import { $ } from './ui.js';
import { model, board, mySide } from './model.js';
import { sideName } from './texts.js';
import { drawPlayerClock } from './clock.js';
import { displayName } from './names.js';

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
    model.shownKey = null;
  } else {
    const key = `${st.game_number}:${st.moves.length}`;
    if (model.shownKey !== key) {
      const prev = model.prevGame;
      const step = prev && model.prevKey === `${st.game_number}:${st.moves.length - 1}` && st.last;
      model.shownKey = key;
      if (step) anim = board.animate(prev, st.last, g);
      else { board.finish(); board.show(g); }
    } else if (!board.anim) {
      board.show(g);
    }
    model.prevGame = g;
    model.prevKey = key;
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
  else if (model.ai && model.ai.side === side) name = t('ai.name', { side: sideName(side), level: t(`ai.level.${model.ai.level}`) });
  el.querySelector('.player-name').textContent = name;
  // While this page is offline it knows nobody's presence.
  const known = f.online && model.conn === 'open';
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
