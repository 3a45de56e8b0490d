// alerts.js: what a room says when something happens (issue 14): short
// sounds synthesized with Web Audio (no sound files), one mute toggle
// (remembered); while the tab is hidden, the title and the favicon show
// that something happened and, if the player opted in, a browser
// notification ("Ana played c: your move") that brings the game back when
// clicked. Permission is asked only when the player presses the button.
// @ts-check
import { t, tIn } from './i18n.js';
import { $, toast } from './ui.js';
import { mySide, moverOf, other } from './model.js';
import { pitLabel } from './kind.js';
import { requestRedraw } from './redraw.js';
import { hooks } from './hooks.js';
import { displayName } from './names.js';
import { resultText } from './texts.js';
import { setAttr, setHidden, setText } from './dom.js';

// '1': notifications asked for (the room's state: online.notify).
export const NOTIFY_KEY = 'oware.notify';
const ICON = 'icon.svg';
// The icon with a gold dot: something happened while the tab was hidden.
const ICON_ALERT = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="2" y="14" width="60" height="36" rx="18" fill="#8a5229"/><g fill="#3d220d"><circle cx="16" cy="32" r="10"/><circle cx="48" cy="32" r="10"/></g><circle cx="50" cy="14" r="13" fill="#f2c14e" stroke="#6b3f1f" stroke-width="3"/></svg>')}`;

// Each sound: notes [frequency Hz, start s, length s], quiet and short.
const SOUNDS = {
  move: [[523, 0, 0.07]],
  capture: [[659, 0, 0.07], [880, 0.08, 0.1]],
  joined: [[523, 0, 0.08], [659, 0.09, 0.08], [784, 0.18, 0.12]],
  offer: [[784, 0, 0.09], [659, 0.11, 0.12]],
  chat: [[988, 0, 0.05], [1319, 0.06, 0.06]],
  end: [[784, 0, 0.12], [659, 0.13, 0.12], [523, 0.26, 0.22]],
};

let audio = null;
// The count of things unseen and the last of them are the room's state
// (model.online.unseen, unseenText).

// The switches are the room's state (online.muted, online.notify: read
// from storage when the room is made, changed by its intents), so no draw
// reads storage; notifications also need the browser's permission.
/** @param {import('./model.js').GameState} model */
const notifyOn = (model) => model.online.notify && typeof Notification === 'function' &&
  Notification.permission === 'granted';
const hidden = () => document.visibilityState === 'hidden';
const pushable = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator &&
  typeof window.PushManager === 'function' && typeof Notification === 'function' &&
  Notification.permission !== 'denied';

// Browsers start audio only after the player touched the page: the context
// is made (or resumed) at the first touch or key.
function unlockAudio() {
  const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
  } catch { audio = null; }
}

function play(model, kind) {
  if (model.online.muted) return;
  hooks.sounds.push(kind);  // for the tests (hooks.js)
  if (!audio || audio.state !== 'running') return;
  const now = audio.currentTime;
  for (const [freq, start, len] of SOUNDS[kind] || []) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + start);
    osc.stop(now + start + len + 0.02);
  }
}

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute('href') !== href) setAttr(link, 'href', href);
}

// Something happened: its sound, and while the tab is hidden the title,
// the icon and (if opted in) a notification saying text.
/** @param {import('./model.js').GameState} model the room's state */
function happened(model, kind, text) {
  play(model, kind);
  if (!hidden()) return;
  model.online.unseen++;
  model.online.unseenText = text;
  setIcon(ICON_ALERT);
  requestRedraw();
  if (notifyOn(model)) {
    try {
      const n = new Notification(tIn(model.kind, 'app.title'), { body: text, tag: `oware-${model.online.room}`, icon: ICON });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* some browsers allow notifications only from a service worker */ }
  }
}

// While hidden with something unseen, the title says it (after status.js
// wrote its own).
/** @param {import('./model.js').GameState} model */
function drawTitle(model) {
  const { unseen, unseenText } = model.online;
  if (!unseen || !hidden()) return;
  const title = `(${unseen}) ${unseenText} · ${tIn(model.kind, 'app.title')}`;
  if (document.title !== title) document.title = title;
}

// The changes from prev to st worth a sound (st: the new state of the
// room's state model; online.js's controller says them).
/** @param {import('./model.js').GameState} model */
export function stateEvents(model, prev, st) {
  if (!prev || model.mode !== 'online') return;
  const me = mySide(model);
  const who = { kind: model.kind, names: st.names };
  const sameGame = prev.game_number === st.game_number;
  if (sameGame && st.moves.length === prev.moves.length + 1 && st.last) {
    const mover = moverOf(st.last.pit);
    if (mover !== me) {
      const name = displayName(who, mover);
      const mine = me && !st.game.over && st.game.turn === me;
      const pit = pitLabel(st.last.pit, model.kind);
      const text = mine ? t('notify.move.yours', { name, pit }) : t('notify.move', { name, pit });
      happened(model, st.last.seeds > 0 ? 'capture' : 'move', text);
    }
  }
  if (me && !prev.seats[other(me)].taken && st.seats[other(me)].taken) {
    happened(model, 'joined', t('notify.joined', { name: displayName(who, other(me)) }));
  }
  if (me && st.draw_offer && st.draw_offer !== prev.draw_offer && st.draw_offer !== me) {
    happened(model, 'offer', t('notify.draw', { name: displayName(who, st.draw_offer) }));
  }
  if (me && st.rematch_offer && st.rematch_offer !== prev.rematch_offer && st.rematch_offer !== me) {
    happened(model, 'offer', t('notify.rematch', { name: displayName(who, st.rematch_offer) }));
  }
  if (sameGame && !prev.game.over && st.game.over) happened(model, 'end', resultText(st.game, mySide(model), who));
}

// A chat line from someone else.
/** @param {import('./model.js').GameState} model the room's state */
export function chatEvent(model, msg) {
  if (msg.from === mySide(model) || typeof msg.text !== 'string') return;
  const name = msg.name || tIn(model.kind, `side.${msg.from === 'north' ? 'north' : 'south'}`);
  happened(model, 'chat', t('chat.said', { name, text: msg.text }));
}

// Drawn by the draw pass (render.js), last: the title it says wins.
/** @param {import('./model.js').Facts} f */
export function drawAlertButtons(f) {
  const online = f.online;
  const { muted } = f.model.online;
  const sound = $('act-sound');
  setHidden(sound, !online);
  setText(sound, muted ? t('sound.off') : t('sound.on'));
  setAttr(sound, 'aria-pressed', String(!muted));
  const notify = $('act-notify');
  setHidden(notify, !online || !f.me || typeof Notification !== 'function' || Notification.permission === 'denied');
  const on = notifyOn(f.model);
  setText(notify, on ? t('notify.on') : t('notify.off'));
  setAttr(notify, 'aria-pressed', String(on));
  // Web Push: a player of a room with a clock of days, the server sending.
  const push = $('act-push');
  const st = f.model.state;
  const days = !!st && !!st.clock && st.clock.kind === 'correspondence' && !st.game.over;
  setHidden(push, !online || !f.me || !f.model.online.pushKey || !days || !pushable());
  setText(push, f.model.online.push ? t('push.on') : t('push.off'));
  setAttr(push, 'aria-pressed', String(f.model.online.push));
  drawTitle(f.model);
}

// The switches, and the tab shown again (room(): online.js's controller
// of the room shown, or null).
export function wireAlerts(room) {
  for (const ev of ['pointerdown', 'keydown']) document.addEventListener(ev, unlockAudio, { capture: true });
  $('act-sound').addEventListener('click', () => {
    const r = room();
    if (r) r.setMuted(!r.state.online.muted);
  });
  $('act-notify').addEventListener('click', async () => {
    const r = room();
    if (!r) return;
    if (notifyOn(r.state)) { r.setNotify(false); return; }
    let perm = Notification.permission;
    if (perm === 'default') {
      try { perm = await Notification.requestPermission(); } catch { perm = 'denied'; }
    }
    if (perm === 'granted') { r.setNotify(true); toast(t('notify.enabled')); }
    else toast(t('notify.blocked'));
    requestRedraw();
  });
  $('act-push').addEventListener('click', () => {
    const r = room();
    if (r) r.setPush(!r.state.online.push);
  });
  document.addEventListener('visibilitychange', () => {
    if (hidden()) return;
    const r = room();
    if (r) r.seen();
    setIcon(ICON);
    requestRedraw();  // status.js writes the title again
    // status.js writes the title again at the next render.
  });
}
