// ui.js: page helpers: element lookup, toast, screen-reader announcements, dialog, clipboard, screens, storage.
import { t } from './i18n.js';

export const $ = (id) => document.getElementById(id);

let toastTimer = null;

export function toast(text) {
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

export function announce(text) {
  const el = $('live');
  el.textContent = '';
  // A fresh text node makes screen readers speak a repeated sentence too.
  setTimeout(() => { el.textContent = text; }, 30);
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

// Puts text on the clipboard; where that fails, shows fallbackEl selected
// so the player can copy it by hand.
export async function copyText(text, okMsg, fallbackEl) {
  try {
    await navigator.clipboard.writeText(text);
    toast(okMsg);
    return true;
  } catch {
    if (fallbackEl) {
      fallbackEl.hidden = false;
      if (fallbackEl.select) fallbackEl.select();
      else {
        const r = document.createRange();
        r.selectNodeContents(fallbackEl);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(r);
      }
    }
    toast(t('error.copy'));
    return false;
  }
}

// Shows the start page or the game ('start' | 'game').
export function show(which) {
  $('loading').hidden = true;
  if (which !== 'start') $('hero-board').querySelectorAll('.row').forEach((r) => r.replaceChildren());
  $('start').hidden = which !== 'start';
  $('game').hidden = which !== 'game';
}

// value null removes the key.
export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage may be off: the seat then lasts as long as the tab */ }
}

export function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
