// review.js: the record card's controls: stepping through a finished game (or a record).
import { $ } from './ui.js';
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

export function wireReview() {
  $('rv-first').addEventListener('click', () => reviewTo(0));
  $('rv-prev').addEventListener('click', () => reviewStep(-1));
  $('rv-next').addEventListener('click', () => reviewStep(1));
  $('rv-last').addEventListener('click', () => reviewTo(model.state.moves.length));
  $('moves').addEventListener('click', (ev) => {
    const b = ev.target.closest('button.mv');
    if (b && !b.disabled) reviewTo(Number(b.dataset.ply));
  });
}
