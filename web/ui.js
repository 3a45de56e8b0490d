// ui.js: page helpers: element lookup, toast, screen-reader announcements, dialog, clipboard, screens, storage.
// @ts-check
import { t } from './i18n.js';

// An element of index.html by id: typed loosely (any), as each is the
// input, dialog or list its id says.
/** @type {(id: string) => any} */
export const $ = (id) => document.getElementById(id);

let toastTimer = null;

export function toast(text) {
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

// Each sentence is a node of its own that replaces the last: a screen
// reader queues each addition (Orca lost a sentence replaced in an atomic
// region before it spoke it: the player's own move, when the computer's
// reply followed), and a repeated sentence is a new node, said again.
export function announce(text) {
  const p = document.createElement('p');
  p.textContent = text;
  $('live').replaceChildren(p);
}

// Resolves to true when the player confirms.
export function confirmDialog(text, okLabel) {
  const dlg = $('confirm');
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = okLabel;
  return new Promise((resolve) => {
    const done = () => { dlg.removeEventListener('close', done); resolve(dlg.returnValue === 'ok'); };
    dlg.addEventListener('close', done);
    dlg.returnValue = '';
    if (typeof dlg.showModal === 'function') dlg.showModal();
    else resolve(window.confirm(text));
  });
}

// Copies with document.execCommand('copy') from a hidden textarea: the way
// that works where navigator.clipboard does not (plain HTTP on a LAN
// address is not a secure context). True when the browser says it copied.
function execCopy(text) {
  const back = document.activeElement;
  const area = document.createElement('textarea');
  area.className = 'copy-helper';
  area.readOnly = true;
  area.value = text;
  area.setAttribute('aria-hidden', 'true');
  document.body.appendChild(area);
  area.focus({ preventScroll: true });
  area.select();
  area.setSelectionRange(0, text.length);
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  area.remove();
  const to = /** @type {any} */ (back);
  if (to && typeof to.focus === 'function') to.focus({ preventScroll: true });
  return ok;
}

const noteTimers = new WeakMap();

// Says in note (an element beside the copy button, in the page's flow, so
// it covers nothing) what happened; a success fades after a few seconds.
function copyNote(note, text, failed) {
  if (!note) return;
  note.textContent = text;
  note.classList.toggle('failed', failed);
  clearTimeout(noteTimers.get(note));
  if (!failed) noteTimers.set(note, setTimeout(() => { note.textContent = ''; }, 4000));
}

// Puts text on the clipboard: navigator.clipboard where the page may use it,
// else (or when it is refused) document.execCommand('copy'). Where both
// fail, box (an input or textarea holding text) is shown with its text
// selected, so the player can copy it by hand. note: where to say what
// happened (by default the .copy-note of the card box is in). Resolves to
// true once copied.
export async function copyText(text, okMsg, box, note = box && box.closest('.card') && box.closest('.card').querySelector('.copy-note')) {
  let ok = false;
  if (window.isSecureContext && navigator.clipboard && navigator.clipboard.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch { ok = false; }
  }
  if (!ok) ok = execCopy(text);
  if (ok) {
    if (box && box.tagName === 'TEXTAREA') box.hidden = true;
    copyNote(note, okMsg, false);
    return true;
  }
  copyNote(note, t('copy.failed'), true);  // first: it moves the box down
  if (box) {
    if (box.value !== text) box.value = text;
    box.hidden = false;
    box.focus({ preventScroll: true });
    box.select();
    box.setSelectionRange(0, text.length);
    const r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) box.scrollIntoView({ block: 'center' });
  }
  return false;
}

// Each screen's level-one heading: the one focused when the screen changes.
const HEADINGS = { loading: 'loading-title', start: 'start-title', game: 'game-title', event: 'event-title' };
let shown = 'loading';

// Shows the start page, the game or a club event ('start' | 'game' |
// 'event'); a screen that
// changes hands the focus to its heading.
export function show(which) {
  $('loading').hidden = true;
  $('loading-title').hidden = true;
  if (which !== 'start') $('hero-board').querySelectorAll('.row').forEach((r) => r.replaceChildren());
  $('start').hidden = which !== 'start';
  $('game').hidden = which !== 'game';
  $('event').hidden = which !== 'event';
  if (which === 'game' && !$('game-title').textContent) setGameHeading('screen.online');
  if (which !== shown) {
    shown = which;
    $(HEADINGS[which]).focus({ preventScroll: true });
  }
}

// The game screen has a state to show (before it, only the connection line).
export function markGameState(has) { $('game').classList.toggle('has-state', has); }

// The screen shown: 'loading' | 'start' | 'game' | 'event'.
export const shownScreen = () => shown;

// The engine did not load: the loading screen says so.
export function loadFailed(text) { $('loading').textContent = text; }

// Whether the confirmation dialog is open.
export const dialogOpen = () => $('confirm').open;

// The game screen's heading says what is played: a key of i18n.js.
export function setGameHeading(key) {
  const h = $('game-title');
  if (h.dataset.i18n !== key) h.dataset.i18n = key;
  const text = t(key);
  if (h.textContent !== text) h.textContent = text;
}

// value null removes the key.
export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage may be off: the seat then lasts as long as the tab */ }
}

// The one mute switch of the page's sounds (alerts.js draws it; the
// clock's low-time beep obeys it too): a room reads it into its state
// (online.muted) when it is made.
export const MUTE_KEY = 'oware.muted';
export const soundMuted = () => load(MUTE_KEY) === '1';

export function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
