// ai_worker.test.mjs: the computer player in Chromium: web/ai.js runs the
// search of web/ai.wasm in web/ai-worker.js while the page stays live;
// levels, hint, cancel and errors. Served by the real server (build/owared).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launchBrowser } from '../../browser/lib.mjs';

let server, browser, page;

before(async () => {
  server = await new Server().start();
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(server.url);
  await page.evaluate(async () => {
    const { Computer } = await import(new URL('ai.js', location.href).href);
    window.cpu = new Computer();
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) { await server.stop(); server.cleanup(); }
});

test('each level answers with a legal move of the side to move', async () => {
  const r = await page.evaluate(async () => ({
    easy: await window.cpu.best({ moves: [], level: 'easy', seed: 3 }),
    medium: await window.cpu.best({ moves: ['a'], level: 'medium' }),
    pos: await window.cpu.best({
      position: { pits: [2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 3], captured: { south: 23, north: 18 }, turn: 'south' },
      moves: [], level: 'medium',
    }),
  }));
  assert.match(r.easy.move, /^[a-f]$/);
  assert.equal(r.easy.pv[0], r.easy.move);
  assert.match(r.medium.move, /^[A-F]$/);
  assert.ok(r.medium.depth >= 2, `medium depth ${r.medium.depth}`);
  assert.equal(r.pos.move, 'f');          // captures 2 and reaches 25
  assert.equal(r.pos.score, 29999);
});

test('the hint (hard, about a second) leaves the page responsive', async () => {
  const r = await page.evaluate(async () => {
    let ticks = 0;
    const timer = setInterval(() => { ticks++; }, 10);
    const t0 = performance.now();
    const hint = await window.cpu.hint({ moves: ['c', 'F'] });
    clearInterval(timer);
    return { hint, ticks, ms: performance.now() - t0 };
  });
  assert.match(r.hint.move, /^[a-f]$/);
  assert.ok(r.hint.depth >= 8, `depth ${r.hint.depth}`);
  assert.ok(r.ms >= 300 && r.ms < 5000, `took ${r.ms} ms`);
  // The main thread ran its timer all along (at 10 ms, ~ms/10 ticks).
  assert.ok(r.ticks >= r.ms / 40, `${r.ticks} ticks in ${r.ms} ms`);
});

test('cancel drops a running search; the next call works', async () => {
  const r = await page.evaluate(async () => {
    const p = window.cpu.best({ moves: [], level: 'hard' });
    window.cpu.cancel();
    let cancelled = false;
    try { await p; } catch (e) { cancelled = e && e.cancelled === true; }
    const next = await window.cpu.best({ moves: ['b'], level: 'easy', seed: 1 });
    return { cancelled, next };
  });
  assert.equal(r.cancelled, true);
  assert.match(r.next.move, /^[A-F]$/);
});

test('illegal move lists and finished games are refused', async () => {
  const r = await page.evaluate(async () => {
    const out = [];
    for (const req of [
      { moves: ['A'] },
      { moves: ['a', 'a'] },
      { position: { pits: [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3], captured: { south: 25, north: 19 }, turn: 'north' } },
    ]) {
      try { await window.cpu.best({ ...req, level: 'easy' }); out.push('accepted'); } catch (e) { out.push(e.message); }
    }
    return out;
  });
  assert.match(r[0], /not legal/);
  assert.match(r[1], /not legal/);
  assert.match(r[2], /over/);
});
