// record.js: the record card: the move list, the review bar and the record's copy and download: drawn, and wired to review.js and study.js.
// @ts-check
import { $ } from './ui.js';
import { shownPly } from './model.js';
import { kindRec } from './kinds.js';
import { t, tIn } from './i18n.js';
import { seatName, nameAndSide } from './names.js';
import { analysedPly, MARKS } from './analysis.js';
import { reviewTo, reviewStep, reviewEnd } from './review.js';
import { copyRecord, downloadRecord } from './study.js';
import { keyedList, setAttr, setDisabled, setHidden, setText } from './dom.js';

/** @param {import('./model.js').Facts} f */
export function drawRecord(f) {
  const { st } = f;
  drawMoves(f);
  // The move list's header names the players, when they gave names.
  const { model } = f;
  const named = (f.online || model.mode === 'record') && (seatName(f, 'south') || seatName(f, 'north'));
  setHidden($('record-players'), !named);
  // "Ana (South) vs North": a side's name is said once.
  if (named) setText($('record-players'), tIn(f.kind, 'moves.players', { south: nameAndSide(f, 'south'), north: nameAndSide(f, 'north') }));
  // A game in play shows the bar while the player looks back, with the
  // way back to the game.
  const during = f.reviewing && !f.reviewable;
  setHidden($('review'), !((f.reviewable || during) && st.moves.length > 0));
  setHidden($('rv-live'), !during);
  if (!$('review').hidden) {
    const at = shownPly(model);
    for (const id of ['rv-first', 'rv-prev']) setDisabled($(id), at === 0);
    for (const id of ['rv-next', 'rv-last']) setDisabled($(id), at === st.moves.length);
    let pos = at === 0 ? t('review.start') : t('review.position', { n: at, total: st.moves.length });
    if (during) {
      // Whose move it is in the game, as the turn line (hidden now) says.
      const mine = !!f.me && f.g.turn === f.me;
      pos = `${t('review.during', { pos: pos.charAt(0).toLowerCase() + pos.slice(1) })}${mine ? ` ${t('review.during.yours')}` : ''}`;
    }
    setText($('review-pos'), pos);
  }
  setHidden($('record-copy'), st.moves.length === 0);
  // The .ogn download is Oware's (Togyz records are copied as text).
  setHidden($('record-download'), st.moves.length === 0 || !model.timeline || !kindRec(model.timeline.kind).studied);
  // Aualé's OGN writes South's pits in capitals, the board and the list
  // above in small letters: said where the record is offered, so that it
  // can be read against the screen (Togyz records use hole numbers).
  setHidden($('record-case'), $('record-download').hidden);
}

// The move list: a row per move pair, a button per move, kept in place
// (keyed by the pair's number): a new move adds its button, and a button
// drawn stays, with the focus on it.
/** @param {import('./model.js').Facts} f */
function drawMoves(f) {
  const { st } = f;
  const pairs = [];
  for (let i = 0; i < st.moves.length; i += 2) pairs.push(i);
  keyedList($('moves'), pairs, (i) => i / 2 + 1, () => document.createElement('li'), (li, i) => {
    const plies = [];
    for (let k = i; k < Math.min(i + 2, st.moves.length); k++) plies.push(k + 1);
    keyedList(li, plies, (ply) => ply, makeMove, (b, ply) => drawMove(b, ply, f));
  });
  setHidden($('moves-none'), st.moves.length > 0);
}

function makeMove(ply) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'mv';
  b.dataset.ply = String(ply);
  const text = document.createElement('span');
  text.className = 'mv-text';
  const m = document.createElement('span');
  const sr = document.createElement('span');
  sr.className = 'sr-only';
  b.append(text, m, sr);
  return b;
}

// Move ply (1-based) as the list shows it.
function drawMove(b, ply, f) {
  const k = ply - 1;
  const { model } = f;
  const info = model.timeline ? model.timeline.history[k] : null;
  const seeds = info && info.seeds ? ` +${info.seeds}` : '';
  // Togyz: the Kazakh notation ("76", "58X"); Oware: the letter and its capture.
  setText(b.firstChild, (info && info.notation ? info.notation : f.st.moves[k]) + seeds);
  b.classList.toggle('tuzdyk', !!(info && info.tuzdyk));
  b.classList.toggle('slam', !!(info && info.grand_slam));
  // The analysis's judgement: ?! ? ?? (and said to screen readers).
  const an = analysedPly(model, ply);
  const mark = an && MARKS[an.class];
  const [, m, sr] = b.children;
  setHidden(m, !mark);
  setHidden(sr, !mark);
  setAttr(m, 'class', mark ? `an-mark an-${an.class}` : 'an-mark');
  setText(m, mark || '');
  setAttr(m, 'title', mark ? t(`an.class.${an.class}`) : null);
  setText(sr, mark ? ` (${t(`an.class.${an.class}`)})` : '');
  setAttr(b, 'aria-current', ply === shownPly(model) ? 'step' : null);
  // A move tapped shows the position after it, also during play (where
  // the review bar then offers the way back to the game).
  setDisabled(b, !model.timeline);
}

// The review bar's and the record's buttons (shown(): the state of the
// game screen shown, whose record they copy).
/** @param {() => import('./model.js').GameState} shown */
export function wireRecord(shown) {
  $('rv-first').addEventListener('click', () => reviewTo(0));
  $('rv-prev').addEventListener('click', () => reviewStep(-1));
  $('rv-next').addEventListener('click', () => reviewStep(1));
  $('rv-last').addEventListener('click', reviewEnd);
  // Back to the game in play: the focus goes where the next move is made.
  $('rv-live').addEventListener('click', () => {
    reviewEnd();
    setTimeout(() => {
      const pit = /** @type {HTMLElement | null} */ (document.querySelector('#board .pit.legal'));
      if (pit) pit.focus({ preventScroll: true });
    }, 0);
  });
  $('moves').addEventListener('click', (ev) => {
    const b = ev.target.closest('button.mv');
    if (b && !b.disabled) reviewTo(Number(b.dataset.ply));
  });
  $('record-copy').addEventListener('click', () => copyRecord(shown()));
  $('record-download').addEventListener('click', () => downloadRecord(shown()));
}
