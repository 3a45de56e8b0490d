// offline.js: the page's side of the service worker (sw.js): registers it,
// so that after one visit everything on this device works without the
// network, and offers a new version when the server has one. The new
// version is taken only when the player presses Reload, and only offered
// while no online game is being played (busy()); a game on this device is
// kept across the reload as always.
// @ts-check
import { $ } from './ui.js';
import { setHidden } from './dom.js';

// How long the start page of a first visit waits before it registers the
// service worker (see startOffline).
const START_WAIT_MS = 10000;

let waiting = null;   // the installed new version's worker, not yet active
let busy = () => false;

function offer() {
  setHidden($('update'), !waiting || busy());
}

function watch(reg) {
  const installed = (w) => {
    if (w.state === 'installed' && navigator.serviceWorker.controller) {
      waiting = w;
      offer();
    }
  };
  if (reg.waiting) installed(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const w = reg.installing;
    if (w) w.addEventListener('statechange', () => installed(w));
  });
}

// Registers the worker (where the browser has them and the page is served
// over HTTPS or from localhost) and wires the update line. isBusy: whether a
// game is being played now; refresh() asks again after such a game ends.
export function startOffline(isBusy) {
  busy = isBusy;
  $('update-reload').addEventListener('click', () => {
    if (!waiting) return;
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload());
    waiting.postMessage('skip-waiting');
  });
  if (!('serviceWorker' in navigator)) return;
  // updateViaCache 'none': the list of files (sw-files.js) is always asked of
  // the server, not of the HTTP cache, when looking for a new version.
  const register = () => navigator.serviceWorker.register('sw.js', { updateViaCache: 'none' })
    .then(watch, () => {});
  // On a first visit the worker fetches every file the page has not (the
  // lessons, the puzzles, the other engines): only once a first move can
  // be made, so that a slow network brings the game first. That is now on
  // a page that opened a game (startOffline runs once the engines are
  // loaded and the game set), and after START_WAIT_MS on the start page.
  // A page the worker already serves only looks for a new version.
  const q = new URLSearchParams(window.location.search);
  if (navigator.serviceWorker.controller || ['room', 'local', 'record'].some((k) => q.has(k))) register();
  else setTimeout(register, START_WAIT_MS);
  // A long-open page looks for a new version when it comes back to the front.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      navigator.serviceWorker.getRegistration().then((r) => r && r.update()).catch(() => {});
    }
  });
}

// The update line, drawn again with the game screen (a game began or
// ended): shown while a new version waits and no online game is played.
export function drawUpdate() {
  offer();
}
