// render.js: renderAll works out once what every part needs, then has each part of the screen draw itself.
import { $, setGameHeading } from './ui.js';
import { model, mySide, viewSide, other } from './model.js';
import { drawBoard, drawPlayers } from './table.js';
import { drawStatus, drawNote } from './status.js';
import { drawShare, drawOffer, drawActions, drawOver } from './actions.js';
import { drawRecord } from './record.js';
import { drawConn } from './conn-line.js';
import { drawClockLine } from './clock.js';
import { drawTouch } from './touch.js';
import { drawAnalysis } from './analysis.js';
import { drawPlayHere } from './study.js';
import { requestRedraw } from './redraw.js';

// The seats of a local game: both taken and present.
const LOCAL_SEATS = { south: { taken: true, connected: true }, north: { taken: true, connected: true } };

export function renderAll() {
  if (!model || !model.state) return false;
  const f = facts();
  $('game').classList.add('has-state');
  document.body.dataset.mode = model.mode;
  document.body.dataset.seat = model.online.seat || '';
  drawHeading(f);
  const anim = drawBoard(f);
  if (anim) anim.then(() => requestRedraw());
  drawPlayers(f);
  drawClockLine();
  drawStatus(f);
  drawNote(f);
  drawShare(f);
  drawOffer(f);
  drawActions(f);
  drawOver(f);
  drawRecord(f);
  drawAnalysis(f);
  drawPlayHere(f);
  drawTouch(f);
  drawConn();
  return true;
}

// The screen's (visually hidden) level-one heading: what is played here.
function drawHeading(f) {
  let key = 'screen.local';
  if (model.mode === 'record') key = 'screen.record';
  else if (f.online) key = model.online.seat === 'spectator' ? 'screen.watch' : 'screen.online';
  else if (model.local.ai) key = 'screen.ai';
  setGameHeading(key);
}

// What the parts share: the state, who is who, and what is shown.
function facts() {
  const st = model.state;
  const g = st.game;
  const online = model.mode === 'online';
  const me = mySide();
  const seats = st.seats || LOCAL_SEATS;
  const bothSeated = seats.south.taken && seats.north.taken;
  const connected = !online || model.online.conn === 'open';
  // Review shows a ply of the timeline; without one, the live position.
  const reviewing = model.review !== null && !!model.timeline;
  const shown = reviewing ? model.timeline.at(model.review) : { game: g, last: st.last };
  // Whether the pits respond.
  const record = model.mode === 'record';  // a record opened for review: nobody moves
  let canMove = false;
  if (!reviewing && !g.over && !record) {
    if (!online) canMove = !model.local.ai || g.turn === me;
    else canMove = me === g.turn && bothSeated && connected && !model.online.pending;
  }
  const near = viewSide();
  return {
    st,                 // the protocol state
    g,                  // st.game: the live position
    online,
    me,                 // mySide()
    opp: me ? other(me) : null,
    seats,
    bothSeated,
    connected,          // online: the socket is open (local: always)
    reviewing,
    reviewable: g.over || record,  // the moves can be stepped through (and analysed)
    shown,              // {game, last}: the position on the board and the move that led to it
    canMove,
    near,               // the side at the bottom
    far: other(near),
  };
}
