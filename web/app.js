// app.js: the entry point: loads the engine, wires each part, opens the start page, a room or the local game.
import { loadEngine } from './engine.js';
import { loadTogyz } from './togyz.js';
import { getKind, pitIds, rowOf } from './kind.js';
import { t, initLang, setLang, getLang, applyStatic } from './i18n.js';
import { Board } from './board.js';
import { $ } from './ui.js';
import { model, board, setBoard } from './model.js';
import { renderAll } from './render.js';
import { setDraw, requestRedraw } from './redraw.js';
import { startOnline, playOnline, wireOnline } from './online.js';
import { startLocal, playLocal, wireLocal } from './local.js';
import { reviewStep, wireReview } from './review.js';
import { showStart, wireStart } from './start.js';
import { tapPreview, wireTouch } from './touch.js';
import { wireStudy, startRecord } from './study.js';
import { wireAnalysis } from './analysis.js';
import { wireEditor, showEditor } from './editor.js';

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
  if (tag === 'INPUT' || tag === 'TEXTAREA' || $('confirm').open) return;
  const g = model.state.game;
  if ((g.over || model.mode === 'record') && (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight')) {
    reviewStep(ev.key === 'ArrowLeft' ? -1 : 1);
    ev.preventDefault();
    return;
  }
  let letter;
  if (getKind() === 'togyz') {
    // Digits 1-9 pick a hole of the side to move (as Kazakh records number them).
    if (ev.key.length !== 1 || !/[1-9]/.test(ev.key)) return;
    letter = pitIds()[(g.turn === 'south' ? 0 : rowOf()) + Number(ev.key) - 1];
  } else {
    if (ev.key.length !== 1 || !/[a-f]/i.test(ev.key)) return;
    // Letters pick a pit of the side to move, whatever the case typed.
    letter = g.turn === 'south' ? ev.key.toLowerCase() : ev.key.toUpperCase();
  }
  if (board.legal.has(letter)) {
    ev.preventDefault();
    onPlay(letter);
  }
}

function wire() {
  setDraw(renderAll);
  setBoard(new Board($('board'), {}, { onPlay, onPreview, tapPreview }));
  wireTouch(board);
  $('lang').addEventListener('click', () => {
    setLang(getLang() === 'es' ? 'en' : 'es');
    if (model) requestRedraw();
    else if (!$('start').hidden) showEditor();
  });
  wireOnline({ backToStart: showStart });
  wireLocal();
  wireReview();
  wireStudy();
  wireAnalysis();
  wireEditor();
  wireStart();
  document.addEventListener('keydown', onKey);
}

async function main() {
  initLang();
  applyStatic();
  wire();
  try {
    await Promise.all([loadEngine(), loadTogyz()]);
  } catch (e) {
    $('loading').textContent = t('start.error.engine');
    return;
  }
  const params = new URLSearchParams(window.location.search);
  const room = params.get('room');
  if (room) startOnline(room);
  else if (params.has('local')) startLocal();
  else if (params.has('record') && startRecord()) { /* a record opened for review */ }
  else showStart();
  window.owareReady = true;  // for the browser tests
}

main();
