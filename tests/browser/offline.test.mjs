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
import { root, ready, waitMoves, readBoard, shot, prefixProxy, browserSuite, Server } from './lib.mjs';

const suite = browserSuite();
const { player, noProblems } = suite;

// Waits until the service worker is active and controls the page.
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15000 });
}

// A page in a browser profile of its own on disk: Chromium installs no app
// from an incognito context, which every other test's context is.
async function profilePage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oware-profile-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox'], viewport: { width: 1000, height: 800 },
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
    // The new version: a changed style sheet, and the list that says so.
    fs.appendFileSync(path.join(dir, 'style.css'), '\n/* version 2 */\n');
    const list = path.join(dir, 'sw-files.js');
    fs.writeFileSync(list, fs.readFileSync(list, 'utf8')
      .replace(/("style\.css": ")[0-9a-f]+/, '$1feedfacefeedface')
      .replace(/OW_VERSION = '[0-9a-f]+'/, "OW_VERSION = 'feedfacefeedface'"));
    await p.evaluate(() => navigator.serviceWorker.ready.then((r) => r.update()));
    await p.waitForSelector('#update:not([hidden])', { timeout: 15000 });
    await shot(p, 'offline-update-en');
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
