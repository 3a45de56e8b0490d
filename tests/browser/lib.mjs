// lib.mjs: helpers of the browser tests: the real server (build/owared) on
// an ephemeral loopback port with a temporary database, Chromium through
// playwright-core, and reading the board a player sees.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWARED = path.resolve(root, process.env.OWARED || 'build/owared');
// Where screenshots go: $SCREENSHOTS, or none taken (`make test` takes
// none: a full-page one costs Chromium about 0.6 s of CPU, and the
// suites took 365; `make test-browser` takes them all).
export const SHOTS = process.env.SCREENSHOTS ? path.resolve(root, process.env.SCREENSHOTS) : null;
// OW_TEST_SLOW (a number, default 1, as in tests/server/): how much slower
// than a quiet two-core machine this one may be. Every page's waits
// (Playwright's default 30 s, and a deadline a test gives
// waitForFunction or waitForSelector) are that many times longer.
export const SLOW = Math.max(1, Number(process.env.OW_TEST_SLOW) || 1);

// A running owared. start() resolves once it logs the port it listens on.
export class Server {
  // bin: another owared (the test build, build/fault/owared); env: more
  // variables for it.
  constructor(extraArgs = [], { bin = OWARED, env = {} } = {}) {
    this.bin = bin;
    this.env = env;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oware-browser-'));
    this.db = path.join(this.dir, 'oware.db');
    this.port = 0;
    this.extra = extraArgs;
    this.proc = null;
    this.log = '';
  }

  async start() {
    const args = ['--port', String(this.port), '--listen', '127.0.0.1', '--db', this.db,
      '--web-root', path.join(root, 'web'), '--log-level', 'info', ...this.extra];
    const proc = spawn(this.bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...this.env } });
    this.proc = proc;
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`owared did not start:\n${this.log}`)), 10000);
      const onData = (buf) => {
        this.log += buf.toString();
        const m = /listening port=(\d+)/.exec(this.log);
        if (m) { clearTimeout(timer); resolve(Number(m[1])); }
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`owared exited ${code}:\n${this.log}`)); });
    });
    this.port = port;  // a restart reuses it, so the pages' URLs stay valid
    this.log = '';
    return this;
  }

  get url() { return `http://127.0.0.1:${this.port}/`; }

  async stop() {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return;
    const done = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
    this.proc = null;
  }

  cleanup() { fs.rmSync(this.dir, { recursive: true, force: true }); }
}

// The browser the tests drive: Chromium's headless shell (Debian's
// chromium-headless-shell: the same Blink, V8 and network stack as the
// browser, without its windows, tabs and omnibox). The suites took 2,005 s
// of CPU in the full browser, 1,255 s in the shell (the browser process
// 840 s and 349 s), every test passing in both (docs/testing.md). CHROMIUM names another
// (/usr/bin/chromium: the full browser). What the shell lacks, a test
// launches in the full browser, CHROMIUM_FULL: the Push API
// (push.test.mjs), a window for the screen reader (tests/tools/orca-game.mjs).
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium-headless-shell';
export const CHROMIUM_FULL = process.env.CHROMIUM_FULL || '/usr/bin/chromium';

// playwright gives every launch a fresh temporary user-data-dir of its own.
// extraArgs: more Chromium switches (e.g. --host-resolver-rules); full:
// CHROMIUM_FULL rather than CHROMIUM. The tests' https sites have
// throwaway self-signed certificates: Chromium takes them, also for the
// service worker's script (which a context's ignoreHTTPSErrors alone does
// not cover).
export async function launchBrowser(extraArgs = [], { full = false } = {}) {
  const browser = await chromium.launch({
    executablePath: full ? CHROMIUM_FULL : CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--ignore-certificate-errors',
      // The full browser's headless mode makes two WebUI renderers for
      // the omnibox popup in each context, which the tests never show: a
      // quarter of its CPU in a suite (room.test.mjs, 66-72 s of
      // Chromium CPU with them, 50-57 s without).
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
      ...extraArgs],
  });
  return browser;
}

// A browser context with one page; page.problems collects page errors,
// console errors and Content-Security-Policy violations.
// aiPause: the computer's least pause before a move in ms (the page's
// oware.test.pause, docs/testing.md): 0 unless said; null keeps the
// page's own 500. serviceWorkers: 'block' unless said ('allow'): the
// page's service worker fetches every file the site has (2.4 MB, 90
// files) into each new context, an eighth of the browser's CPU in a
// suite; only the files that test it (offline, push, event pages
// without the network) let it run. Blocked, its registration fails as
// a browser that refuses workers makes it fail (Playwright's own
// 'block' resolves it to undefined, which no browser does).
export async function openPlayer(browser, { locale = 'en-US', viewport = { width: 1100, height: 900 },
  mobile = false, motion = 'reduce', name = 'player', ignoreHTTPSErrors = false, aiPause = 0,
  serviceWorkers = 'block' } = {}) {
  const ctx = await browser.newContext({
    locale, viewport, isMobile: mobile, hasTouch: mobile, reducedMotion: motion,
    deviceScaleFactor: 1, ignoreHTTPSErrors,
  });
  if (serviceWorkers === 'block') {
    await ctx.addInitScript(() => {
      if (navigator.serviceWorker) {
        navigator.serviceWorker.register = () => Promise.reject(new DOMException('no service worker in this test', 'SecurityError'));
      }
    });
  }
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await ctx.newPage();
  // OWARE_TEST_LATENCY=ms: every request of the context's pages (the
  // WebSocket's frames too) waits that long, as on a slow machine or a far
  // server: a test that reads what a request brings before it came fails
  // at once.
  const latency = Number(process.env.OWARE_TEST_LATENCY || 0);
  if (latency > 0) {
    const sessions = new Set();
    let offlineNow = false;
    const conditions = (cdp) => cdp.send('Network.emulateNetworkConditions', {
      offline: offlineNow, latency, downloadThroughput: -1, uploadThroughput: -1,
    });
    const delay = async (pg) => {
      const cdp = await ctx.newCDPSession(pg);
      sessions.add(cdp);
      pg.once('close', () => sessions.delete(cdp));
      await cdp.send('Network.enable');
      await conditions(cdp);
    };
    await delay(page);
    ctx.on('page', (pg) => { delay(pg).catch(() => {}); });
    // The context's own setOffline would be overridden by the sessions'
    // conditions: the network is cut there too.
    const setOffline = ctx.setOffline.bind(ctx);
    ctx.setOffline = async (offline) => {
      offlineNow = offline;
      await setOffline(offline);
      await Promise.all([...sessions].map((cdp) => conditions(cdp).catch(() => {})));
    };
  }
  // A wait for a condition polls it every 30 ms, not at every animation
  // frame (Playwright's default): a page waited on would otherwise draw
  // sixty frames a second for nothing. Deadlines scale by SLOW.
  page.setDefaultTimeout(30000 * SLOW);
  const scaled = (opts) => (opts.timeout ? { ...opts, timeout: opts.timeout * SLOW } : opts);
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = (fn, arg, opts = {}) => waitForFunction(fn, arg, { polling: 30, ...scaled(opts) });
  const waitForSelector = page.waitForSelector.bind(page);
  page.waitForSelector = (sel, opts = {}) => waitForSelector(sel, scaled(opts));
  page.problems = [];
  page.name = name;
  page.on('pageerror', (e) => page.problems.push(`${name}: pageerror ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    // Connection failures are expected while the server restarts (or after
    // a test stopped its server or proxy: a start page registers its
    // service worker 10 s after it opened, web/offline.js, whose script
    // then cannot be fetched).
    if (/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED|net::ERR_|An unknown error occurred when fetching the script/.test(text)) return;
    page.problems.push(`${name}: console ${text}`);
  });
  if (aiPause !== null) {
    await page.addInitScript((ms) => {
      try { localStorage.setItem('oware.test.pause', String(ms)); } catch { /* an opaque origin */ }
    }, aiPause);
  }
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return page;
}

// Picks language l in the page's selector (web/i18n.js) and waits until
// the page has switched: a language not yet used is fetched first.
export async function switchLang(page, l) {
  await page.selectOption('#lang', l);
  await page.waitForFunction((want) => document.documentElement.lang === want, l);
}

export async function ready(page) {
  await page.waitForFunction(() => !!window.owareTest && window.owareTest.ready === true);
}

// What the page shows: pit counts by index, scores, moves listed.
export async function readBoard(page) {
  return page.evaluate(() => {
    const letters = 'abcdefABCDEF';
    const pits = letters.split('').map((l) => Number(document.querySelector(`#board .pit[data-pit="${l}"]`).dataset.count));
    const score = {};
    for (const el of document.querySelectorAll('.player')) score[el.dataset.side] = Number(el.querySelector('.player-score').textContent);
    return {
      pits,
      captured: { south: score.south, north: score.north },
      moves: document.querySelectorAll('#moves .mv').length,
      legal: [...document.querySelectorAll('#board .pit.legal')].map((b) => b.dataset.pit).sort(),
      animating: !!document.querySelector('.board.animating'),
    };
  });
}

// Waits until the page lists n moves and no animation runs.
export async function waitMoves(page, n, timeout = 15000) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves .mv').length === k &&
    !document.querySelector('.board.animating'), n, { timeout });
}

// Waits until selector's text is want; on timeout fails with the text the
// page last showed, not a bare timeout. For what one page shows after what
// another page saw: each page's socket is answered in its own time.
export async function waitText(page, selector, want, timeout = 15000) {
  try {
    await page.waitForFunction(([sel, w]) => {
      const el = document.querySelector(sel);
      return !!el && el.textContent === w;
    }, [selector, want], { timeout });
  } catch (e) {
    if (!/Timeout/.test(String(e))) throw e;
    assert.equal(await page.textContent(selector), want, `${selector} after ${timeout} ms`);
  }
}

// Saves SHOTS/name.png of a page or a locator (opts: Playwright's), when
// screenshots are asked for.
export async function saveShot(target, name, opts = {}) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SHOTS, `${name}.png`), ...opts });
}

export const shot = (page, name) => saveShot(page, name, { fullPage: true });

// mulberry32: a small seeded PRNG so a failing game can be replayed.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A reverse proxy that serves the server under a path prefix (as nginx
// would: /prefix/x -> /x, WebSocket upgrades included), to show that every
// URL of the client is relative. Resolves to {port, close()}.
export function prefixProxy(targetPort, prefix) {
  return new Promise((resolve) => {
    const tunnels = new Set();  // upgraded sockets, which proxy.close() leaves open
    const strip = (url) => (url.startsWith(prefix) ? url.slice(prefix.length - 1) : null);
    const proxy = http.createServer((req, res) => {
      if (req.url === prefix.slice(0, -1)) {
        res.writeHead(301, { location: prefix });
        res.end();
        return;
      }
      const path = strip(req.url);
      if (!path) { res.writeHead(404); res.end(); return; }
      const up = http.request({ host: '127.0.0.1', port: targetPort, path, method: req.method, headers: req.headers },
        (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
      up.on('error', () => { res.writeHead(502); res.end(); });
      req.pipe(up);
    });
    proxy.on('upgrade', (req, socket, head) => {
      const path = strip(req.url);
      if (!path) { socket.destroy(); return; }
      const up = net.connect(targetPort, '127.0.0.1', () => {
        const lines = [`${req.method} ${path} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        up.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head && head.length) up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      const done = () => { up.destroy(); socket.destroy(); tunnels.delete(done); };
      tunnels.add(done);
      up.on('error', done);
      socket.on('error', done);
      up.on('close', done);
      socket.on('close', done);
    });
    proxy.listen(0, '127.0.0.1', () => resolve({
      port: proxy.address().port,
      close: () => new Promise((r) => {
        for (const done of [...tunnels]) done();
        proxy.closeAllConnections();
        proxy.close(r);
      }),
    }));
  });
}

// What most test files share: a server (owared with serverArgs) and a
// browser started before their tests and stopped after them, the pages
// they open (suite.player(opts, browser?), init() run on each new page),
// suite.noProblems(): no page logged an error or a failed request, and
// suite.ready, resolved once the server and the browser run. The pages a
// test opened are closed when it ends (an open page keeps its socket,
// clocks and timers running: 40 of them left open made a file's last
// tests several times slower on a loaded machine), unless keepPages:
// files whose tests carry pages from one test to the next.
// serviceWorkers: the pages' default (unsaid: openPlayer's).
export function browserSuite(serverArgs = [], { init, keepPages = false, serviceWorkers } = {}) {
  const suite = { server: null, browser: null, pages: [] };
  let started, failed;
  // A file's own before() hooks may run beside this one: they await it.
  suite.ready = new Promise((res, rej) => { started = res; failed = rej; });
  suite.ready.catch(() => {});
  before(async () => {
    try {
      suite.server = await new Server(serverArgs).start();
      suite.browser = await launchBrowser();
      started();
    } catch (e) {
      failed(e);
      throw e;
    }
  });
  after(async () => {
    if (suite.browser) await suite.browser.close();
    if (suite.server) { await suite.server.stop(); suite.server.cleanup(); }
  });
  if (!keepPages) {
    afterEach(async () => {
      for (const p of suite.pages) {
        if (p.closedByTest) continue;
        p.closedByTest = true;
        await p.context().close().catch(() => {});
      }
    });
  }
  suite.player = async (opts, browser = suite.browser) => {
    const p = await openPlayer(browser, { serviceWorkers, ...opts });
    if (init) await init(p);
    suite.pages.push(p);
    return p;
  };
  suite.noProblems = () => {
    const all = suite.pages.flatMap((p) => p.problems);
    assert.deepEqual(all, [], all.join('\n'));
  };
  return suite;
}

// The seat a page holds now ('south', 'north', 'spectator').
export const seatOf = (page) => page.evaluate(() => document.body.dataset.seat);

// The page's board shows game (an engine.js Game): pits, scores, moves listed.
export async function expectBoard(page, game, label) {
  const want = game.state();
  const got = await readBoard(page);
  assert.deepEqual(got.pits, want.pits, `${label}: pits on ${page.name}`);
  assert.deepEqual(got.captured, want.captured, `${label}: scores on ${page.name}`);
  assert.equal(got.moves, game.moves.length, `${label}: moves listed on ${page.name}`);
}

// Two players in their board's room: moves until each has moved twice,
// then the side to move resigns. Returns the loser's page.
export async function playToResignation(pages) {
  for (let ply = 0; ply < 4; ply++) {
    let mover = null;
    for (const p of pages) if ((await readBoard(p)).legal.length) mover = p;
    assert.ok(mover, `someone may move at ply ${ply}`);
    const pit = (await readBoard(mover)).legal[0];
    await mover.click(`#board .pit[data-pit="${pit}"]`);
    for (const p of pages) await waitMoves(p, ply + 1);
  }
  let loser = null;
  for (const p of pages) if ((await readBoard(p)).legal.length) loser = p;
  await loser.click('#act-resign');
  await loser.click('#confirm-ok');
  for (const p of pages) await p.waitForSelector('#over:not([hidden])');
  return loser;
}
