// review.js: stepping through a finished game (or a record): the review's
// intents, on the state of the screen shown, which the root hands in.
// @ts-check
import { shownPly, dropIdlePreview } from './model.js';
import { requestRedraw } from './redraw.js';

let finishSowing = () => {};
/** @type {() => import('./model.js').GameState | null} */
let shownState = () => null;
// app.js's: the game board's sowing running, ended at once (table.js), and
// the state of the game screen shown (null on no game screen).
/** @param {{finishMove: () => void, shown: () => import('./model.js').GameState | null}} fx */
export function wireReview({ finishMove, shown }) { finishSowing = finishMove; shownState = shown; }

// Shows the position after ply plies (the last one: the live position).
export function reviewTo(ply) {
  const model = shownState();
  if (!model) return;
  const n = model.state.moves.length;
  const at = Math.max(0, Math.min(n, ply));
  model.review = at === n ? null : at;
  // A sowing running ends first: the board shows the ply reviewed (and the
  // computer's move, which waits for the sowing, may come).
  if (model.review !== null && model.timeline) finishSowing();
  dropIdlePreview(model);
  requestRedraw();
}

// Back to the live position (the last ply).
export function reviewEnd() { reviewTo(Infinity); }

// One ply back (-1) or forward (+1).
export function reviewStep(delta) {
  const model = shownState();
  if (model) reviewTo(shownPly(model) + delta);
}
