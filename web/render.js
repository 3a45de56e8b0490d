// render.js: renderAll works out once what every part needs, then has each part of the screen draw itself.
// @ts-check
import { setGameHeading, markGameState } from './ui.js';
import { facts } from './model.js';
import { drawBoard, drawPlayers } from './table.js';
import { drawStatus, drawNote } from './status.js';
import { drawShare, shareShown, drawFromPosition, drawOffer, drawActions, drawOver } from './actions.js';
import { drawRecord } from './record.js';
import { drawConn, drawConnBare } from './conn-line.js';
import { drawClockLine } from './clock.js';
import { drawTouch } from './touch.js';
import { drawAnalysis } from './analysis.js';
import { drawPlayHere } from './study.js';
import { drawChat, drawAskName } from './chat.js';
import { drawAlertButtons } from './alerts.js';
import { setData } from './dom.js';
import { drawUpdate } from './offline.js';
import { drawLearnOver, drawLearnLine } from './learn.js';

// The draw pass: reads the state of the screen shown (model: null on the
// start page), writes only the page (never the state, a worker or a timer).
/** @param {import('./model.js').GameState | null} model */
export function renderAll(model) {
  if (!model) return;
  markGameState(!!model.state);
  if (!model.state) {
    // An online room before its first state: only the connection line.
    if (model.mode === 'online') drawConnBare(model);
    return;
  }
  const f = facts(model);
  setData(document.body, 'mode', model.mode);
  setData(document.body, 'seat', model.online.seat || '');
  drawHeading(f);
  setData(document.body, 'kind', model.kind);
  drawBoard(f);
  drawPlayers(f);
  drawClockLine(model, shareShown(f));
  drawFromPosition(f);
  drawStatus(f);
  drawNote(f);
  drawShare(f);
  drawAskName(f);
  drawOffer(f);
  drawActions(f);
  drawOver(f);
  drawRecord(f);
  drawAnalysis(f);
  drawPlayHere(f);
  drawTouch(f);
  drawConn(model);
  drawChat(f);
  drawAlertButtons(f);
  drawUpdate();
  drawLearnLine(f);
  drawLearnOver(f);
}

// The screen's (visually hidden) level-one heading: what is played here.
/** @param {import('./model.js').Facts} f */
function drawHeading(f) {
  const { model } = f;
  let key = 'screen.local';
  if (model.mode === 'record') key = 'screen.record';
  else if (f.online) key = model.online.seat === 'spectator' ? 'screen.watch' : 'screen.online';
  else if (model.local.ai) key = 'screen.ai';
  setGameHeading(key);
}
