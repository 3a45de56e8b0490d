// start.js: the start page: a board at rest, the game choice, the create form, the local game's buttons (Resume for an unfinished one), and the editor and the games list inside it.
// @ts-check
import { t, applyStatic } from './i18n.js';
import { setKind, getKind, chosenKind, chooseKind } from './kind.js';
import { kindRec } from './kinds.js';
import { Board } from './board.js';
import { $, show, shownScreen } from './ui.js';
import { setModel, other } from './model.js';
import { newLocal, resumeText } from './local.js';
import { startOnline } from './online.js';
import { ladderOf, savedLevel, saveLevel } from './ai.js';
import { chosenClock, clockError, wireClockForm } from './clock.js';
import { myName, cleanName, rememberName } from './names.js';
import { drawGames } from './games.js';
import { showEditor, wireEditor } from './editor.js';
import { showEventForm, wireEventForm, drawEventNetwork } from './event-form.js';

// error: a sentence to show under the create form (a room not created);
// with refusedName (the name the server refused), under the name field,
// which shows that name and takes the focus (it is not remembered);
// eventError: under the club event's form (an event not created).
/** @param {string} [error] @param {string} [refusedName] @param {string | null} [eventError] */
export function showStart(error, refusedName, eventError = null) {
  setModel(null);
  show('start');
  showKind(chosenKind());
  $('create').disabled = false;
  $('create').textContent = t('start.create');
  const nameRefused = refusedName !== undefined;
  $('start-name').value = nameRefused ? refusedName : (myName() || '');
  drawGames();
  $('create-error').hidden = !error || nameRefused;
  $('create-error').textContent = nameRefused ? '' : (error || '');
  $('name-error').hidden = !nameRefused;
  $('name-error').textContent = nameRefused ? error || '' : '';
  if (nameRefused) {
    $('start-name').focus();
    $('name-error').scrollIntoView({ block: 'nearest' });  // the field and its note in view
  }
  drawResume();
  showEditor();
  showEventForm(eventError);
  drawNetwork();
  if (window.location.search) window.history.replaceState(null, '', './');
}

// The game the start page offers (Oware or Togyz Kumalak): its words, its
// board at rest, and the cards that are Oware's only (records, the editor).
function showKind(kind) {
  // The page's kind: the start page's (app.js's kindNow).
  setKind(kind);
  document.querySelectorAll('#kind-choice input[name="kind"]').forEach((/** @type {HTMLInputElement} */ r) => { r.checked = r.value === kind; });
  applyStatic(document, kind);
  document.body.dataset.kind = kind;
  const root = $('hero-board');
  root.querySelectorAll('.row').forEach((r) => r.replaceChildren());
  const hero = new Board(root, {}, {}, kind);
  hero.show(kindRec(kind).Game.start().state());
  hero.setLegal([]);
  $('study').hidden = !kindRec(kind).studied;
  $('editor').hidden = !kindRec(kind).studied;
  // Each game has its ladder and keeps the level chosen last for it.
  buildLevels(kind);
}

// The level choice: a compact ladder, one radio a step of kind's ladder,
// weakest first (its number and name; its line on how it plays, i18n.js
// ai.level.NAME.desc, is in its label for screen readers), and under it
// the chosen step's line; the level kept for kind is checked.
function buildLevels(kind) {
  const set = $('ai-levels');
  const chosen = savedLevel(kind);
  set.querySelectorAll('label').forEach((l) => l.remove());
  ladderOf(kind).forEach((level, i) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'ai-level';
    input.value = level;
    input.checked = level === chosen;
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
  drawLevelDesc();
}

// The chosen step's line, under the ladder (screen readers hear it with
// each radio's label).
function drawLevelDesc() {
  const on = /** @type {HTMLInputElement | null} */ ($('ai-levels').querySelector('input:checked'));
  const line = $('ai-level-desc');
  const key = on ? `ai.level.${on.value}.desc` : '';
  // data-i18n: a language switch redraws it.
  if (key) line.dataset.i18n = key;
  else line.removeAttribute('data-i18n');
  line.textContent = key ? t(key) : '';
}

// Resume names the game kept on this device (its button is hidden without one).
function drawResume() {
  const text = resumeText();
  $('local-resume').hidden = !text;
  if (text) $('local-resume').textContent = text;
}

// Without the network the start page says what needs it (a room, the
// games list) and what works now, and Create waits for the network
// (nothing is created by itself when it comes back).
function drawNetwork() {
  const off = navigator.onLine === false;
  $('start-offline').hidden = !off;
  $('create-offline').hidden = !off;
  if (off) $('create').disabled = true;
  else if ($('create').textContent === t('start.create')) $('create').disabled = false;
  drawEventNetwork(off);
}

// The other language: the parts of the start page drawn from code.
export function redrawStart() {
  drawResume();
  showEditor();
  drawGames();
}

// Creates a room with the create form's choices (side, clock, name), from
// position (null: the standard start; else the board editor's). Returns
// false when the form has an error (shown under it).
export function createRoom(position) {
  const form = $('create-form');
  const side = new FormData(form).get('side') || 'random';
  // A custom clock's field out of its limits: the browser says so at the
  // field (also for a room started from the editor, which skips the form's
  // own check).
  const outOfLimits = [...form.querySelectorAll('#clock-custom input')].find((el) => !el.disabled && !el.checkValidity());
  if (outOfLimits) { outOfLimits.reportValidity(); return false; }
  const clock = chosenClock(form);
  const bad = clockError(clock);
  $('create-error').hidden = !bad;
  $('create-error').textContent = bad ? t(bad) : '';
  if (bad) return false;
  // The name typed is remembered for the next rooms (empty: forgotten).
  const raw = $('start-name').value;
  const name = raw.trim() ? cleanName(raw) : null;
  if (raw.trim() && !name) {
    // Said at the field, which takes the focus (nothing moves before the
    // button is pressed: a note shown on leaving the field would move it).
    $('name-error').textContent = t('name.bad');
    $('name-error').hidden = false;
    $('start-name').focus();
    $('name-error').scrollIntoView({ block: 'nearest' });
    return false;
  }
  rememberName(name);
  $('create').disabled = true;
  $('create').textContent = t('start.creating');
  startOnline(null, side, clock, position);
  return true;
}

// The computer chosen in the form "Against the computer": {level, side}
// (the side the computer plays).
function aiChoice() {
  const f = new FormData($('ai-form'));
  const mine = f.get('ai-side') === 'north' ? 'north' : 'south';
  const chosen = String(f.get('ai-level'));
  const level = ladderOf(getKind()).includes(chosen) ? chosen : savedLevel(getKind());
  return { level, side: other(mine) };
}

// The start page's forms and buttons: the game choice (remembered, and
// shown at once), the create form, the local games, the editor.
export function wireStart() {
  $('ai-levels').addEventListener('change', (ev) => {
    if (ev.target.name !== 'ai-level') return;
    saveLevel(getKind(), ev.target.value);
    drawLevelDesc();
  });
  $('kind-choice').addEventListener('change', (ev) => {
    if (ev.target.name !== 'kind') return;
    chooseKind(ev.target.value);
    showKind(ev.target.value);
  });
  // The note on a refused name goes as soon as the name is edited.
  $('start-name').addEventListener('input', () => { $('name-error').hidden = true; });
  $('create-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    createRoom(null);
  });
  wireClockForm($('create-form'));
  for (const ev of ['online', 'offline']) {
    window.addEventListener(ev, () => {
      if (shownScreen() !== 'start') return;
      drawNetwork();
      drawGames();
    });
  }
  $('local-play').addEventListener('click', () => newLocal(null));
  $('local-resume').addEventListener('click', () => { window.location.href = '?local=1'; });
  $('ai-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    newLocal(aiChoice());
  });
  wireEventForm({ backToStart: (why) => showStart(null, undefined, why) });
  wireEditor({
    aiChoice,
    // The create form's side, clock and name; its errors show there.
    createRoom: (position) => {
      if (!createRoom(position)) $('create-form').scrollIntoView({ block: 'center' });
    },
  });
}
