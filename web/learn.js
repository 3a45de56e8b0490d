// learn.js: the lessons (web/lessons/<game>.json, docs/lessons.md) played
// on a board of their own in the Learn panel, a modal dialog over whatever
// page is open: the start page, or a room waiting for its opponent (the
// room stays connected under it, and the panel says when the opponent
// arrives). Each move is checked by the engine against the step's goal, as
// tests/wasm/lessons.test.mjs checks the data. Progress is kept in this
// browser (localStorage). The panel is a controller, lessonPanel(opts,
// redraw), over a Board and the keys of the kind's record (kinds.js), as
// the game screen; its state is its own (the game screen's is model.js's);
// every intent changes it, then draws the panel. tests/web/learn.test.mjs
// drives it in node with a fake board.
// @ts-check
import { kindRec } from './kinds.js';
import { tIn, wordsIn, getLang } from './i18n.js';
import { Board } from './board.js';
import { $, load, store } from './ui.js';
import { setText, setHidden, setAttr, keyedList } from './dom.js';
import { newLocal } from './local.js';

const DONE_KEY = (kind) => `oware.learn.${kind}`;

// The lessons finished, by id, in this browser.
export function finished(kind) {
  try { return new Set(JSON.parse(load(DONE_KEY(kind)) || '[]')); } catch { return new Set(); }
}
function markFinished(kind, id) {
  const s = finished(kind);
  s.add(id);
  store(DONE_KEY(kind), JSON.stringify([...s]));
  return s;
}

const words = (o) => (o ? o[getLang()] || o.en : '');

// Whether a move's info and the state after it meet every condition of
// goal (docs/lessons.md: last, seeds, seeds_min, tuzdyk, over, winner, reason).
export function meets(goal, move, state) {
  return Object.entries(goal).every(([k, v]) => (k === 'last' ? move.sown.at(-1) === v
    : k === 'seeds' ? move.seeds === v
      : k === 'seeds_min' ? move.seeds >= v
        : k === 'tuzdyk' ? move.tuzdyk === v
          : state[k] === v));
}

/**
 * What the panel does besides its state: the page's own (pageEffects) in
 * the browser; the node tests hand fakes.
 * @typedef {object} LessonEffects
 * @property {(kind: string) => any} board   the panel's Board for kind (made once a kind)
 * @property {(kind: string) => Set<string>} finished  the lessons of kind finished in this browser
 * @property {(kind: string, id: string) => Set<string>} markFinished  one more finished; the set now
 * @property {(level: string, kind: string) => void} firstGame  the panel closed, a game against the computer
 */

/**
 * The lessons' controller: the panel's state and its intents. Nothing at
 * construction touches the page.
 * @param {{kind?: string, effects?: LessonEffects}} opts
 * @param {() => void} redraw
 */
export function lessonPanel(opts, redraw) {
  const fx = opts.effects || pageEffects;
  const learn = Object.seal({
    kind: opts.kind || 'oware',
    // the file's lessons (null: not loaded yet)
    lessons: null,
    // the file could not be loaded
    failed: false,
    // the lesson open (-1: the list)
    lesson: -1,
    step: 0,
    // the step's engine Game (a move step: the position)
    game: null,
    // the side to move in the step's position: the player's
    side: /** @type {'south' | 'north'} */ ('south'),
    // the step's goal met (or the question answered right)
    solved: false,
    // {kind: 'wrong' | 'done', text}
    feedback: null,
    // a question: the option picked last
    chosen: null,
    // opened from a room waiting for its opponent
    inRoom: false,
    // the ids of the lessons of kind finished in this browser (read when the panel opens)
    done: new Set(),
  });
  let board = null;     // the Board of the step shown (fx.board's)
  // The words of the lessons' game (its Togyz Kumalak variants).
  const t = (key, params) => tIn(learn.kind, key, params);

  const currentLesson = () => learn.lessons[learn.lesson];
  const currentStep = () => currentLesson().steps[learn.step];

  // The lessons of kind asked for (their file is being fetched).
  function loading(kind) {
    learn.kind = kind;
    learn.lessons = null;
    learn.failed = false;
  }

  // The lessons of kind (data: the file's, or null when it could not be
  // loaded); opened on their list.
  function loaded(kind, data) {
    learn.kind = kind;
    learn.lessons = data;
    learn.failed = !data;
    learn.done = fx.finished(kind);
    redraw();
  }

  // The panel opened (inRoom: from a room that waits for its opponent),
  // on the list.
  function opened(inRoom) {
    learn.inRoom = inRoom;
    learn.lesson = -1;
    learn.done = fx.finished(learn.kind);
    redraw();
  }

  function toList() {
    learn.lesson = -1;
    if (board) board.finish();
    redraw();
  }

  // (A click on the list of the other game, still shown while this
  // game's lessons load, opens nothing.)
  function openLesson(i) {
    if (!learn.lessons || !learn.lessons[i]) return;
    learn.lesson = i;
    openStep(0);
  }

  function openStep(i) {
    learn.step = i;
    learn.solved = false;
    learn.feedback = null;
    learn.chosen = null;
    learn.game = null;
    const step = currentStep();
    if (step.position) {
      learn.game = kindRec(learn.kind).Game.fromPosition(step.position);
      learn.side = learn.game.state().turn;
      board = fx.board(learn.kind);
      board.finish();
      board.show(learn.game.state());
      board.markLast(null);
    }
    // Words only: nothing to do but read.
    learn.solved = !step.position && !step.play;
    redraw();
    if (step.position && step.moves && step.moves.length) showMoves(step);
  }

  // A question's moves already played: sown on the board one after another.
  async function showMoves(step) {
    const g = learn.game.clone();
    for (const m of step.moves) {
      const before = g.state();
      const info = g.play(m);
      const after = g.state();
      // A move that ends the game: the board stays as it was sown, the
      // position the question asks about, not the pits emptied at the end.
      await board.animate(before, info, after.over ? asSown(before, info, after) : after);
      // The panel closed or moved on meanwhile: the board is another step's.
      if (learn.lesson < 0 || currentStep() !== step) return;
    }
    board.relabel();
    board.markLast(g.history.at(-1));
  }

  // The position right after info's sowing and captures from before, with
  // after's flags (over, winner): what the board shows of a last move.
  function asSown(before, info, after) {
    const ids = kindRec(learn.kind).ids;
    const pits = [...before.pits];
    pits[ids.indexOf(info.pit)] = 0;
    for (const p of info.sown) pits[ids.indexOf(p)]++;
    for (const p of info.captured) pits[ids.indexOf(p)] = 0;
    const captured = { ...before.captured };
    captured[before.turn] += info.seeds;
    return { ...after, pits, captured };
  }

  // What the goal asks, as "that does not …" for a legal move that misses it.
  function missed(goal, move, state) {
    // Oware's pit letter; Togyz's hole with its side ("Black's hole 2").
    const pit = kindRec(learn.kind).holeName;
    for (const [k, v] of Object.entries(goal)) {
      if (k === 'last' && move.sown.at(-1) !== v) return t('learn.miss.last', { pit: pit(v), landed: pit(move.sown.at(-1)) });
      if (k === 'seeds' && move.seeds !== v) return t('learn.miss.seeds', { n: v, got: move.seeds });
      if (k === 'seeds_min' && move.seeds < v) return t('learn.miss.seeds_min', { n: v, got: move.seeds });
      if (k === 'tuzdyk' && move.tuzdyk !== v) return t(v ? 'learn.miss.tuzdyk' : 'learn.miss.no_tuzdyk');
      if (k === 'over' && state.over !== v) return t('learn.miss.over');
      if (k === 'winner' && state.winner !== v) return t('learn.miss.winner');
      if (k === 'reason' && state.reason !== v) return t('learn.miss.over');
    }
    return t('learn.miss.other');
  }

  // A pit tried on a move step.
  function tryMove(pit) {
    if (learn.lesson < 0 || !learn.game) return;
    const step = currentStep();
    if (!step || !step.goal || learn.solved || board.anim) return;
    const p = learn.game.preview(pit);
    const listed = step.wrong.find((w) => w.move === pit);
    if (!p.error && meets(step.goal, p.move, p.state)) {
      const before = learn.game.state();
      const info = learn.game.play(pit);
      learn.solved = true;
      learn.feedback = { kind: 'done', text: words(step.done) };
      // Once sown, the pits' names say their new counts (as their text does).
      const shown = board;
      board.animate(before, info, learn.game.state()).then(() => { shown.relabel(); shown.markLast(info); });
    } else if (listed) {
      learn.feedback = { kind: 'wrong', text: words(listed.why) };
    } else if (p.error) {
      learn.feedback = { kind: 'wrong', text: t(`engine.${p.error}`) };
    } else {
      learn.feedback = { kind: 'wrong', text: missed(step.goal, p.move, p.state) };
    }
    redraw();
  }

  // A key typed on the panel: a pit of the side to move (the kind's keys);
  // true when it was one.
  function key(k) {
    if (learn.lesson < 0 || !learn.game) return false;
    const step = currentStep();
    if (!step.goal || learn.solved) return false;
    const pit = kindRec(learn.kind).pitForKey(k, learn.side);
    if (!pit) return false;
    tryMove(pit);
    return true;
  }

  function answer(i) {
    const step = currentStep();
    if (learn.solved) return;
    learn.chosen = i;
    const o = step.options[i];
    if (o.correct) {
      learn.solved = true;
      learn.feedback = { kind: 'done', text: words(step.done) };
    } else {
      // Each wrong answer says why (the lessons' data), as a wrong move does.
      learn.feedback = { kind: 'wrong', text: o.why ? words(o.why) : t('learn.wrong.option') };
    }
    redraw();
  }

  function next() {
    const lesson = currentLesson();
    if (learn.step + 1 < lesson.steps.length) {
      openStep(learn.step + 1);
      return;
    }
    learn.done = fx.markFinished(learn.kind, lesson.id);
    if (learn.lesson + 1 < learn.lessons.length) openLesson(learn.lesson + 1);
    else { learn.lesson = -1; redraw(); }
  }

  function playFirstGame() {
    const step = currentStep();
    learn.done = fx.markFinished(learn.kind, currentLesson().id);
    toList();
    fx.firstGame(step.play.level, learn.kind);
  }

  return Object.freeze({ state: learn, loading, loaded, opened, toList, openLesson, openStep, tryMove, key, answer, next, playFirstGame,
    currentLesson, currentStep });
}

// ---- the page's binding: the Learn panel ----

let board = null;  // the panel's Board (made again for another kind)
/** @type {LessonEffects} */
const pageEffects = {
  board: (kind) => {
    if (!board || board.kind !== kind) {
      board = new Board($('learn-board'), { south: $('learn-store-south'), north: $('learn-store-north') },
        { onPlay: (pit) => panel.tryMove(pit) }, kind);
    }
    return board;
  },
  finished,
  markFinished,
  firstGame: (level, kind) => {
    const dlg = $('learn');
    if (dlg.open) dlg.close();
    newLocal({ level, side: 'north' }, { kind });
  },
};
// Each intent draws the panel, then the focus follows the pits that
// respond (Board.keepFocus: after the draw, not in it).
const panel = lessonPanel({}, () => {
  drawLearn();
  if (board) board.keepFocus();
});
const learn = panel.state;
// The room under the panel has both its players: the game screen's draw
// pass says it (drawLearnOver); the panel's own draws read what it said last.
let opponentHere = false;

async function loadLessons(kind) {
  if (learn.lessons && learn.kind === kind) return;
  panel.loading(kind);
  let data = null;
  try {
    const r = await fetch(new URL(`lessons/${kind}.json`, import.meta.url));
    if (!r.ok) throw new Error(String(r.status));
    data = (await r.json()).lessons;
  } catch {
    data = null;
  }
  if (learn.kind === kind) panel.loaded(kind, data);
}

// The game of the screen under the panel (app.js's: the room's, the start
// page's).
let kindNow = () => 'oware';

// Opens the panel on the lesson list of the page's game. inRoom: opened
// from a room that waits for its opponent.
export async function openLearn(inRoom = false) {
  const dlg = $('learn');
  if (!dlg.open) {
    if (typeof dlg.showModal === 'function') dlg.showModal();
    else dlg.setAttribute('open', '');
  }
  const kind = kindNow();
  // Another game's lessons: its words at once, its list once loaded.
  if (!(learn.lessons && learn.kind === kind)) panel.loading(kind);
  panel.opened(inRoom);
  await loadLessons(kind);
  drawLearn();
  $('learn-title').focus();
}

function closeLearn() {
  const dlg = $('learn');
  if (dlg.open) dlg.close();
  panel.toList();
}

// The panel over the game screen, from the game screen's draw pass (f:
// render.js's facts): how it learns that a waiting room's opponent has
// arrived.
/** @param {import('./model.js').Facts} f */
export function drawLearnOver(f) {
  opponentHere = f.online && f.bothSeated;
  drawLearn();
}

// The panel, as the state says. Called after every intent, and by the
// game screen's draw pass (drawLearnOver).
export function drawLearn() {
  const dlg = $('learn');
  if (!dlg.open) return;
  const t = wordsIn(learn.kind);
  const arrived = learn.inRoom && opponentHere;
  setHidden($('learn-arrived'), !arrived);
  setText($('learn-arrived-text'), arrived ? t('learn.arrived') : '');
  setText($('learn-title'), t('learn.title'));
  const list = learn.lesson < 0;
  setHidden($('learn-list-view'), !list);
  setHidden($('learn-player'), list);
  setText($('learn-status'), learn.failed ? t('learn.failed') : !learn.lessons ? t('learn.loading') : '');
  if (!learn.lessons) return;
  if (list) drawList();
  else drawStep();
}

function drawList() {
  const t = wordsIn(learn.kind);
  const done = learn.done;
  keyedList($('learn-list'), learn.lessons.map((l, i) => ({ l, i })), ({ l }) => `${learn.kind}:${l.id}`, ({ i }) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'learn-lesson';
    b.addEventListener('click', () => { panel.openLesson(i); $('learn-text').focus(); });
    li.append(b);
    return li;
  }, (li, { l, i }) => {
    const b = li.firstChild;
    const ok = done.has(l.id);
    setText(b, `${i + 1}. ${words(l.title)}${ok ? ` ✓` : ''}`);
    setAttr(b, 'aria-label', `${i + 1}. ${words(l.title)}${ok ? `, ${t('learn.finished')}` : ''}`);
    b.classList.toggle('finished', ok);
  });
  setText($('learn-progress'), t('learn.progress', { n: done.size, total: learn.lessons.length }));
}

function drawStep() {
  const t = wordsIn(learn.kind);
  const lesson = panel.currentLesson(), step = panel.currentStep();
  setText($('learn-lesson-title'), words(lesson.title));
  setText($('learn-count'), t('learn.step', { n: learn.step + 1, total: lesson.steps.length }));
  setText($('learn-text'), words(step.text));
  const wrap = $('learn-table');
  setHidden(wrap, !step.position);
  if (step.position) {
    // The position itself is shown (and sown) by the intents: openStep, tryMove.
    const side = learn.side;
    board.setView(side === 'north' && step.goal ? 'north' : 'south');
    board.me = step.goal ? side : null;
    board.setLegal(step.goal && !learn.solved ? Array.from(board.ids) : []);
    setText($('learn-task'), step.goal && !learn.solved ? t('learn.task.move', { side: t(`side.${side}`) }) : '');
  } else {
    setText($('learn-task'), '');
  }
  // A question's options.
  const opts = $('learn-options');
  setHidden(opts, !step.options);
  keyedList(opts, step.options ? step.options.map((o, i) => ({ o, i })) : [], ({ i }) => `${learn.lesson}:${learn.step}:${i}`, ({ i }) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'learn-option';
    b.addEventListener('click', () => panel.answer(i));
    return b;
  }, (b, { o, i }) => {
    setText(b, words(o.text));
    b.classList.toggle('chosen', learn.chosen === i);
    b.classList.toggle('right', learn.solved && !!o.correct);
    setAttr(b, 'aria-pressed', learn.chosen === i ? 'true' : 'false');
    b.disabled = learn.solved;
  });
  const fb = $('learn-feedback');
  setText(fb, learn.feedback ? learn.feedback.text : '');
  setAttr(fb, 'data-kind', learn.feedback ? learn.feedback.kind : null);
  const last = learn.step + 1 >= lesson.steps.length;
  setHidden($('learn-next'), !learn.solved || !!step.play);
  setText($('learn-next'), last ? t(learn.lesson + 1 < learn.lessons.length ? 'learn.next.lesson' : 'learn.next.end') : t('learn.next'));
  const play = !!step.play;
  setHidden($('learn-play'), !play || learn.inRoom);
  setHidden($('learn-play-room'), !play || !learn.inRoom);
  setText($('learn-play'), play ? t('learn.play') : '');
}

// The Learn entries (start page, waiting room) and the panel's buttons;
// kind(): the game of the screen under the panel.
/** @param {() => string} kind */
export function wireLearn(kind) {
  kindNow = kind;
  $('learn-open').addEventListener('click', () => openLearn(false));
  $('share-learn').addEventListener('click', () => openLearn(true));
  $('learn-close').addEventListener('click', closeLearn);
  $('learn-back-room').addEventListener('click', closeLearn);
  $('learn-list-back').addEventListener('click', () => { panel.toList(); $('learn-title').focus(); });
  $('learn-next').addEventListener('click', () => {
    panel.next();
    $(learn.lesson < 0 ? 'learn-title' : 'learn-text').focus();
  });
  $('learn-play').addEventListener('click', () => panel.playFirstGame());
  $('learn').addEventListener('close', () => panel.toList());
  // Oware's letters (Togyz's digits 1-9) try a pit of the side to move, as on the game screen.
  $('learn').addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (panel.key(ev.key)) {
      ev.preventDefault();
      ev.stopPropagation();
    } else if (board && /^[rostwl?]$/i.test(ev.key)) {
      // The reading keys and ? (ear.js, loaded then).
      const b = board;
      import('./ear.js').then((ear) => ear.readBoard(b, ev));
    }
  });
}

// The room's line: shown with the share card (actions.js shows the card).
/** @param {import('./model.js').Facts} f */
export function drawLearnLine(f) {
  setText($('share-learn'), tIn(f.kind, 'learn.room'));
}
