// offline.js: the page's side of the service worker (sw.js): registers it,
// so that after one visit everything on this device works without the
// network, and offers a new version when the server has one. The new
// version is taken only when the player presses Reload, and only offered
// while no online game is being played (busy()); a game on this device is
// kept across the reload as always.
import { $ } from './ui.js';
import { setHidden } from './dom.js';

let waiting = null;   // the installed new version's worker, not yet active
let busy = () => false;

function offer() {
  const show = !!waiting && !busy();
  setHidden($('update'), !show);  // compared first: a redraw that finds nothing new writes nothing
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
  navigator.serviceWorker.register('sw.js', { updateViaCache: 'none' }).then(watch, () => {});
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
