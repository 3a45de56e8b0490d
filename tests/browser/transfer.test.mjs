// transfer.test.mjs: what a visit costs on a slow network (issue 28), in
// Chromium against owared alone. Every byte owared sends goes through a
// counting proxy here (status lines, headers and bodies, as on the wire),
// from the page's load until its first move can be made: a first visit
// sends at most 120 KB (brotli copies, web/part.mk) and not the endgame
// database, in each of the client's languages (its own strings alone); a
// second visit gets nothing but revalidations (304) and
// answers from the browser's cache (the modules under v/<hash>/ are kept a
// year). The figures are printed as test diagnostics.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Server, launchBrowser, ready } from './lib.mjs';

// 121 KB for a day (7 December 2026: a game by ear, the languages' own
// forms); 120 KB again once the board editor (editor.js) came only with
// its card opened.
const FIRST_VISIT_MAX = 120 * 1000;

let server, browser;
before(async () => {
  server = await new Server().start();
  browser = await launchBrowser();
});
after(async () => {
  if (browser) await browser.close();
  if (server) { await server.stop(); server.cleanup(); }
});

// A TCP proxy to owared that counts what owared sends and reads its HTTP
// answers: proxy.log holds {path, status, bytes} in order (bytes: the
// status line, headers and body). age: an "Age" header it adds to each
// answer, so that the browser takes it as that many seconds old (a second
// visit then is as if it came that much later: max-age=60 files are stale).
function countingProxy(port, age) {
  return new Promise((resolve) => {
    const proxy = { log: [], bytes: 0, sockets: new Set() };
    const srv = net.createServer((client) => {
      const up = net.connect(port, '127.0.0.1');
      proxy.sockets.add(client).add(up);
      const asked = [];   // request paths waiting for their answers
      let reqBuf = '';
      client.on('data', (d) => {
        reqBuf += d.toString('latin1');
        let m;
        while ((m = /^(GET|HEAD|POST) (\S+) HTTP\/1\.1\r\n[\s\S]*?\r\n\r\n/.exec(reqBuf))) {
          asked.push(m[2]);
          reqBuf = reqBuf.slice(m[0].length);
        }
        up.write(d);
      });
      let head = Buffer.alloc(0);
      let body = 0;       // body bytes of the current answer still to come
      let current = null;
      up.on('data', (d) => {
        proxy.bytes += d.length;
        let out = [];
        while (d.length) {
          if (body > 0) {
            const n = Math.min(body, d.length);
            body -= n;
            current.bytes += n;
            out.push(d.subarray(0, n));
            d = d.subarray(n);
            continue;
          }
          head = Buffer.concat([head, d]);
          d = Buffer.alloc(0);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) break;
          const text = head.subarray(0, end + 4).toString('latin1');
          d = head.subarray(end + 4);
          head = Buffer.alloc(0);
          const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)[1]);
          const len = /\r\ncontent-length: *(\d+)/i.exec(text);
          body = status === 304 || !len ? 0 : Number(len[1]);
          current = { path: asked.shift(), status, bytes: text.length };
          proxy.log.push(current);
          out.push(Buffer.from(age ? text.replace(/\r\n\r\n$/, `\r\nage: ${age}\r\n\r\n`) : text, 'latin1'));
        }
        for (const b of out) client.write(b);
      });
      const done = () => { client.destroy(); up.destroy(); };
      client.on('error', done);
      up.on('error', done);
      client.on('close', done);
      up.on('close', done);
    });
    srv.listen(0, '127.0.0.1', () => {
      proxy.url = `http://127.0.0.1:${srv.address().port}/`;
      proxy.close = () => new Promise((r) => {
        for (const s of proxy.sockets) s.destroy();
        srv.close(r);
      });
      resolve(proxy);
    });
  });
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const sum = (log) => log.reduce((a, r) => a + r.bytes, 0);

// Until nothing more comes for ms milliseconds.
async function quiet(proxy, ms = 1500) {
  let last = -1;
  while (last !== proxy.log.length) {
    last = proxy.log.length;
    await new Promise((r) => setTimeout(r, ms));
  }
}

// Opens the page, starts a game against the computer (the player moves
// first) and waits until a pit can be played: the log of that stretch.
async function untilFirstMove(page, proxy) {
  const from = proxy.log.length;
  await page.goto(proxy.url);
  await ready(page);
  await page.check('input[name="ai-side"][value="south"]');
  await page.click('#ai-play');
  await ready(page);
  await page.waitForSelector('#board .pit.legal');
  return proxy.log.slice(from);
}

test('first visit: at most 120 KB before the first move, and not the endgame database', async (t) => {
  const proxy = await countingProxy(server.port, 61);
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  try {
    const page = await ctx.newPage();
    await untilFirstMove(page, proxy);
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15000 });
    await quiet(proxy);
    // The service worker is registered once the game's page is up (web/offline.js):
    // what it fetches comes after the first move can be made.
    const sw = proxy.log.findIndex((r) => r.path === '/sw.js');
    assert.ok(sw > proxy.log.findIndex((r) => r.path === '/?local=1'), 'the worker comes with the game');
    const first = proxy.log.slice(0, sw);
    const bytes = sum(first);
    t.diagnostic(`first visit, until the first move: ${first.length} answers, ${kb(bytes)}`);
    assert.ok(first.length > 30, 'the page, its modules and its engine went through the proxy');
    assert.ok(bytes <= FIRST_VISIT_MAX, `${bytes} bytes before the first move`);
    const whole = first.filter((r) => r.status === 200).map((r) => r.path);
    assert.deepEqual(whole.filter((f, i) => whole.indexOf(f) !== i), [], 'no file is sent twice');
    assert.deepEqual(first.filter((r) => r.status !== 200 && r.status !== 304), []);
    assert.deepEqual(first.filter((r) => /oware\.egdb/.test(r.path)), [], 'no endgame database yet');
    // The modules come from the folder named after their content.
    assert.ok(first.filter((r) => /^\/v\/[0-9a-f]{16}\/[\w-]+\.(js|wasm)$/.test(r.path)).length > 30);
    // What the service worker then keeps for offline use, in the background.
    const rest = proxy.log.slice(sw);
    t.diagnostic(`then, kept for use without the network: ${rest.length} answers, ${kb(sum(rest))} ` +
      `(${rest.filter((r) => r.status === 304).length} of them 304)`);
    assert.deepEqual(rest.filter((r) => /oware\.egdb/.test(r.path)), []);
    // Nothing the page loaded is sent again whole.
    const loaded = new Set(first.map((r) => r.path));
    assert.deepEqual(rest.filter((r) => r.status === 200 && loaded.has(r.path)).map((r) => r.path), []);
    // The endgame database comes once the computer is to think.
    const before = proxy.log.length;
    await page.click('#board .pit.legal >> nth=0');
    await page.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 2, null, { timeout: 20000 });
    await quiet(proxy);
    const egdb = proxy.log.slice(before).filter((r) => /oware\.egdb$/.test(r.path));
    t.diagnostic(`after the first move: ${egdb.map((r) => `${r.path} ${r.status} ${kb(r.bytes)}`).join(', ')}`);
    assert.equal(egdb.length, 1);
    assert.match(egdb[0].path, /^\/v\/[0-9a-f]{16}\/oware\.egdb$/);
  } finally {
    await ctx.close();
    await proxy.close();
  }
});

// The same first visit in each language the browser may ask for: its
// own strings come, and no other language's (issue 42: a first visit does
// not grow with each language added).
test('first visit in each language: its own strings alone, at most 120 KB', async (t) => {
  const sizes = [];
  for (const [locale, lang] of [['en-US', 'en'], ['es-ES', 'es'], ['fr-FR', 'fr'], ['kk-KZ', 'kk'], ['ru-RU', 'ru']]) {
    const proxy = await countingProxy(server.port, 61);
    const ctx = await browser.newContext({ locale, viewport: { width: 1000, height: 800 }, serviceWorkers: 'block' });
    try {
      const page = await ctx.newPage();
      const log = await untilFirstMove(page, proxy);
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      const strings = log.filter((r) => /\/i18n\/\w+\.json$/.test(r.path)).map((r) => r.path.replace(/.*\//, ''));
      assert.deepEqual(strings, [`${lang}.json`], 'the page\'s language only');
      const bytes = sum(log);
      sizes.push(`${lang} ${kb(bytes)}`);
      assert.ok(bytes <= FIRST_VISIT_MAX, `${lang}: ${bytes} bytes before the first move`);
    } finally {
      await ctx.close();
      await proxy.close();
    }
  }
  t.diagnostic(`first visit by language: ${sizes.join(', ')}`);
});

// A second visit, a minute later (the proxy's Age header): the files that
// keep their names are revalidated (304); the others are not asked again.
for (const workers of ['block', 'allow']) {
  test(`second visit (service workers: ${workers}): nothing but revalidations and the cache`, async (t) => {
    const proxy = await countingProxy(server.port, 61);
    const ctx = await browser.newContext({ viewport: { width: 1000, height: 800 }, serviceWorkers: workers });
    try {
      const page = await ctx.newPage();
      await untilFirstMove(page, proxy);
      if (workers === 'allow') {
        await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15000 });
      }
      await quiet(proxy);
      await page.close();
      const from = proxy.log.length;
      const again = await ctx.newPage();
      await untilFirstMove(again, proxy);
      await quiet(proxy, 1000);
      const all = proxy.log.slice(from);
      t.diagnostic(`second visit: ${all.length} answers on the wire, ${kb(sum(all))}: ` +
        `${[...new Set(all.map((r) => `${r.path} ${r.status}`))].join(', ')}`);
      assert.deepEqual(all.filter((r) => r.status !== 304), [], 'no file is sent again');
      assert.deepEqual(all.filter((r) => r.path.startsWith('/v/')), [], 'the modules are not even asked for');
      if (workers === 'block') {
        // Without a service worker the page and its plain-named files are revalidated.
        assert.ok(all.some((r) => r.path === '/'), 'the page is revalidated');
        assert.ok(all.some((r) => r.path === '/boot.js'));
      }
      assert.ok(sum(all) < 5000, `${sum(all)} bytes`);
    } finally {
      await ctx.close();
      await proxy.close();
    }
  });
}
