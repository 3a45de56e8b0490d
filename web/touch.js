// touch.js: the setting "tap once to preview, tap again to play": remembered, on by default on touch screens.
// @ts-check
import { $, store, load } from './ui.js';
import { setHidden } from './dom.js';

const TAP_KEY = 'oware.tapPreview';  // 'on' | 'off'; absent: the default

const touchScreen = () => !!(window.matchMedia && window.matchMedia('(any-pointer: coarse)').matches) ||
  navigator.maxTouchPoints > 0;

// Whether a tap on a pit first previews the move (a second tap plays it).
export function tapPreview() {
  const saved = load(TAP_KEY);
  if (saved === 'on' || saved === 'off') return saved === 'on';
  return !!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches);
}

// The checkbox, under the buttons, while the viewer may move on a touch
// screen. It holds the setting (set once from storage when wired, kept
// when changed), so its draw reads no storage.
/** @param {import('./model.js').Facts} f */
export function drawTouch(f) {
  const shown = touchScreen() && !f.g.over && (!f.online || !!f.me);
  setHidden($('tap-option'), !shown);
}

// disarm(): the board forgets a pit tapped once (table.js).
export function wireTouch(disarm) {
  $('opt-tap').checked = tapPreview();
  $('opt-tap').addEventListener('change', (ev) => {
    store(TAP_KEY, ev.target.checked ? 'on' : 'off');
    // Off: a pit tapped once already needs no second tap.
    if (!ev.target.checked) disarm();
  });
}

