// Web Push in the browser (issue 53; PROTOCOL.md "Push"): in a room with a
// clock of days the player's control "Tell me when it is my move, even
// when this page is closed" asks the browser's permission, subscribes
// through the service worker with the server's key and sends the
// subscription; the opponent's move makes the server (the test build, its
// fake push service on the loopback allowed) push to it. The browser's
// own push service cannot be reached here, so pushManager hands the page
// a subscription whose endpoint is the test's service and whose keys the
// test holds; the test decrypts what the server pushed and delivers it to
// the page's service worker with the DevTools protocol
// (ServiceWorker.deliverPushMessage). The notification, in the page's
// language (French here), is read with registration.getNotifications().
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { Server, launchBrowser, openPlayer, ready, root, SLOW } from './lib.mjs';

const TEST_BUILD = path.resolve(root, process.env.OWARED_TEST_BUILD || 'build/fault/owared');
const fr = JSON.parse(fs.readFileSync(path.join(root, 'web/i18n/fr.json'), 'utf8'));
const b64u = (b) => Buffer.from(b).toString('base64url');

let server, browser, service;
const pushes = [];

before(async () => {
  service = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => { pushes.push({ path: req.url, body: Buffer.concat(chunks) }); res.writeHead(201); res.end(); });
  });
  await new Promise((r) => service.listen(0, '127.0.0.1', r));
  server = await new Server(['--push-contact', 'mailto:ops@example.org'],
    { bin: TEST_BUILD, env: { OW_TEST_PUSH_LOOPBACK: '1' } }).start();
  browser = await launchBrowser([], { full: true }); // the shell has no Push API
});

after(async () => {
  if (browser) await browser.close();
  if (server) { await server.stop(); server.cleanup(); }
  if (service) await new Promise((r) => service.close(r));
});

// A WebSocket player (south) in node.
async function wsPlayer(port, first) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['oware.v1']);
  const queue = [];
  let wake = null;
  ws.on('message', (d) => { queue.push(JSON.parse(d.toString())); if (wake) wake(); });
  await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
  ws.send(JSON.stringify(first));
  return {
    ws,
    send: (m) => ws.send(JSON.stringify(m)),
    async next(type, ms = 10000) {
      const until = Date.now() + ms;
      for (;;) {
        const i = queue.findIndex((m) => m.type === type);
        if (i >= 0) return queue.splice(i, 1)[0];
        if (Date.now() > until) throw new Error('no ' + type);
        await new Promise((r) => { wake = r; setTimeout(r, 100); });
      }
    },
  };
}

// RFC 8291: what the server pushed, opened with the subscription's keys.
function decrypt(ecdh, auth, body) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdh.computeSecret(asPublic), auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const rec = body.subarray(21 + idlen);
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(rec.subarray(rec.length - 16));
  const plain = Buffer.concat([d.update(rec.subarray(0, rec.length - 16)), d.final()]);
  return plain.subarray(0, plain.lastIndexOf(2)).toString();
}

async function waitPush(n) {
  for (const until = Date.now() + 10000; pushes.length < n;) {
    if (Date.now() > until) throw new Error(`${n} pushes expected, ${pushes.length} came`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return pushes[n - 1];
}

// This browser's push service, as the test's fake: the subscription the
// page gets names sub's endpoint, with the keys the test holds
// (window.subscribed counts the subscribe calls).
async function fakePushService(page, sub) {
  await page.addInitScript((sub) => {
    window.subscribed = 0;
    const made = { endpoint: sub.endpoint, options: { applicationServerKey: null },
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => true };
    let current = null;
    PushManager.prototype.subscribe = async function (opts) {
      window.subscribed++;
      made.options.applicationServerKey = opts.applicationServerKey;
      current = made;
      return made;
    };
    PushManager.prototype.getSubscription = async function () { return current; };
  }, sub);
}

test('the control subscribes; a push the server made shows in French, one per room', async () => {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  const fake = { endpoint: `http://127.0.0.1:${service.address().port}/push/1`,
    keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };

  const ana = await wsPlayer(server.port, { type: 'create', side: 'south', clock: { days: 2 }, name: 'Ana' });
  const { room } = await ana.next('welcome');

  const page = await openPlayer(browser, { locale: 'fr-FR', name: 'kofi', serviceWorkers: 'allow' });
  await page.context().grantPermissions(['notifications'], { origin: server.url });
  await fakePushService(page, fake);
  const cdp = await page.context().newCDPSession(page);
  const regs = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => regs.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');

  await page.goto(`${server.url}?room=${room}`);
  await ready(page);
  await page.waitForFunction(() => document.body.dataset.seat === 'north');
  await page.waitForSelector('#act-push:not([hidden])');
  assert.equal(await page.textContent('#act-push'), fr['push.off']);
  await page.click('#act-push');
  await page.waitForFunction((t) => document.querySelector('#act-push').textContent === t, fr['push.on']);
  assert.equal(await page.evaluate(() => window.subscribed), 1);
  assert.equal(await page.evaluate((r) => localStorage.getItem(`oware.push.${r}`), room), '1');

  // Ana moves: the server pushes to the page's subscription.
  ana.send({ type: 'move', pit: 'c', ply: 0 });
  const pushed = await waitPush(1);
  const facts = JSON.parse(decrypt(ecdh, auth, pushed.body));
  assert.equal(facts.room, room);
  assert.equal(facts.event, 'move');
  assert.equal(facts.by, 'Ana');

  // Delivered to the page's service worker as the push service would.
  const reg = regs.find((r) => !r.isDeleted && r.scopeURL === server.url);
  assert.ok(reg, 'the page registered its service worker: ' + JSON.stringify(regs));
  const deliver = (data) => cdp.send('ServiceWorker.deliverPushMessage',
    { origin: server.url.replace(/\/$/, ''), registrationId: reg.registrationId, data });
  const notes = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({ title: n.title, body: n.body, tag: n.tag, room: n.data && n.data.room })));
  // Delivers data until the notifications shown pass shown(), for up to 5 s
  // a try (a newer push of a room replaces its notification, so a second
  // delivery shows the same). Once in some thirty runs of make test, a
  // delivery through DevTools showed nothing in 10 s; the cause was not
  // found (alone, beside two busy loops, each shows in 9-160 ms).
  const deliverShown = async (data, shown) => {
    for (let tries = 0; tries < 3; tries++) {
      await deliver(data);
      for (const until = Date.now() + 5000 * SLOW; Date.now() < until;) {
        if (shown(await notes())) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  await deliverShown(decrypt(ecdh, auth, pushed.body), (n) => n.length > 0);
  assert.deepEqual(await notes(), [{ title: fr['app.title'], body: fr['notify.move.yours'].replace('{name}', 'Ana').replace('{pit}', 'c'), tag: `oware-${room}`, room }]);

  // The page moves, Ana offers a draw: the newer push replaces the room's notification.
  await page.click('#board .pit.legal[data-pit="A"]');
  await ana.next('state');
  ana.send({ type: 'draw', action: 'offer' });
  const offer = await waitPush(2);
  const f2 = JSON.parse(decrypt(ecdh, auth, offer.body));
  assert.equal(f2.event, 'draw_offer');
  await deliverShown(decrypt(ecdh, auth, offer.body), (n) => n[0]?.body === fr['notify.draw'].replace('{name}', 'Ana'));
  const shown = await notes();
  assert.equal(shown.length, 1);
  assert.equal(shown[0].body, fr['notify.draw'].replace('{name}', 'Ana'));
  assert.equal(shown[0].tag, `oware-${room}`);

  // A click on it: the room's window is focused; with none, one opens on
  // the room. (Headless Chromium cannot click a notification: the test
  // dispatches the click in the worker and records what it asked for.)
  const [sw] = page.context().serviceWorkers();
  assert.ok(sw, 'the page\'s service worker');
  const click = () => sw.evaluate(async () => {
    self.asked = [];
    self.clients.openWindow = async (u) => { self.asked.push(['open', u]); return null; };
    WindowClient.prototype.focus = async function () { self.asked.push(['focus', this.url]); return this; };
    const [n] = await self.registration.getNotifications();
    self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
    for (let i = 0; i < 50 && !self.asked.length; i++) await new Promise((r) => setTimeout(r, 20));
    return self.asked;
  });
  assert.deepEqual(await click(), [['focus', `${server.url}?room=${room}`]]);
  const roomUrl = page.url();
  assert.deepEqual(await notes(), [], 'the click closed it');
  await page.goto(`${server.url}?lang=fr`);
  await ready(page);
  await deliverShown(decrypt(ecdh, auth, offer.body), (n) => n.length > 0);
  assert.deepEqual(await click(), [['open', `${server.url}?room=${room}`]]);
  await page.goto(roomUrl);
  await ready(page);
  await page.waitForFunction(() => document.body.dataset.seat === 'north');
  await page.waitForSelector('#act-push:not([hidden])');

  // Cancelling is as easy.
  await page.click('#act-push');
  await page.waitForFunction((t) => document.querySelector('#act-push').textContent === t, fr['push.off']);
  assert.equal(await page.evaluate((r) => localStorage.getItem(`oware.push.${r}`), room), null);
  assert.deepEqual(page.problems || [], []);
  ana.ws.close();
  await page.context().close();
});

test('"your games" subscribes a seat of days without joining its room, and cancels', async () => {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  const fake = { endpoint: `http://127.0.0.1:${service.address().port}/push/games`,
    keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
  const base = pushes.length;

  const ana = await wsPlayer(server.port, { type: 'create', side: 'south', clock: { days: 3 }, name: 'Ana' });
  const { room } = await ana.next('welcome');
  const bolat = await wsPlayer(server.port, { type: 'join', room, name: 'Bolat' });
  const { token } = await bolat.next('welcome');
  await ana.next('state');

  const page = await openPlayer(browser, { locale: 'fr-FR', name: 'games', serviceWorkers: 'allow' });
  await page.context().grantPermissions(['notifications'], { origin: server.url });
  await page.addInitScript(({ room: r, token: tk }) => {
    if (!localStorage.getItem('oware.token.' + r)) localStorage.setItem('oware.token.' + r, tk);
  }, { room, token });
  await fakePushService(page, fake);
  await page.goto(`${server.url}?lang=fr`);
  await ready(page);
  const sel = `#games-list li[data-room="${room}"] .game-push:not([hidden])`;
  await page.waitForSelector(sel);
  assert.equal(await page.textContent(sel), fr['push.off']);
  await page.click(sel);
  await page.waitForFunction(([q, t]) => document.querySelector(q)?.textContent === t, [sel, fr['push.on']]);
  assert.equal(await page.evaluate(() => window.subscribed), 1);
  assert.equal(await page.evaluate((r) => localStorage.getItem(`oware.push.${r}`), room), '1');
  assert.equal(await page.getAttribute(sel, 'aria-pressed'), 'true');

  // Ana moves: Bolat's seat is told, and his own connection still holds it.
  ana.send({ type: 'move', pit: 'c', ply: 0 });
  const pushed = await waitPush(base + 1);
  assert.equal(pushed.path, '/push/games');
  const facts = JSON.parse(decrypt(ecdh, auth, pushed.body));
  assert.equal(facts.room, room);
  assert.equal(facts.seat, 'north');
  assert.equal(facts.by, 'Ana');
  const moves = async (n) => { for (;;) if ((await bolat.next('state')).moves.length === n) return; };
  await moves(1);
  bolat.send({ type: 'move', pit: 'A', ply: 1 });
  await moves(2);

  // Cancelling is as easy.
  await page.click(sel);
  await page.waitForFunction(([q, t]) => document.querySelector(q)?.textContent === t, [sel, fr['push.off']]);
  assert.equal(await page.evaluate((r) => localStorage.getItem(`oware.push.${r}`), room), null);
  assert.deepEqual(page.problems || [], []);
  ana.ws.close();
  bolat.ws.close();
  await page.context().close();
});
