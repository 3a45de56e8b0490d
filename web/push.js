// push.js: "Tell me when it is my move, even when this page is closed"
// (issue 53; PROTOCOL.md "Push"), loaded only when the player presses it:
// the browser's permission asked then, the subscription made through the
// service worker with the server's key (the welcome's push_key), and the
// words the worker writes a push with (sw.js), in the page's language,
// kept where it reads them. Its words come with it (web/i18n/push/: a
// first visit does not fetch them), but the button's.
// @ts-check
import { getLang, loadPart, t, tIn } from './i18n.js';

// The Cache Storage entry sw.js reads (a cache apart from the files').
export const WORDS_CACHE = 'push-words';
export const WORDS_URL = 'push-words.json';

/** @param {string} s base64url @returns {ArrayBuffer} */
function bytes(s) {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new ArrayBuffer(b.length);
  const v = new Uint8Array(out);
  for (let i = 0; i < b.length; i++) v[i] = b.charCodeAt(i);
  return out;
}

// The words of a push in the page's language, for each game: their
// placeholders ({name}, {pit}, {at}) left for the worker to fill.
export function pushWords() {
  const words = (kind) => ({
    title: tIn(kind, 'app.title'),
    move: tIn(kind, 'notify.move.yours'),
    draw: tIn(kind, 'notify.draw'),
    south: tIn(kind, 'side.south'),
    north: tIn(kind, 'side.north'),
  });
  return {
    lang: getLang(),
    deadline: t('clock.deadline'),
    won: t('push.end.won'),
    lost: t('push.end.lost'),
    draw: t('push.end.draw'),
    over: t('push.end.over'),
    oware: words('oware'),
    togyz: words('togyz'),
  };
}

async function keepWords() {
  const cache = await caches.open(WORDS_CACHE);
  await cache.put(new URL(WORDS_URL, document.baseURI).href,
    new Response(JSON.stringify(pushWords()), { headers: { 'Content-Type': 'application/json' } }));
}

// The page's service worker (registered by offline.js; by this on a start
// page that has none yet),
// waited for at most a few seconds.
async function registration() {
  if (!('serviceWorker' in navigator) || typeof window.PushManager !== 'function') throw new Error('unsupported');
  // The start page registers it only after a while (offline.js): pressed
  // before ("your games"), it is registered now.
  if (!await navigator.serviceWorker.getRegistration()) {
    navigator.serviceWorker.register('sw.js', { updateViaCache: 'none' }).catch(() => {});
  }
  const reg = await Promise.race([navigator.serviceWorker.ready,
    new Promise((_, rej) => setTimeout(() => rej(new Error('unsupported')), 10000))]);
  return /** @type {ServiceWorkerRegistration} */ (reg);
}

// This browser's subscription for key, made if needed (one serves every
// room): its JSON, what the server keeps. Throws 'blocked' or 'unsupported'.
/** @param {string | null} key @param {string} _kind */
export async function subscribe(key, _kind) {
  await loadPart('push');  // the words of the answers, and the worker's
  if (!key) throw new Error('unsupported');
  let perm = Notification.permission;
  if (perm === 'default') perm = await Notification.requestPermission();
  if (perm !== 'granted') throw new Error('blocked');
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  const want = bytes(key);
  const w = new Uint8Array(want);
  const has = sub && sub.options && sub.options.applicationServerKey
    ? new Uint8Array(sub.options.applicationServerKey) : null;
  // Made with another server's key: it cannot serve this one.
  if (sub && (!has || has.length !== w.length || has.some((v, i) => v !== w[i]))) {
    await sub.unsubscribe();
    sub = null;
  }
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: want });
  await keepWords();
  return sub.toJSON();
}

// This browser's endpoint, or null.
export async function endpoint() {
  await loadPart('push');
  const reg = await registration();
  const sub = await reg.pushManager.getSubscription();
  return sub ? sub.endpoint : null;
}

// POST /api/push (PROTOCOL.md "Push from your games"): the seat of room
// that token proves told (on) or not, without joining the room. Throws
// 'blocked', 'unsupported', or the server's error code.
/** @param {string} room @param {string} token @param {string} key @param {boolean} on */
export async function seatPush(room, token, key, on) {
  const body = on ? { room, token, action: 'subscribe', subscription: await subscribe(key, '') }
    : { room, token, action: 'cancel', ...await endpoint().then((e) => (e ? { endpoint: e } : {}), () => ({})) };
  const r = await fetch('api/push', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body) });
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || 'failed');
}
