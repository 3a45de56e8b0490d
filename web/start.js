// start.js: the start page: a board at rest, the game choice, the create form, the local game's buttons (Resume for an unfinished one), and the editor and the games list inside it.
// Its controller, startScreen(opts, redraw) (tests/web/start.test.mjs),
// holds the game it offers and that game's level; drawStart(ctrl) draws
// them.
// @ts-check
import { t, applyStatic, loadPart } from './i18n.js';
import { kindOf, chosenKind, chooseKind } from './kind.js';
import { kindRec } from './kinds.js';
import { Board } from './board.js';
import { $, show, shownScreen } from './ui.js';
import { setModel, other } from './model.js';
import { newLocal, resumeText } from './local.js';
import { startOnline } from './online.js';
import { ladderOf, savedLevel, saveLevel } from './ai.js';
import { chosenClock, clockError, wireClockForm } from './clock.js';
import { myName, cleanName, rememberName, loadNameWords } from './names.js';
import { drawGames } from './games.js';
import { showEventForm, wireEventForm, drawEventNetwork } from './event-form.js';
import { setData, setDisabled, setText } from './dom.js';

/**
 * What the start page does besides its state: the page's own
 * (pageEffects) in the browser; the node tests hand fakes.
 * @typedef {object} StartEffects
 * @property {(kind: string) => void} chooseKind        the game offered, kept in this browser (kind.js)
 * @property {(kind: string) => string} savedLevel      the level kept for kind's ladder (ai.js)
 * @property {(kind: string, level: string) => void} saveLevel
 * @property {(name: string | null) => void} rememberName  the name typed, for the next rooms (names.js)
 * @property {(room: null, side: string, clock: any, position: any, kind: string) => void} startOnline  a room created (online.js)
 * @property {(ai: any, from: {kind: string}) => void} newLocal  a game on this device (local.js)
 */

/**
 * The start page's controller: the game it offers (kind: this browser's
 * choice, chosenKind()), its level, and a room asked for. Nothing at
 * construction touches the page or the storage.
 * @param {{kind?: string, effects?: StartEffects}} opts
 * @param {() => void} redraw
 */
export function startScreen(opts, redraw) {
  const fx = opts.effects || pageEffects;
  const state = Object.seal({
    // the game offered: 'oware' | 'togyz' (the page's words, its board, its ladder)
    kind: kindOf(opts.kind),
    // the computer's level for it (each game keeps its own; read when the page opens)
    level: '',
    // a room asked for: Create waits
    creating: false,
  });

  // The page shown (its binding draws it whole): the level kept for its
  // game, Create offered.
  function open() {
    state.level = fx.savedLevel(state.kind);
    state.creating = false;
  }

  // Another game offered (kept for the next visits), at its own level.
  function chooseKind(k) {
    state.kind = kindOf(k);
    fx.chooseKind(state.kind);
    state.level = fx.savedLevel(state.kind);
    redraw();
  }

  // A step of the offered game's ladder (another game's is refused), kept
  // for that game.
  function chooseLevel(level) {
    if (!ladderOf(state.kind).includes(level)) return;
    state.level = level;
    fx.saveLevel(state.kind, level);
    redraw();
  }

  // A room of the game offered, with the create form's choices (side,
  // clock, the name typed; position: null, the standard start, else the
  // editor's). Returns null, else what is wrong (nothing asked, nothing
  // changed): a clock's error key, or 'name.bad'.
  /** @param {{side: string, clock: any, name: string, position: any}} c */
  function createRoom({ side, clock, name: raw, position }) {
    const bad = clockError(clock);
    if (bad) return bad;
    // The name typed is remembered for the next rooms (empty: forgotten).
    const name = raw.trim() ? cleanName(raw) : null;
    if (raw.trim() && !name) return 'name.bad';
    fx.rememberName(name);
    state.creating = true;
    fx.startOnline(null, side, clock, position, state.kind);
    redraw();
    return null;
  }

  // A game on this device (ai: null, two players; else {level, side}).
  const playLocal = (ai) => fx.newLocal(ai, { kind: state.kind });

  return Object.freeze({ state, open, chooseKind, chooseLevel, createRoom, playLocal });
}

/** @typedef {ReturnType<typeof startScreen>} StartScreen */

// ---- the view ----

// The start page as its controller's state says: the game offered (its
// words, its board at rest, the cards that are Oware's only, its ladder:
// drawn again when the game changes, and all of it when the page is
// shown), the level and its line, and Create.
/** @param {StartScreen} ctrl @param {boolean} [all] */
function drawStart(ctrl, all = false) {
  const { kind, level } = ctrl.state;
  if (all || document.body.dataset.kind !== kind) drawKind(kind);
  for (const r of $('ai-levels').querySelectorAll('input')) r.checked = r.value === level;
  // The chosen step's line (data-i18n: a language switch redraws it).
  const key = `ai.level.${level}.desc`;
  setData($('ai-level-desc'), 'i18n', key);
  setText($('ai-level-desc'), t(key));
  drawNetwork(ctrl);
}

function drawKind(kind) {
  for (const r of $('kind-choice').querySelectorAll('input')) r.checked = r.value === kind;
  applyStatic(document, kind);
  document.body.dataset.kind = kind;
  const root = $('hero-board');
  root.querySelectorAll('.row').forEach((r) => r.replaceChildren());
  const hero = new Board(root, {}, {}, kind);
  hero.show(kindRec(kind).Game.start().state());
  hero.setLegal([]);
  $('study').hidden = !kindRec(kind).studied;
  $('editor').hidden = !kindRec(kind).studied;
  buildLevels(kind);
}

// The level choice: a compact ladder, one radio a step of kind's ladder,
// weakest first (its number and name; its line on how it plays, i18n.js
// ai.level.NAME.desc, is in its label for screen readers), and under it
// the chosen step's line (drawStart checks the level chosen).
function buildLevels(kind) {
  const set = $('ai-levels');
  set.querySelectorAll('label').forEach((l) => l.remove());
  ladderOf(kind).forEach((level, i) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'ai-level';
    input.value = level;
    const num = document.createElement('span');
    num.className = 'level-num';
    num.setAttribute('aria-hidden', 'true');
    num.textContent = String(i + 1);
    const name = document.createElement('span');
    name.className = 'level-name';
    name.dataset.i18n = `ai.level.${level}`;
    const desc = document.createElement('span');
    desc.className = 'level-desc sr-only';
    desc.dataset.i18n = `ai.level.${level}.desc`;
    label.append(input, num, name, desc);
    set.insertBefore(label, $('ai-level-desc'));
  });
  applyStatic(set, kind);
}

// Resume names the game kept on this device (its button is hidden without one).
function drawResume() {
  const text = resumeText();
  $('local-resume').hidden = !text;
  if (text) $('local-resume').textContent = text;
}

// Without the network the start page says what needs it (a room, the
// games list) and what works now, and Create waits for the network
// (nothing is created by itself when it comes back), as it does for a
// room asked for.
/** @param {StartScreen} ctrl */
function drawNetwork(ctrl) {
  const off = navigator.onLine === false, { creating } = ctrl.state;
  $('start-offline').hidden = !off;
  $('create-offline').hidden = !off;
  setDisabled($('create'), off || creating);
  setText($('create'), t(creating ? 'start.creating' : 'start.create'));
  drawEventNetwork(off);
}

// ---- the page's binding ----

/** @type {StartEffects} */
const pageEffects = { chooseKind, savedLevel, saveLevel, rememberName, startOnline, newLocal };
const start = startScreen({ kind: chosenKind() }, () => drawStart(start));

// The game the start page offers (app.js's kindNow: the static texts and
// the lessons follow it there).
export const startKind = () => start.state.kind;

// error: a sentence to show under the create form (a room not created);
// with refusedName (the name the server refused), under the name field,
// which shows that name and takes the focus (it is not remembered);
// eventError: under the club event's form (an event not created).
/** @param {string} [error] @param {string} [refusedName] @param {string | null} [eventError] */
export function showStart(error, refusedName, eventError = null) {
  setModel(null);
  show('start');
  start.open();
  showEventForm(eventError, start.state.kind);
  drawStart(start, true);
  const nameRefused = refusedName !== undefined;
  $('start-name').value = nameRefused ? refusedName : (myName() || '');
  drawGames();
  $('create-error').hidden = !error || nameRefused;
  $('create-error').textContent = nameRefused ? '' : (error || '');
  $('name-error').hidden = !nameRefused;
  $('name-error').textContent = nameRefused ? error || '' : '';
  if (nameRefused) {
    $('start-name').focus();
    // The field and its note in view.
    $('name-error').scrollIntoView({ block: 'nearest' });
  }
  drawResume();
  if (editor) editor.then((m) => m.showEditor());
  if (window.location.search) window.history.replaceState(null, '', './');
}

// The other language: the parts of the start page drawn from code.
export function redrawStart() {
  drawResume();
  if (editor) editor.then((m) => m.showEditor());
  drawGames();
}

// Creates a room with the create form's choices (side, clock, name), from
// position (null: the standard start; else the board editor's). Resolves
// to false when the form has an error (shown under it).
async function createRoom(position) {
  const form = $('create-form');
  // A name typed is checked once its check (name-check.js, loaded on the
  // field's first input) has come: a side's name pressed in before that
  // would pass here and then be dropped from the room unsaid.
  if ($('start-name').value.trim()) await loadNameWords();
  // A custom clock's field out of its limits: the browser says so at the
  // field (also for a room started from the editor, which skips the form's
  // own check).
  const outOfLimits = [...form.querySelectorAll('#clock-custom input')].find((el) => !el.disabled && !el.checkValidity());
  if (outOfLimits) { outOfLimits.reportValidity(); return false; }
  const side = String(new FormData(form).get('side') || 'random');
  const bad = start.createRoom({ side, clock: chosenClock(form), name: $('start-name').value, position });
  const named = bad === 'name.bad';
  $('create-error').hidden = !bad || named;
  $('create-error').textContent = bad && !named ? t(bad) : '';
  if (named) {
    // Said at the field, which takes the focus (nothing moves before the
    // button is pressed: a note shown on leaving the field would move it).
    $('name-error').textContent = t(bad);
    $('name-error').hidden = false;
    $('start-name').focus();
    $('name-error').scrollIntoView({ block: 'nearest' });
  }
  return !bad;
}

// The computer chosen in the form "Against the computer": {level, side}
// (the side the computer plays).
function aiChoice() {
  const mine = new FormData($('ai-form')).get('ai-side') === 'north' ? 'north' : 'south';
  return { level: start.state.level, side: other(mine) };
}

// The start page's forms and buttons: the game choice (remembered, and
// shown at once), the create form, the local games, the editor.
export function wireStart() {
  $('ai-levels').addEventListener('change', (ev) => {
    if (ev.target.name === 'ai-level') start.chooseLevel(ev.target.value);
  });
  $('kind-choice').addEventListener('change', (ev) => {
    if (ev.target.name === 'kind') start.chooseKind(ev.target.value);
  });
  // The note on a refused name goes as soon as the name is edited.
  $('start-name').addEventListener('input', () => { $('name-error').hidden = true; loadNameWords(); });
  $('create-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    createRoom(null);
  });
  wireClockForm($('create-form'));
  for (const ev of ['online', 'offline']) {
    window.addEventListener(ev, () => {
      if (shownScreen() !== 'start') return;
      drawNetwork(start);
      drawGames();
    });
  }
  $('local-play').addEventListener('click', () => start.playLocal(null));
  $('local-resume').addEventListener('click', () => { window.location.href = '?local=1'; });
  $('ai-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    start.playLocal(aiChoice());
  });
  wireEventForm({ backToStart: (why) => showStart(null, undefined, why) });
  const card = $('editor');
  card.addEventListener('toggle', () => { if (card.open) loadEditor(); });
  // A button of the card pressed before the editor is wired is pressed
  // again once it is.
  card.addEventListener('click', (ev) => {
    const b = /** @type {HTMLElement} */ (ev.target).closest('button');
    if (!b || editorWired) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    loadEditor().then(() => b.click());
  }, true);
}

// The board editor (editor.js) and its words (i18n.js's part 'editor'),
// loaded, wired and filled when its card is first opened: a first visit
// carries neither.
/** @type {Promise<typeof import('./editor.js')> | null} */
let editor = null;
let editorWired = false;
function loadEditor() {
  editor ||= Promise.all([import('./editor.js'), loadPart('editor')]).then(([m]) => {
    applyStatic($('editor'));
    m.wireEditor({
      aiChoice,
      // The create form's side, clock and name; its errors show there.
      createRoom: async (position) => {
        if (!(await createRoom(position))) $('create-form').scrollIntoView({ block: 'center' });
      },
    });
    editorWired = true;
    m.showEditor();
    return m;
  });
  return editor;
}
