// stall.test.mjs: a move that gets no answer (docs/cluster.md,
// "When a server hangs": the page gives up a stalled connection). The server is paused
// (SIGSTOP) under a room: the mover's page shows the reconnecting line
// once the stall time has passed (shortened here by window.owareTest.stallMs;
// 10 s for real), and after SIGCONT both pages go on with the move made
// once. Screenshot: stall-reconnecting.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launchBrowser, openPlayer, ready, waitMoves, shot } from './lib.mjs';

let server, browser;
after(async () => {
  if (server && server.proc) server.proc.kill('SIGCONT');
  if (browser) await browser.close();
  if (server) { await server.stop(); server.cleanup(); }
});

const STALL = 2500;
const connText = (page) => page.evaluate(() => (document.getElementById('conn').hidden ? '' : document.getElementById('conn-text').textContent));

test('a move with no answer: the page reconnects and the move is made once', async () => {
  server = await new Server([]).start();
  browser = await launchBrowser();
  const a = await openPlayer(browser, { name: 'south' });
  const b = await openPlayer(browser, { name: 'north', locale: 'es-ES' });
  for (const p of [a, b]) await p.addInitScript((ms) => { window.owareTest = { stallMs: ms }; }, STALL);

  await a.goto(server.url);
  await ready(a);
  await a.check('input[name="side"][value="south"]');
  await a.click('#create');
  await a.waitForSelector('#share:not([hidden])');
  await b.goto(await a.inputValue('#share-link'));
  await ready(b);
  await b.waitForFunction(() => document.body.dataset.seat === 'north');
  await a.waitForSelector('#board .pit.legal');
  await a.click('#board .pit.legal >> nth=0');
  await waitMoves(b, 1);
  await b.waitForSelector('#board .pit.legal');

  server.proc.kill('SIGSTOP');
  const paused = Date.now();
  try {
    await b.click('#board .pit.legal >> nth=0');
    // Nothing is said before the stall time, then the reconnecting line.
    assert.equal(await connText(b), '');
    await b.waitForFunction(() => !document.getElementById('conn').hidden &&
      /Reconectando/.test(document.getElementById('conn-text').textContent), null, { timeout: 15000 });
    assert.ok(Date.now() - paused >= STALL - 100, `reconnecting after ${Date.now() - paused} ms`);
    // The page took the stall time the test gave it (window.owareTest), not net.js's 10 s.
    assert.ok(Date.now() - paused < 9000, `reconnecting after ${Date.now() - paused} ms`);
    assert.match(await connText(b), /^Sin conexión\. Reconectando/);
    await shot(b, 'stall-reconnecting');
  } finally {
    server.proc.kill('SIGCONT');
  }
  // The server answers again: the page joins with its token, the move
  // stands once (sent again if it was lost: the server knows it by ply).
  await waitMoves(b, 2);
  await waitMoves(a, 2);
  await b.waitForFunction(() => document.getElementById('conn').hidden);
  assert.equal(await connText(b), '');
  // And the game goes on.
  await a.waitForSelector('#board .pit.legal');
  await a.click('#board .pit.legal >> nth=0');
  await waitMoves(b, 3);
  for (const p of [a, b]) assert.deepEqual(p.problems, []);
});
