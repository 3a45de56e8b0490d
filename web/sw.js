// sw.js: the service worker that lets the page work with no network after
// one visit (docs/playing.md, "Without the network"). It keeps every file
// of sw-files.js (made by make: each file with the hash of its content) in
// a cache named after that list, answers the page's requests from it, and
// keeps the endgame database once the page has fetched it. The files the
// page loads through its modules are asked for under v/<hash>/ (a URL that
// changes with their content, which the browser keeps a year): the worker
// takes them from the browser's cache when the page has just loaded them.
// A new list (a new version on the server) is installed beside the old
// one; it takes over only when the page says so (offline.js asks the
// player first), so an update never changes the files under a game in
// progress.
/* global self, caches, importScripts */
importScripts('sw-files.js');

const FILES = self.OW_FILES;     // path: hash, kept at install
const LATER = self.OW_LATER;     // path: hash, kept once the page fetches it (oware.egdb)
const ASSETS = `v/${self.OW_ASSETS}/`;  // the folder of the files whose URL changes with them
const CACHE = `oware-${self.OW_VERSION}`;
const RUNTIME = 'oware-runtime';

const url = (path) => new URL(path, self.registration.scope).href;
// A file kept once fetched is stored under its hash, so a new one is fetched again.
const laterKey = (path) => `${url(path)}?v=${LATER[path]}`;

self.addEventListener('install', (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Revalidated with the server (ETags), not taken from the HTTP cache
    // blindly; but a file under v/<hash>/ is the same for good.
    await cache.addAll(Object.keys(FILES).map((f) => new Request(url(f),
      { cache: f.startsWith(ASSETS) ? 'default' : 'no-cache' })));
  })());
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('oware-') && name !== CACHE && name !== RUNTIME) await caches.delete(name);
    }
    const runtime = await caches.open(RUNTIME);
    const wanted = new Set(Object.keys(LATER).map(laterKey));
    for (const req of await runtime.keys()) if (!wanted.has(req.url)) await runtime.delete(req);
    await self.clients.claim();
  })());
});

// A file of LATER (the endgame database) fetched before this worker
// controlled the page (a first visit) went past it: once the page has it,
// it says so ({keep: path}) and the copy the browser holds is kept too.
async function keepLater(path) {
  const cache = await caches.open(RUNTIME);
  if (await cache.match(laterKey(path))) return;
  // Asked for as the computer's worker asked (under the assets' folder),
  // so the browser's HTTP cache answers it without the network.
  const resp = await fetch(new Request(url(ASSETS + path), { cache: 'force-cache' }));
  if (resp.ok) await cache.put(laterKey(path), resp);
}

self.addEventListener('message', (ev) => {
  if (ev.data === 'skip-waiting') self.skipWaiting();
  else if (ev.data && typeof ev.data.keep === 'string' && ev.data.keep in LATER) {
    ev.waitUntil(keepLater(ev.data.keep).catch(() => {}));
  }
});

// The page itself (any ?room=, ?local=, ...) is index.html; the other kept
// files by their path; anything else (the WebSocket, /api/rooms, /healthz)
// goes to the network untouched.
self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const u = new URL(req.url);
  const scope = new URL(self.registration.scope);
  if (u.origin !== scope.origin || !u.pathname.startsWith(scope.pathname)) return;
  let path = u.pathname.slice(scope.pathname.length);
  if (req.mode === 'navigate' && (path === '' || path === 'index.html')) path = 'index.html';
  // The endgame database is kept by its own hash, whatever the folder.
  if (path.startsWith(ASSETS) && path.slice(ASSETS.length) in LATER) path = path.slice(ASSETS.length);
  if (path in FILES) {
    ev.respondWith((async () => {
      const cache = await caches.open(CACHE);
      return (await cache.match(url(path))) || fetch(req);
    })());
  } else if (path in LATER) {
    ev.respondWith((async () => {
      const cache = await caches.open(RUNTIME);
      const hit = await cache.match(laterKey(path));
      if (hit) return hit;
      const resp = await fetch(req);
      if (resp.ok) await cache.put(laterKey(path), resp.clone());
      return resp;
    })());
  }
});

// ---- Web Push (issue 53; PROTOCOL.md "Push") ----
// A push is the facts of what happened in a room with a clock of days
// ({room, kind, event, seat, by, move, deadline, winner, ...}); the words
// to say it in are the page's, kept by push.js when the player subscribed.
// One notification per room (its tag): a newer one replaces it.
const WORDS = 'push-words';

async function pushWords() {
  try {
    const hit = await (await caches.open(WORDS)).match(url('push-words.json'));
    if (hit) return await hit.json();
  } catch { /* none kept */ }
  return null;
}

const fill = (s, p) => String(s || '').replace(/\{(\w+)\}/g, (m, k) => (p[k] === undefined ? m : String(p[k])));

// The notification's title and body for facts f in words w.
function pushText(f, w) {
  const g = (w && ((typeof f.kind === 'string' && w[f.kind]) || w.oware)) || {};
  const opp = f.seat === 'south' ? 'north' : 'south';
  const name = typeof f.by === 'string' && f.by ? f.by : (g[opp] || opp);
  const title = g.title || 'Oware';
  if (!w) return { title, body: `${name}: ${f.move || ''}` };
  let body;
  if (f.event === 'draw_offer') body = fill(g.draw, { name });
  else if (f.event === 'end') {
    body = f.winner === f.seat ? w.won : f.winner === 'draw' ? w.draw
      : f.winner === opp ? w.lost : w.over;
  } else body = fill(g.move, { name, pit: f.move || '' });
  if (f.event !== 'end' && typeof f.deadline === 'number') {
    let at;
    try {
      at = new Intl.DateTimeFormat(w.lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(f.deadline));
    } catch { at = new Date(f.deadline).toISOString().slice(0, 16).replace('T', ' '); }
    body += ` · ${fill(w.deadline, { at })}`;
  }
  return { title, body };
}

self.addEventListener('push', (ev) => {
  ev.waitUntil((async () => {
    let f = {};
    try { f = ev.data ? ev.data.json() : {}; } catch { f = {}; }
    if (typeof f.room !== 'string') return;
    const { title, body } = pushText(f, await pushWords());
    await self.registration.showNotification(title, {
      body, tag: `oware-${f.room}`, renotify: true, icon: url('icon.svg'), data: { room: f.room },
    });
  })());
});

// A click opens the room: a window showing it is focused, else one opened.
self.addEventListener('notificationclick', (ev) => {
  ev.notification.close();
  const room = ev.notification.data && ev.notification.data.room;
  if (typeof room !== 'string') return;
  const done = (async () => {
    for (const c of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
      if (new URL(c.url).searchParams.get('room') === room && 'focus' in c) return c.focus();
    }
    return self.clients.openWindow(url(`./?room=${encodeURIComponent(room)}`));
  })();
  // A click the browser did not make (a test's) cannot extend the event.
  try { ev.waitUntil(done); } catch { /* it runs all the same */ }
});
