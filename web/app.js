// app.js: the entry point and the root of the module graph: loads the
// engines, wires each part of the page once, names the draw pass, and opens
// the start page, a room, a club event, the local game or a record.
// @ts-check
import { loadEngine } from './engine.js';
import { loadTogyz } from './togyz.js';
import { kindRec } from './kinds.js';
import { t, initLang, wireLang, applyStatic } from './i18n.js';
import { loadFailed, dialogOpen, shownScreen } from './ui.js';
import { model } from './model.js';
import { renderAll } from './render.js';
import { setDraw, requestRedraw } from './redraw.js';
import { wireBoard, playable, disarm, finishMove, keepFocus } from './table.js';
import { wireActions } from './actions.js';
import { wireConnLine } from './conn-line.js';
import { wireRecord } from './record.js';
import { startOnline, playOnline, wireOnline } from './online.js';
import { startLocal, playLocal } from './local.js';
import { reviewStep, reviewTo, wireReview } from './review.js';
import { showStart, wireStart, redrawStart, startKind } from './start.js';
import { wireTouch } from './touch.js';
import { wireStudy, startRecord } from './study.js';
import { wireAnalysis } from './analysis.js';
import { startOffline } from './offline.js';
import { hooks } from './hooks.js';
import { wireLearn, drawLearn } from './learn.js';
import { wirePuzzles, drawPuzzles } from './puzzles.js';

// A pit clicked, tapped or typed.
function onPlay(letter) {
  if (!model || !model.state || model.review !== null || model.mode === 'record') return;
  if (model.mode === 'local') playLocal(letter);
  else playOnline(letter);
}

// A pit hovered or focused (null: left): where its last seed would land.
function onPreview(letter) {
  if (!model || !model.state) return;
  // No timeline (a record the engine refuses): no preview.
  const p = letter && model.timeline ? model.timeline.preview(letter) : null;
  const st = model.state;
  model.preview = p && !p.error ? { at: `${st.game_number}:${st.moves.length}`, move: p.move, state: p.state } : null;
  requestRedraw();
}

function onKey(ev) {
  if (!model || !model.state || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = (ev.target && ev.target.tagName) || '';
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || dialogOpen()) return;
  if (ev.target && ev.target.closest && ev.target.closest('dialog')) return;
  const g = model.state.game;
  // ←/→ step through the game, also while it is played (the live position
  // is the last step; a move that comes meanwhile is added to it); during
  // play Esc and End go back to it at once.
  if ((ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') && model.state.moves.length) {
    reviewStep(ev.key === 'ArrowLeft' ? -1 : 1);
    ev.preventDefault();
    return;
  }
  if ((ev.key === 'Escape' || ev.key === 'End') && model.review !== null) {
    reviewTo(model.state.moves.length);
    ev.preventDefault();
    return;
  }
  // The board read on demand, and the keys' help: ear.js's READ_KEYS and
  // ?, loaded then (tests/web/ear.test.mjs checks the two lists agree).
  if (/^[rostwl?]$/i.test(ev.key)) {
    ev.preventDefault();
    const m = model;
    import('./ear.js').then((ear) => ear.pressed(m, ev.key));
    return;
  }
  // A pit of the side to move: Oware's letter in either case, Togyz's hole
  // digit (kinds.js, as the lessons and puzzles read keys).
  const letter = kindRec(model.kind).pitForKey(ev.key, g.turn);
  if (letter && playable(letter)) {
    ev.preventDefault();
    onPlay(letter);
  }
}

// The game of the screen shown: its state's, else the start page's (its
// controller's), on which the lessons and the puzzles open. The static
// texts of another language follow it (langKind), on a club event's page
// its event's (its controller's, in event.js, loaded apart: a promise).
const kindNow = () => (model ? model.kind : startKind());
const langKind = () => (shownScreen() === 'event' ? import('./event.js').then((m) => m.eventKind()) : kindNow());

function wire() {
  setDraw(() => renderAll(model), keepFocus);
  wireBoard({ onPlay, onPreview });
  wireReview({ finishMove, shown: () => model });
  wireTouch(disarm);
  wireLang(() => {
    if (model) requestRedraw();
    else if (shownScreen() === 'start') redrawStart();
    else if (shownScreen() === 'event') import('./event.js').then((m) => m.redrawEvent());
    drawLearn();
    drawPuzzles();
  }, langKind);
  wireActions();
  wireConnLine();
  wireRecord(() => model);
  wireOnline({ backToStart: showStart });
  wireStudy(() => model);
  wireAnalysis(() => model);
  wireStart();
  wireLearn(kindNow);
  wirePuzzles(kindNow);
  document.addEventListener('keydown', onKey);
  document.getElementById('keys-open').addEventListener('click', () => {
    import('./ear.js').then((ear) => ear.openKeys(kindNow()));
  });
}

async function main() {
  await initLang();
  applyStatic();
  wire();
  try {
    await Promise.all([loadEngine(), loadTogyz()]);
  } catch (e) {
    loadFailed(t('start.error.engine'));
    return;
  }
  const params = new URLSearchParams(window.location.search);
  const room = params.get('room');
  const event = params.get('event');
  if (room) startOnline(room);
  else if (event) {
    // The event's page loads only when asked for (the start page's weight
    // stays as it was).
    await (await import('./event.js')).startEvent(event);
  }
  else if (params.has('local')) startLocal();
  else if (params.has('record') && startRecord()) { /* a record opened for review */ }
  else showStart();
  startOffline(() => !!(model && model.mode === 'online' && model.state && !model.state.game.over));
  hooks.ready = true;
}

main();
