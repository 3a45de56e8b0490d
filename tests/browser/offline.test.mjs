// offline.test.mjs: the page as an installable app that works without the
// network (web/manifest.webmanifest, web/sw.js, web/offline.js): Chromium's
// own install checks at a domain root and under a path prefix; after one
// visit, with the network cut, the page opens again (also from cold) and a
// game against the computer is played; a file changed on the server
// reaches the page as an update it offers, and a game on this device
// survives taking it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root, ready, waitMoves, readBoard, shot, prefixProxy, browserSuite, switchLang, Server, saveShot, CHROMIUM, SLOW } from './lib.mjs';
import { startNginx } from '../nginx/nginx.mjs';

const suite = browserSuite([], { serviceWorkers: 'allow' });
const { player, noProblems } = suite;
const games = JSON.parse(fs.readFileSync(path.join(root, 'tests/server/games.json'), 'utf8'));
// A 16-ply game North wins 25-5 (tests/server/games.json), with blunders.
const GAME = games[0].moves.split('');

// Whether the endgame database is in the service worker's cache within ms
// (asked again and again: waitForFunction would take the promise itself
// for a true answer).
async function egdbKept(page, ms) {
  const until = Date.now() + ms * SLOW;
  for (;;) {
    const kept = await page.evaluate(() => caches.open('oware-runtime').then((c) => c.keys())
      .then((k) => k.some((r) => /oware\.egdb\?v=/.test(r.url))));
    if (kept || Date.now() > until) return kept;
    await page.waitForTimeout(250);
  }
}

// Files of a new build written again at the same length: an ETag is the
// length and the second of the last change (lws's), so within the second
// of the test's copy of web/ they would be answered 304 and no update
// seen (docs/running.md). A deploy comes later than that.
function deployed(...files) {
  const later = new Date(Date.now() + 2000);
  for (const f of files) fs.utimesSync(f, later, later);
}

// Waits until the service worker is active and controls the page.
// (On a first visit's start page the page registers it after 10 s: web/offline.js.)
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 30000 });
}

// A page in a browser profile of its own on disk: Chromium installs no app
// from an incognito context, which every other test's context is.
// args: more Chromium switches (--ignore-certificate-errors for the tests'
// self-signed nginx, which the service worker's script needs too).
async function profilePage(args = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oware-profile-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', ...args], viewport: { width: 1000, height: 800 },
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console ${m.text()}`); });
  page.done = async () => { await ctx.close(); fs.rmSync(dir, { recursive: true, force: true }); };
  return page;
}

async function installability(page) {
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  const manifest = await cdp.send('Page.getAppManifest');
  await cdp.detach();
  return { errors: installabilityErrors.map((e) => e.errorId), manifest };
}

test('installable at the root: name, icons, start URL and scope, served with its type', async () => {
  const p = await profilePage();
  await p.goto(suite.server.url);
  await ready(p);
  await controlled(p);
  const { errors, manifest } = await installability(p);
  assert.deepEqual(errors, [], 'Chromium finds nothing that stops an install');
  assert.equal(manifest.url, `${suite.server.url}manifest.webmanifest`);
  assert.deepEqual(manifest.errors, []);
  const m = JSON.parse(manifest.data);
  assert.equal(m.display, 'standalone');
  assert.equal(m.start_url, './');
  assert.equal(m.scope, './');
  assert.deepEqual(m.icons.map((i) => i.sizes), ['192x192', '512x512', '512x512', 'any']);
  const types = await p.evaluate(async () => Promise.all(['manifest.webmanifest', 'sw.js', 'sw-files.js', 'icons/icon-512.png']
    .map((f) => fetch(f, { cache: 'no-store' }).then((r) => r.headers.get('content-type')))));
  assert.deepEqual(types, ['application/manifest+json', 'text/javascript', 'text/javascript', 'image/png']);
  assert.deepEqual(p.problems, []);
  await p.done();
});

test('under a path prefix: the worker\'s scope and the app\'s are the prefix', async () => {
  const proxy = await prefixProxy(suite.server.port, '/juegos/oware/');
  try {
    const base = `http://127.0.0.1:${proxy.port}/juegos/oware/`;
    const p = await profilePage();
    await p.goto(base);
    await ready(p);
    await controlled(p);
    assert.equal(await p.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope)), base);
    const { errors, manifest } = await installability(p);
    assert.deepEqual(errors, []);
    assert.equal(manifest.url, `${base}manifest.webmanifest`);
    assert.deepEqual(p.problems, []);
    await p.done();
  } finally {
    await proxy.close();
  }
});

test('under /oware/ behind the shipped nginx site over https: installable there, its worker scoped there', async () => {
  const nginx = await startNginx([{ template: 'oware-rooms-prefix.conf', upstream: suite.server.port }]);
  try {
    const base = `https://127.0.0.1:${nginx.sites[0].https}/oware/`;
    const p = await profilePage(['--ignore-certificate-errors']);
    await p.goto(base);
    await ready(p);
    await controlled(p);
    assert.equal(await p.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope)), base);
    const { errors, manifest } = await installability(p);
    assert.deepEqual(errors, [], 'Chromium finds nothing that stops an install');
    assert.equal(manifest.url, `${base}manifest.webmanifest`);
    assert.deepEqual(manifest.errors, []);
    // The modules came from the folder named after them, through nginx, kept a year.
    const cc = await p.evaluate(async () => {
      const app = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/oware\/v\/[0-9a-f]{16}\/app\.js$/.test(n));
      const r = await fetch(app, { cache: 'no-store' });
      return [r.status, r.headers.get('cache-control')];
    });
    assert.deepEqual(cc, [200, 'public, max-age=31536000, immutable']);
    assert.deepEqual(p.problems, []);
    await p.done();
  } finally {
    await nginx.stop();
  }
});

test('after one visit, with the network cut: the page opens, also from cold, and the computer plays', async () => {
  const p = await player({ name: 'offline' });
  const ctx = p.context();
  await p.goto(suite.server.url);
  await ready(p);
  await controlled(p);
  await ctx.setOffline(true);
  assert.equal(await p.evaluate(() => fetch('healthz').then(() => 'online', () => 'offline')), 'offline');
  await p.reload();
  await ready(p);
  await p.check('input[name="ai-level"][value="easy"]');
  await p.check('input[name="ai-side"][value="south"]');
  await p.click('#ai-play');
  await ready(p);
  const first = (await readBoard(p)).legal[0];
  await p.click(`#board .pit.legal[data-pit="${first}"]`);
  await waitMoves(p, 2);
  await shot(p, 'offline-computer');
  // From cold: a new page of the same browser profile, still offline.
  await p.close();
  const q = await ctx.newPage();
  q.problems = [];
  await q.goto(suite.server.url);
  await q.waitForFunction(() => !!window.owareTest && window.owareTest.ready === true);
  assert.equal(await q.isVisible('#local-resume'), true, 'the game on this device can be resumed');
  await q.click('#local-resume');
  await q.waitForFunction(() => !!window.owareTest && window.owareTest.ready === true);
  await waitMoves(q, 2);
  await ctx.setOffline(false);
  noProblems();
});

test('a file changed on the server is offered as an update; a game on this device survives it', async () => {
  // A web root of its own, changed during the test as a new build would.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oware-web-'));
  // (Without the compressed copies, which would go stale as the files change.)
  fs.cpSync(path.join(root, 'web'), dir, { recursive: true, verbatimSymlinks: true,
    filter: (f) => !/\.(gz|br)$/.test(f) });
  const server = await new Server(['--web-root', dir]).start();
  try {
    const p = await player({ name: 'update' });
    await p.goto(server.url);
    await ready(p);
    await controlled(p);
    await p.click('#local-play');
    await ready(p);
    for (const k of ['c', 'C']) await p.keyboard.press(k);
    await waitMoves(p, 2);
    assert.equal(await p.isVisible('#update'), false, 'nothing to offer yet');
    const boardTop = () => p.$eval('#board', (e) => e.getBoundingClientRect().top);
    const before = await boardTop();
    // The new version: a changed style sheet, and the list that says so.
    fs.appendFileSync(path.join(dir, 'style.css'), '\n/* version 2 */\n');
    const list = path.join(dir, 'sw-files.js');
    fs.writeFileSync(list, fs.readFileSync(list, 'utf8')
      .replace(/("style\.css": ")[0-9a-f]+/, '$1feedfacefeedface')
      .replace(/OW_VERSION = '[0-9a-f]+'/, "OW_VERSION = 'feedfacefeedface'"));
    deployed(list);
    await p.evaluate(() => navigator.serviceWorker.ready.then((r) => r.update()));
    await p.waitForSelector('#update:not([hidden])', { timeout: 15000 });
    // Offered during the game, it moves nothing: it floats over the page's
    // foot, inside the window (issue 43: it pushed a phone's board down).
    assert.equal(await boardTop(), before, 'the board has not moved');
    const inView = () => p.evaluate(() => {
      const r = document.getElementById('update').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
    });
    assert.equal(await inView(), true);
    await shot(p, 'offline-update-en');
    for (const lang of ['en', 'es']) {
      await p.setViewportSize({ width: 360, height: 740 });
      if (lang === 'es') await switchLang(p, 'es');
      // On a phone too: the board stands where it stands without the offer.
      const top = await boardTop();
      await p.evaluate(() => { document.getElementById('update').hidden = true; });
      assert.equal(await boardTop(), top, `${lang} 360: the offer moves nothing`);
      await p.evaluate(() => { document.getElementById('update').hidden = false; });
      assert.equal(await inView(), true);
      await saveShot(p, `offline-update-${lang}-360`);
      await p.setViewportSize({ width: 1280, height: 800 });
      await saveShot(p, `offline-update-${lang}-1280`);
    }
    await switchLang(p, 'en');
    // Until the player takes it, the page keeps the old files.
    assert.equal(await p.evaluate(() => fetch('style.css').then((r) => r.text())).then((t) => t.includes('version 2')), false);
    await Promise.all([p.waitForEvent('load'), p.click('#update-reload')]);
    await ready(p);
    await waitMoves(p, 2);
    assert.equal(await p.evaluate(() => fetch('style.css').then((r) => r.text())).then((t) => t.includes('version 2')), true);
    assert.equal(await p.isVisible('#update'), false);
  } finally {
    await server.stop();
    server.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  noProblems();
});

test('with the network cut after a first visit: an analysis (with the endgame database) and a lesson', async () => {
  const p = await player({ name: 'offline-study' });
  const ctx = p.context();
  // The first visit: a game against the computer, whose first reply
  // fetches the endgame database (kept by the worker once fetched).
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="ai-level"][value="easy"]');
  await p.check('input[name="ai-side"][value="south"]');
  await p.click('#ai-play');
  await ready(p);
  await controlled(p);
  await p.click(`#board .pit.legal[data-pit="${(await readBoard(p)).legal[0]}"]`);
  await waitMoves(p, 2);
  assert.equal(await egdbKept(p, 20000), true, 'the endgame database kept by the worker');
  await ctx.setOffline(true);
  // An analysis of an imported record, from the start page opened offline.
  await p.goto(suite.server.url);
  await ready(p);
  await p.fill('#import-text', GAME.join(' '));
  await p.click('#import-open');
  await waitMoves(p, GAME.length);
  await p.click('#rv-first');
  await p.click('#an-start');
  await p.waitForSelector('#an-result:not([hidden])');
  await p.waitForSelector('#an-progress', { state: 'hidden', timeout: 120000 });
  const marks = await p.$$eval('#moves .mv .an-mark', (els) => els.map((e) => e.textContent));
  assert.ok(marks.includes('??'), `the blunders are marked: ${marks}`);
  assert.equal(await p.$$eval('#an-summary tbody tr', (r) => r.length), 2, 'a summary line for each side');
  // The endgame database, by the URL the computer's worker asks for it, comes from the worker's cache.
  const egdb = await p.evaluate(async () => {
    const app = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/v\/[0-9a-f]{16}\/app\.js$/.test(n));
    const r = await fetch(app.replace(/app\.js$/, 'oware.egdb'));
    return [r.status, (await r.arrayBuffer()).byteLength];
  });
  assert.deepEqual(egdb, [200, fs.statSync(path.join(root, 'web/oware.egdb')).size]);
  await shot(p, 'offline-analysis');
  // A lesson: the list, the first lesson's first step, its answer.
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#learn-open');
  await p.waitForSelector('#learn-list .learn-lesson');
  const lessons = JSON.parse(fs.readFileSync(path.join(root, 'web/lessons/oware.json'), 'utf8')).lessons;
  assert.equal(await p.locator('#learn-list .learn-lesson').count(), lessons.length);
  await p.locator('#learn-list .learn-lesson').first().click();
  const step = lessons[0].steps[0];
  assert.equal((await p.textContent('#learn-text')).trim(), step.text.en);
  await p.click(`#learn-board .pit[data-pit="${step.answers[0]}"]`);
  await p.waitForSelector('#learn-next:not([hidden])');
  assert.equal(await p.getAttribute('#learn-feedback', 'data-kind'), 'done');
  assert.equal((await p.textContent('#learn-feedback')).trim(), step.done.en);
  await shot(p, 'offline-lesson');
  assert.equal(await p.evaluate(() => fetch('healthz').then(() => 'online', () => 'offline')), 'offline');
  await ctx.setOffline(false);
  noProblems();
});

// The seat token a page keeps for room.
const seatToken = (page, room) => page.evaluate((r) => localStorage.getItem(`oware.token.${r}`), room);

test('an online room without the network: says so in both languages, keeps the seat, comes back by itself', async () => {
  const south = await player({ name: 'south', locale: 'en-US', viewport: { width: 360, height: 740 }, mobile: true });
  const north = await player({ name: 'north', locale: 'es-ES', viewport: { width: 360, height: 740 }, mobile: true });
  await south.goto(suite.server.url);
  await ready(south);
  await south.click('#create');
  await south.waitForSelector('#share:not([hidden])');
  const link = await south.inputValue('#share-link');
  const room = new URL(link).searchParams.get('room');
  await north.goto(link);
  await ready(north);
  await north.waitForFunction(() => document.body.dataset.seat === 'north');
  await south.waitForSelector('#share', { state: 'hidden' });
  const tokens = [await seatToken(south, room), await seatToken(north, room)];
  assert.ok(tokens[0] && tokens[1] && tokens[0] !== tokens[1]);
  const OFFLINE = {
    en: 'No network: online rooms need it. Your seat is kept, and the game comes back by itself when the network does.',
    es: 'Sin red: las salas en línea la necesitan. Tu asiento se guarda y la partida vuelve sola cuando vuelva la red.',
  };
  for (const [page, lang] of [[south, 'en'], [north, 'es']]) {
    await page.context().setOffline(true);
    await page.waitForSelector('#conn:not([hidden])');
    assert.equal((await page.textContent('#conn-text')).trim(), OFFLINE[lang]);
    assert.equal(await page.isVisible('#conn-action'), false, 'nothing to press: it waits for the network');
    await shot(page, `offline-room-${lang}`);
  }
  // Both come back by themselves, in their seats, and play on.
  for (const page of [south, north]) await page.context().setOffline(false);
  for (const [page, seat] of [[south, 'south'], [north, 'north']]) {
    await page.waitForSelector('#conn', { state: 'hidden', timeout: 15000 });
    assert.equal(await page.evaluate(() => document.body.dataset.seat), seat);
  }
  assert.deepEqual([await seatToken(south, room), await seatToken(north, room)], tokens, 'the seat tokens are kept');
  await south.waitForSelector('#board .pit.legal');
  await south.click(`#board .pit.legal[data-pit="${(await readBoard(south)).legal[0]}"]`);
  await waitMoves(north, 1);
  noProblems();
});

// The app's window is the page's viewport with no browser bar around it
// (the page has no style of its own for display-mode: standalone, which
// Chromium's DevTools protocol cannot emulate): what the screen shows,
// not the whole page, of its start page and of a game.
test('the installed look on a 360 px phone, in English and Spanish', async () => {
  for (const [locale, lang] of [['en-US', 'en'], ['es-ES', 'es']]) {
    const p = await player({ name: `app-${lang}`, locale, viewport: { width: 360, height: 740 }, mobile: true });
    await p.goto(suite.server.url);
    await ready(p);
    assert.equal(await p.getAttribute('html', 'lang'), lang);
    // As wide as the phone: nothing sticks out sideways.
    assert.equal(await p.evaluate(() => document.documentElement.scrollWidth), 360);
    await saveShot(p, `app-standalone-${lang}-start`);
    await p.check('input[name="ai-side"][value="south"]');
    await p.click('#ai-play');
    await ready(p);
    await p.waitForSelector('#board .pit.legal');
    assert.equal(await p.evaluate(() => document.documentElement.scrollWidth), 360);
    await saveShot(p, `app-standalone-${lang}-game`);
  }
  noProblems();
});

test('a changed module (a new v/<hash>/ folder) is offered as an update and taken on Reload; the game survives', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oware-web-'));
  fs.cpSync(path.join(root, 'web'), dir, { recursive: true, verbatimSymlinks: true,
    filter: (f) => !/\.(gz|br)$/.test(f) });
  const server = await new Server(['--web-root', dir]).start();
  try {
    const p = await player({ name: 'update-module' });
    await p.goto(`${server.url}?local=1`);
    await ready(p);
    await controlled(p);
    for (const k of ['c', 'C']) await p.keyboard.press(k);
    await waitMoves(p, 2);
    // A new build: the same files but app.js, in a folder of a new name
    // that boot.js and the service worker's list name.
    const list = path.join(dir, 'sw-files.js');
    const old = /self\.OW_ASSETS = '([0-9a-f]{16})'/.exec(fs.readFileSync(list, 'utf8'))[1];
    const neu = 'feedfacefeedface';
    fs.cpSync(path.join(dir, 'v', old), path.join(dir, 'v', neu), { recursive: true, verbatimSymlinks: true });
    fs.appendFileSync(path.join(dir, 'v', neu, 'app.js'), '\nwindow.owareV2 = true;\n');
    const boot = path.join(dir, 'boot.js');
    fs.writeFileSync(boot, fs.readFileSync(boot, 'utf8').replaceAll(old, neu));
    fs.writeFileSync(list, fs.readFileSync(list, 'utf8').replaceAll(old, neu)
      .replace(/OW_VERSION = '[0-9a-f]+'/, "OW_VERSION = 'feedfacefeedface'"));
    deployed(boot, list);
    await p.evaluate(() => navigator.serviceWorker.ready.then((r) => r.update()));
    await p.waitForSelector('#update:not([hidden])', { timeout: 15000 });
    assert.equal(await p.evaluate(() => window.owareV2), undefined, 'the old modules until Reload');
    await Promise.all([p.waitForEvent('load'), p.click('#update-reload')]);
    await ready(p);
    assert.equal(await p.evaluate(() => window.owareV2), true, 'the new app.js runs');
    assert.ok(await p.evaluate((v) => performance.getEntriesByType('resource')
      .some((e) => e.name.includes(`/v/${v}/engine.wasm`)), neu), 'the engine by the new folder');
    await waitMoves(p, 2);
    assert.equal(await p.isVisible('#update'), false);
    // Offline, from cold, the new version opens.
    await p.context().setOffline(true);
    await p.reload();
    await ready(p);
    assert.equal(await p.evaluate(() => window.owareV2), true);
    await waitMoves(p, 2);
    await p.context().setOffline(false);
  } finally {
    await server.stop();
    server.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  noProblems();
});

// Both sizes' screenshots of what a page shows now: name-<lang>-1280 and -360.
async function shotsBoth(p, name, lang) {
  const was = p.viewportSize();
  for (const [w, h] of [[1280, 800], [360, 740]]) {
    await p.setViewportSize({ width: w, height: h });
    await saveShot(p, `${name}-${lang}-${w}`, { fullPage: true });
  }
  await p.setViewportSize(was);
}

const START_OFFLINE = {
  en: 'No network now. Playing on this device (against the computer or a friend beside you), the lessons, the puzzles and studying a record work. Online rooms and the list of your games need the network.',
  es: 'Ahora no hay red. Jugar en este dispositivo (contra la IA o con alguien a tu lado), las lecciones, los problemas y estudiar un registro funcionan. Las salas en línea y la lista de tus partidas necesitan la red.',
};

test('the start page without the network says what needs it and what works; Create waits for the network', async () => {
  for (const [locale, lang] of [['en-US', 'en'], ['es-ES', 'es']]) {
    const p = await player({ name: `start-offline-${lang}`, locale, viewport: { width: 1280, height: 800 } });
    await p.goto(suite.server.url);
    await ready(p);
    assert.equal(await p.isVisible('#start-offline'), false, 'nothing said with the network');
    assert.equal(await p.isDisabled('#create'), false);
    // A seat held in a room: the games list is asked for.
    await p.evaluate(() => localStorage.setItem('oware.token.abcdef', 'tok'));
    await p.context().setOffline(true);
    await p.waitForSelector('#start-offline:not([hidden])');
    assert.equal((await p.textContent('#start-offline')).trim(), START_OFFLINE[lang]);
    assert.equal(await p.isDisabled('#create'), true, 'Create waits for the network');
    assert.equal(await p.isVisible('#create-offline'), true);
    const words = JSON.parse(fs.readFileSync(path.join(root, `web/i18n/${lang}.json`), 'utf8'));
    assert.equal((await p.textContent('#create-offline')).trim(), words['start.offline.create']);
    await p.waitForFunction((w) => document.getElementById('games-note').textContent === w, words['games.offline']);
    assert.notEqual(words['games.offline'], words['games.failed']);
    // What works: a game against the computer starts.
    await shotsBoth(p, 'offline-start', lang);
    await p.context().setOffline(false);
    await p.waitForSelector('#start-offline', { state: 'hidden' });
    assert.equal(await p.isDisabled('#create'), false, 'Create is offered again, nothing created by itself');
    assert.equal(await p.isVisible('#game'), false);
  }
  noProblems();
});

test('a room reloaded without the network shows its last state, read only; the own clock stands while the connection is lost', async () => {
  for (const [locale, lang, vp, mobile] of [['en-US', 'en', { width: 1280, height: 800 }, false], ['es-ES', 'es', { width: 360, height: 740 }, true]]) {
    const north = await player({ name: `saved-n-${lang}`, locale, viewport: vp, mobile });
    const south = await player({ name: `saved-s-${lang}`, locale, viewport: vp, mobile });
    const words = JSON.parse(fs.readFileSync(path.join(root, `web/i18n/${lang}.json`), 'utf8'));
    // North creates with a clock; South, by the link, is the page tested
    // (a page opened on a room registers its service worker at once).
    await north.goto(suite.server.url);
    await ready(north);
    await north.check('input[name="side"][value="north"]');
    await north.check('input[name="clock"][value="3+2"]');
    await north.click('#create');
    await north.waitForSelector('#share:not([hidden])');
    const link = await north.inputValue('#share-link');
    await south.goto(link);
    await ready(south);
    await south.waitForFunction(() => document.body.dataset.seat === 'south');
    await controlled(south);
    await south.click(`#board .pit.legal[data-pit="${(await readBoard(south)).legal[0]}"]`);
    await waitMoves(north, 1);
    await north.click(`#board .pit.legal[data-pit="${(await readBoard(north)).legal[0]}"]`);
    await waitMoves(south, 2);
    // South's clock runs; the connection goes: it stands, marked.
    const own = '#player-bottom .player-clock';
    await south.waitForSelector(`${own}.running`);
    await south.context().setOffline(true);
    await south.waitForSelector(`${own}.paused`);
    const stood = await south.textContent(own);
    await south.waitForTimeout(2500);
    assert.equal(await south.textContent(own), stood, 'the own clock does not tick while the connection is lost');
    assert.match(await south.getAttribute(own, 'aria-label'), new RegExp(words['clock.label.paused'].replace('{time}', '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await shotsBoth(south, 'offline-clock', lang);
    // Reloaded without the network: the room as last seen, read only.
    await south.reload();
    await ready(south);
    await south.waitForSelector('#board .pit');
    const b = await readBoard(south);
    assert.equal(b.moves, 2, 'the moves as last seen');
    assert.deepEqual(b.legal, [], 'nothing can be played');
    assert.equal(b.pits.reduce((x, y) => x + y, 0), 48 - b.captured.south - b.captured.north);
    assert.equal(await south.evaluate(() => document.body.dataset.seat), 'south');
    assert.equal((await south.textContent('#conn-text')).trim(), `${words['conn.offline']} ${words['conn.saved']}`);
    assert.equal(await south.isDisabled('#act-resign') || !(await south.isVisible('#act-resign')), true, 'no action works');
    assert.equal(await south.isVisible(own), true);
    assert.equal(await south.textContent(own), stood, 'the clock as last heard');
    const turnSide = words['turn.side'];
    assert.equal(turnSide.includes('{side}'), true);
    assert.notEqual((await south.textContent('#status')).trim(), words['turn.yours'], 'not a call to play');
    await shotsBoth(south, 'offline-saved-room', lang);
    // The network back: the room itself, playable again.
    await south.context().setOffline(false);
    await south.waitForSelector('#conn', { state: 'hidden', timeout: 15000 });
    await south.waitForSelector('#board .pit.legal');
    assert.equal((await readBoard(south)).moves, 2);
  }
  noProblems();
});

test('the endgame database is kept by the service worker even when fetched before it controlled the page', async () => {
  const p = await player({ name: 'egdb-first' });
  // The worker's registration held back until the computer has answered
  // (as on a first visit where it installs after the database's fetch).
  await p.addInitScript(() => {
    const reg = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...a) {
      return new Promise((res, rej) => { window.releaseWorker = () => reg.apply(this, a).then(res, rej); });
    };
  });
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="ai-level"][value="easy"]');
  await p.check('input[name="ai-side"][value="south"]');
  // The computer's worker fetches the database once its engine is ready.
  const came = p.waitForEvent('requestfinished', { predicate: (r) => /oware\.egdb/.test(r.url()) });
  await p.click('#ai-play');
  await ready(p);
  await p.click(`#board .pit.legal[data-pit="${(await readBoard(p)).legal[0]}"]`);
  await waitMoves(p, 2);
  await p.waitForFunction(() => typeof window.releaseWorker === 'function', null, { timeout: 30000 });
  await came;
  assert.equal(await p.evaluate(() => navigator.serviceWorker.controller), null, 'not controlled when it came');
  await p.evaluate(() => window.releaseWorker());
  await controlled(p);
  assert.equal(await egdbKept(p, 10000), true, 'in the worker\'s cache within 10 s of its control');
  noProblems();
});
