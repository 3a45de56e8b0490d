// review.js: stepping through a finished game (or a record): the review's intents.
// @ts-check
import { model, shownPly, dropIdlePreview } from './model.js';
import { requestRedraw } from './redraw.js';

let finishSowing = () => {};
// app.js's: the game board's sowing running, ended at once (table.js).
export function wireReview({ finishMove }) { finishSowing = finishMove; }

// Shows the position after ply plies (the last one: the live position).
export function reviewTo(ply) {
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
export function reviewEnd() { reviewTo(model.state.moves.length); }

// One ply back (-1) or forward (+1).
export function reviewStep(delta) { reviewTo(shownPly(model) + delta); }
