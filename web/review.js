// review.js: stepping through a finished game (or a record): the review's intents.
import { model, shownPly, dropIdlePreview } from './model.js';
import { requestRedraw } from './redraw.js';

// Shows the position after ply plies (the last one: the live position).
export function reviewTo(ply) {
  const n = model.state.moves.length;
  const at = Math.max(0, Math.min(n, ply));
  model.review = at === n ? null : at;
  dropIdlePreview();
  requestRedraw();
}

// One ply back (-1) or forward (+1).
export function reviewStep(delta) { reviewTo(shownPly() + delta); }
