// analysis.js: the engine's analysis of a finished game or a record, run in the search's worker (web/ai-worker.js): progress, the evaluation graph, marks, the best move and the summary.
// @ts-check
import { Computer, ANALYSIS_NODES } from './ai.js';
import { kindRec } from './kinds.js';
import { t, fmtNum } from './i18n.js';
import { $, announce } from './ui.js';
import { shownPly } from './model.js';
import { displayName, sideWords } from './names.js';
import { requestRedraw } from './redraw.js';
import { reviewTo } from './review.js';
import { keyedList, setAttr, setHidden, setText } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
// The marks of the move list, by class.
export const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

let cpu = null;
let runId = 0;
// The engine's line is shown to its first LINE_SHOWN moves; the button
// under it shows the whole line (a choice of this page, not of a game).
const LINE_SHOWN = 6;

/** @typedef {import('./model.js').GameState} GameState */

// What identifies the game analysed: its start and moves.
/** @param {GameState} model */
function keyOf(model) {
  return JSON.stringify([model.timeline ? model.timeline.start : null, model.state.moves]);
}

// The analysis of the game shown ({plies, total, running, done}), or null
// (none, or one of another game).
/** @param {GameState | null} model */
function current(model) {
  const a = model && model.study.analysis;
  return a && model.state && a.key === keyOf(model) ? a : null;
}

// The analysis of ply k (1-based) of the game of model, or null.
/** @param {GameState} model */
export function analysedPly(model, k) {
  const a = current(model);
  return a ? a.plies[k - 1] || null : null;
}

/** @param {GameState | null} model */
function start(model) {
  if (!model || !model.timeline) return;
  stop(model);
  const id = ++runId;
  const moves = model.state.moves.slice();
  const a = { key: keyOf(model), plies: [], total: moves.length, running: true, done: false };
  model.study.analysis = a;
  if (!cpu) cpu = new Computer();
  announce(t('an.started'));
  requestRedraw();
  cpu.analyse({
    position: model.timeline.start, moves, nodes: ANALYSIS_NODES,
    onPly: (ply) => {
      if (id !== runId) return;
      a.plies.push(ply);
      requestRedraw();
    },
  }).then(() => {
    if (id !== runId) return;
    a.running = false;
    a.done = true;
    announce(t('an.finished'));
    requestRedraw();
  }, (e) => {
    if (id !== runId) return;
    a.running = false;
    if (!(e && e.cancelled)) a.error = true;
    requestRedraw();
  });
}

// Stops a running analysis: what it judged so far stays.
/** @param {GameState | null} model */
function stop(model) {
  const a = model && model.study.analysis;
  if (cpu && a && a.running) cpu.cancel();
  runId++;
  if (a) a.running = false;
}

const fmt = (v) => (v > 0 ? '+' : v < 0 ? '−' : '') + fmtNum(Math.abs(v), 1);

// The evaluation of the position after k plies (South's view, seeds).
function evalAt(plies, k) {
  if (k < plies.length) return plies[k].eval_before;
  return plies[k - 1].eval_after;
}

// Per side: the count of each class and the average loss.
function summary(plies) {
  const out = {};
  for (const side of ['south', 'north']) {
    const mine = plies.filter((p) => p.side === side);
    const count = (c) => mine.filter((p) => p.class === c).length;
    const loss = mine.reduce((s, p) => s + p.loss, 0);
    out[side] = { moves: mine.length, inaccuracy: count('inaccuracy'), mistake: count('mistake'),
      blunder: count('blunder'), average: mine.length ? loss / mine.length : 0 };
  }
  return out;
}

function el(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) setAttr(e, k, String(v));
  return e;
}

// The graph: South's advantage along the game (up: South ahead), a dot on
// each mistake and blunder, a line at the shown ply. A click shows that ply.
// The box keeps what the graph it holds shows (data-key): it is drawn
// again only when that changes.

/** @param {any} a @param {number} at @param {import('./names.js').Who} names */
function drawGraph(a, at, names) {
  const box = $('an-graph');
  const W = Math.max(200, Math.round(box.clientWidth || 600)), H = 110, mid = H / 2;
  const n = a.total;
  const known = a.plies.length;
  const key = [a.key, W, n, known, at, t('an.graph')].join('|');
  if (key === box.dataset.key && box.firstChild) return;
  box.dataset.key = key;
  const x = (k) => (n ? (k / n) * (W - 8) + 4 : 4);
  // tanh keeps small differences visible and big ones inside the box.
  const y = (v) => mid - (mid - 6) * Math.tanh(v / 8);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', class: 'an-svg' });
  const title = el('title', {});
  setText(title, t('an.graph'));
  svg.appendChild(title);
  svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: H, class: 'an-bg' }));
  if (known) {
    const pts = [];
    for (let k = 0; k <= known; k++) pts.push(`${x(k).toFixed(1)},${y(evalAt(a.plies, k)).toFixed(1)}`);
    svg.appendChild(el('path', { d: `M${x(0)},${mid} L${pts.join(' L')} L${x(known)},${mid} Z`, class: 'an-area' }));
    svg.appendChild(el('polyline', { points: pts.join(' '), class: 'an-line' }));
  }
  svg.appendChild(el('line', { x1: 0, y1: mid, x2: W, y2: mid, class: 'an-mid' }));
  // The axes in words: who is ahead up and down, and the moves along.
  const label = (x0, y0, text, anchor = 'start') => {
    const e = el('text', { x: x0, y: y0, class: 'an-label', 'text-anchor': anchor });
    setText(e, text);
    svg.appendChild(e);
  };
  label(6, 13, t('an.axis.ahead', sideWords(names, 'south')));
  label(6, H - 5, t('an.axis.ahead', sideWords(names, 'north')));
  if (n) label(W - 6, H - 5, t('an.axis.moves', { n }), 'end');
  a.plies.forEach((p, i) => {
    if (p.class === 'mistake' || p.class === 'blunder') {
      svg.appendChild(el('circle', { cx: x(i + 1), cy: y(evalAt(a.plies, i + 1)), r: 4, class: `an-dot an-${p.class}` }));
    }
  });
  svg.appendChild(el('line', { x1: x(at), y1: 0, x2: x(at), y2: H, class: 'an-at' }));
  svg.addEventListener('click', (ev) => {
    const r = svg.getBoundingClientRect();
    const k = Math.round(((ev.clientX - r.left) / r.width * W - 4) / (W - 8) * n);
    reviewTo(Math.max(0, Math.min(n, k)));
  });
  box.replaceChildren(svg);
}

/** @param {any} p @param {import('./names.js').Who} names */
function provenText(p, names) {
  if (!p || !p.winner || p.plies <= 0) return '';
  if (p.winner === 'draw') return t('an.proven.draw');
  return t('an.proven', { ...sideWords(names, p.winner), n: p.plies });
}

// The engine's evaluations stop at 24 seeds (the worker's clamp): there a
// position is won, and a count of seeds would be no count at all.
const CLAMP = 24;
const clamped = (v) => Math.abs(v) >= CLAMP - 1e-9;

// What the engine thinks of a position: a proven end as a win (in how many
// moves, where known), a won position as won, else a count of seeds.
/** @param {number} v @param {any} proven @param {import('./names.js').Who} names */
function evalText(v, proven, names) {
  const p = provenText(proven, names);
  if (p) return p;
  const side = sideWords(names, v >= 0 ? 'south' : 'north');
  if (clamped(v)) return t('an.winning', side);
  return t('an.eval', { ...side, v: fmt(v), n: Math.round(Math.abs(v) * 10) / 10 });
}

// Why a move was not the best: a win given away or handed over, in those
// words; seeds only when both evaluations are counts of seeds.
/** @param {any} p @param {import('./names.js').Who} names */
function lossText(p, names) {
  const mover = p.side, opp = mover === 'south' ? 'north' : 'south';
  const before = p.proven_before, after = p.proven_after;
  if (after && after.winner === opp && !(before && before.winner === opp)) return t('an.loss.lets', sideWords(names, opp));
  if (before && before.winner === mover && !(after && after.winner === mover)) return t('an.loss.win');
  if (clamped(p.eval_before) || clamped(p.eval_after)) return '';
  return t('an.loss.seeds', { loss: fmtNum(p.loss, 1), n: p.loss });
}

// Whether the analysis card is shown: Oware only (the analysis runs
// Oware's search, engine/analysis.h), once the moves can be stepped through.
/** @param {import('./model.js').Facts} f */
const shownFor = (f) => f.reviewable && f.st.moves.length > 0 && !!f.model.timeline && kindRec(f.model.timeline.kind).studied;

// The engine's best move from the position shown, for the board to mark
// (null: none analysed).
/** @param {import('./model.js').Facts} f */
export function bestShown(f) {
  const a = shownFor(f) ? current(f.model) : null;
  if (!a) return null;
  const at = shownPly(f.model);
  const next = a.plies[at] || null;
  return next && (f.reviewing || at === f.st.moves.length) ? next.best : null;
}

// The game of model changed (a rematch, a new local game, an undo): an
// analysis of the old one stops, what it judged stays.
/** @param {GameState} model */
export function stopStale(model) {
  const a = model && model.study.analysis;
  if (a && a.running && !current(model)) stop(model);
}

/** @param {import('./model.js').Facts} f */
export function drawAnalysis(f) {
  const card = $('analysis');
  const on = shownFor(f);
  setHidden(card, !on);
  // Beside Rematch (or the next level) once a game is over: one click from
  // the result to the analysis, which is further down the page.
  setHidden($('act-analyse'), !(on && f.g.over && f.model.mode !== 'record'));
  const { model } = f;
  const a = on ? current(model) : null;
  if (!on) return;
  const running = !!(a && a.running);
  setHidden($('an-start'), running || !!(a && a.done));
  setHidden($('an-stop'), !running);
  setHidden($('an-intro'), !!a);
  setHidden($('an-progress'), !running);
  if (running) {
    const bar = $('an-bar');
    if (bar.max !== a.total) bar.max = a.total;
    if (bar.value !== a.plies.length) bar.value = a.plies.length;
    setText($('an-count'), t('an.progress', { k: Math.min(a.plies.length + 1, a.total), total: a.total }));
  }
  const has = !!(a && a.plies.length);
  setHidden($('an-result'), !has);
  if (!has) return;
  const at = shownPly(model);
  // Whose sides (names.js's Who): the facts carry the game and the names.
  const names = f;
  drawGraph(a, at, names);
  // The move that led here, and the engine's move from here.
  const played = at > 0 ? a.plies[at - 1] : null;
  let moveText = '';
  if (played) {
    const cls = t(`an.class.${played.class}`);
    const why = played.class === 'best' ? '' : lossText(played, names);
    const words = { n: at, move: played.move + (MARKS[played.class] || ''), cls, why, best: played.best };
    moveText = played.class === 'best' ? t('an.move.best', { n: at, move: played.move })
      : t(why ? 'an.move' : 'an.move.plain', words);
  }
  setText($('an-move'), moveText);
  const next = a.plies[at] || null;
  let bestText = '';
  let lineLength = 0;
  if (next) {
    const cut = !model.study.wholeLine && next.pv.length > LINE_SHOWN;
    const line = cut ? `${next.pv.slice(0, LINE_SHOWN).join(' ')} …` : next.pv.join(' ');
    bestText = t('an.best', { move: next.best, line });
    lineLength = next.pv.length;
    bestText += ' ' + evalText(next.eval_before, next.proven_before, names);
  } else if (at === a.total && a.done) {
    // The game's real end says who won; a game stopped before it (resigned,
    // agreed, a record cut short) what the engine thinks of where it stopped.
    const last = a.plies[at - 1];
    const end = last.proven_after;
    if (end && end.plies === 0) bestText = end.winner === 'draw' ? t('an.end.draw') : t('an.end.won', sideWords(names, end.winner));
    else bestText = t('an.end', { what: evalText(evalAt(a.plies, at), end, names) });
  }
  setText($('an-best'), bestText);
  const long = !!next && lineLength > LINE_SHOWN;
  setHidden($('an-line'), !long);
  if (long) {
    setText($('an-line'), model.study.wholeLine ? t('an.line.less') : t('an.line.more', { n: lineLength }));
    setAttr($('an-line'), 'aria-expanded', String(model.study.wholeLine));
  }
  // The summary: a row per side, kept in place.
  const sum = summary(a.plies);
  keyedList($('an-summary').tBodies[0], ['south', 'north'], (side) => side, () => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    tr.append(th, ...Array.from({ length: 4 }, () => document.createElement('td')));
    return tr;
  }, (tr, side) => {
    const s = sum[side];
    setText(tr.cells[0], displayName(names, side));
    [s.inaccuracy, s.mistake, s.blunder, fmtNum(s.average, 2)].forEach((v, i) => setText(tr.cells[i + 1], v));
  });
}

// The card's buttons, on the analysis of the screen shown (screen():
// its state, or null).
/** @param {() => GameState | null} screen */
export function wireAnalysis(screen) {
  $('an-start').addEventListener('click', () => start(screen()));
  // The result's Analyse: the card brought in view with the focus on its
  // title, the analysis started unless it runs or is done.
  $('act-analyse').addEventListener('click', () => {
    const model = screen();
    if (!model) return;
    const a = current(model);
    if (!a || (!a.running && !a.done)) start(model);
    $('analysis').scrollIntoView({ block: 'start' });
    $('an-title').focus({ preventScroll: true });
  });
  $('an-line').addEventListener('click', () => {
    const model = screen();
    if (model) { model.study.wholeLine = !model.study.wholeLine; requestRedraw(); }
  });
  $('an-stop').addEventListener('click', () => {
    stop(screen());
    announce(t('an.stopped'));
    requestRedraw();
  });
  // The graph follows the card's width.
  let timer = null;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { const model = screen(); if (model && model.state && current(model)) requestRedraw(); }, 150);
  });
}
