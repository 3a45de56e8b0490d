// togyz.test.mjs: Togyz Kumalak in the web client, in Chromium against the
// real server (which serves the page): the start page's game choice, games
// against the computer to their end on a desktop and on phones (390 and 360
// px, no sideways scrolling), every position checked against web/togyz.js
// run here, the tuzdyks marked for their owner, review, the copied record in
// Kazakh notation, two players with preview, keys and undo, Spanish words,
// an online room between two pages, and Oware still the default.
// Screenshots: build/screenshots/togyz-*.png.
// Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine } from '../../web/engine.js';
import { loadTogyz, replay, Game, togyzRecord } from '../../web/togyz.js';
import { root, ready, shot, rng, browserSuite, switchLang } from './lib.mjs';

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));
await loadTogyz(fs.readFileSync(path.join(root, 'web/togyz.wasm')));

const IDS = 'abcdefghiABCDEFGHI';
const suite = browserSuite([]);
const { player, noProblems } = suite;

// What the page's board shows: the 18 holes' counts, the scores, the
// tuzdyks ({south: pit name, north: pit name}), the responding holes.
const readTogyz = (page) => page.evaluate((ids) => {
  const pits = ids.split('').map((l) => Number(document.querySelector(`#board .pit[data-pit="${l}"]`).dataset.count));
  const score = {};
  for (const el of document.querySelectorAll('.player')) score[el.dataset.side] = Number(el.querySelector('.player-score').textContent);
  const tuzdyk = { south: null, north: null };
  for (const el of document.querySelectorAll('#board .pit.tuzdyk')) tuzdyk[el.dataset.tuzdyk] = el.dataset.pit;
  return {
    pits, captured: { south: score.south, north: score.north }, tuzdyk,
    legal: [...document.querySelectorAll('#board .pit.legal')].map((b) => b.dataset.pit).sort(),
    holes: document.querySelectorAll('#board .pit').length,
  };
}, IDS);

// The saved local game's moves (pit names).
const savedMoves = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('oware.local')).moves);

// The page shows game g: counts, scores, the tuzdyks on the right holes.
async function expectTogyz(page, g, what) {
  const s = g.state();
  const shown = await readTogyz(page);
  assert.equal(shown.holes, 18, what);
  assert.deepEqual(shown.pits, s.pits, `${what}: pits`);
  assert.deepEqual(shown.captured, s.captured, `${what}: scores`);
  // South's tuzdyk sits on North's row (pit names 'A'..'I'), and back.
  assert.deepEqual(shown.tuzdyk, {
    south: s.tuzdyk.south ? IDS[9 + s.tuzdyk.south - 1] : null,
    north: s.tuzdyk.north ? IDS[s.tuzdyk.north - 1] : null,
  }, `${what}: tuzdyks`);
}

// Waits for the human's turn (holes respond) or the end of the game.
async function myTurnOrOver(page) {
  await page.waitForFunction(() => !document.querySelector('#over').hidden ||
    (document.querySelectorAll('#board .pit.legal').length > 0 && !document.querySelector('.board.animating')),
  null, { timeout: 30000 });
  return page.evaluate(() => !document.querySelector('#over').hidden);
}

// A game played at random from the start, cut `left` plies before its end
// at a turn of `side`: the moves of a late position (pit names).
function lateMoves(side, seed, left) {
  const rand = rng(seed), moves = [];
  const g = Game.start();
  while (!g.state().over) {
    const legal = g.legal();
    const m = legal[Math.floor(rand() * legal.length)];
    g.play(m);
    moves.push(m);
  }
  let cut = Math.max(0, moves.length - left);
  while (cut > 0 && replay(moves.slice(0, cut)).state().turn !== side) cut--;
  return moves.slice(0, cut);
}

// Plays Togyz against the computer (easy) from the start page to the end,
// as White or Black, choosing moves at random with a taste for captures;
// checks every position the human sees. With late: after the first move,
// the saved game is set to a late position (lateMoves) and the page
// reloaded, so the end comes sooner. Returns the finished game.
async function playComputer(page, side, seed, label, { hint = false, late = 0 } = {}) {
  const rand = rng(seed);
  await page.goto(suite.server.url);
  await ready(page);
  await page.check('input[name="kind"][value="togyz"]');
  await page.check('input[name="ai-level"][value="easy"]');
  await page.check(`input[name="ai-side"][value="${side}"]`);
  await page.click('#ai-play');
  await ready(page);
  // The human's row is at the bottom, holes 1..9 left to right.
  const bottom = await page.$$eval('#board .row-bottom .pit', (els) => els.map((e) => e.dataset.pit).join(''));
  assert.equal(bottom, side === 'south' ? 'abcdefghi' : 'ABCDEFGHI');
  assert.deepEqual(await page.$$eval('#board .row-bottom .letter', (els) => els.map((e) => e.textContent).join('')), '123456789');
  let g = null, shotMid = false;
  for (let turn = 0; turn < 400; turn++) {
    const over = await myTurnOrOver(page);
    g = replay(await savedMoves(page));
    await expectTogyz(page, g, `${label} after ${g.moves.length} plies`);
    if (over) break;
    assert.equal(g.state().turn, side, `${label}: the human's turn`);
    assert.deepEqual((await readTogyz(page)).legal, g.legal().slice().sort());
    if (hint && turn === 3) {
      // The hint (hard's move, in the Togyz worker) marks a legal hole and names it.
      await page.click('#act-hint');
      await page.waitForSelector('#board .pit.hint', { timeout: 20000 });
      const hinted = await page.getAttribute('#board .pit.hint', 'data-pit');
      assert.ok(g.legal().includes(hinted), `hint ${hinted}`);
      assert.equal(await page.textContent('#note'), `Hint: sow hole ${IDS.indexOf(hinted) % 9 + 1}.`);
    }
    const legal = g.legal();
    let best = legal[Math.floor(rand() * legal.length)], most = 0;
    for (const m of legal) {
      const p = g.preview(m).move;
      const gain = p.seeds + (p.tuzdyk ? 10 : 0);
      if (gain > most && rand() < 0.85) { most = gain; best = m; }
    }
    // A screenshot once the first tuzdyk is on the board.
    if (!shotMid && (g.state().tuzdyk.south !== null || g.state().tuzdyk.north !== null)) {
      await shot(page, `togyz-${label}-tuzdyk`);
      shotMid = true;
    }
    await page.click(`#board .pit.legal[data-pit="${best}"]`);
    if (late && turn === 0) {
      await myTurnOrOver(page);
      const moves = lateMoves(side, seed, late);
      await page.evaluate((m) => {
        const saved = JSON.parse(localStorage.getItem('oware.local'));
        localStorage.setItem('oware.local', JSON.stringify({ ...saved, moves: m }));
      }, moves);
      await page.reload();
      await ready(page);
    }
  }
  assert.ok(g.state().over, `${label}: the game ended`);
  return g;
}

test('the start page offers Togyz Kumalak: its board, its sides, its rules; Oware stays the default', async () => {
  const p = await player({ locale: 'en-US', name: 'togyz-start' });
  await p.goto(suite.server.url);
  await ready(p);
  assert.equal(await p.isChecked('input[name="kind"][value="oware"]'), true);
  assert.equal(await p.$$eval('#hero-board .pit', (els) => els.length), 12);
  await p.check('input[name="kind"][value="togyz"]');
  assert.equal(await p.$$eval('#hero-board .pit', (els) => els.length), 18);
  assert.equal(await p.$$eval('#hero-board .pit', (els) => els.every((e) => e.dataset.count === '9')), true);
  assert.match(await p.textContent('label:has(input[name="side"][value="south"])'), /White \(you start\)/);
  assert.match(await p.textContent('label:has(input[name="ai-side"][value="north"])'), /Black/);
  assert.match(await p.textContent('.rules summary'), /Togyz Kumalak/);
  assert.match(await p.textContent('.rules'), /82 seeds/);
  assert.match(await p.textContent('.rules'), /tuzdyk/);
  assert.equal(await p.isHidden('#editor'), true);
  // The choice is remembered; Spanish has its own words.
  await p.reload();
  await ready(p);
  assert.equal(await p.isChecked('input[name="kind"][value="togyz"]'), true);
  await switchLang(p, 'es');
  assert.match(await p.textContent('label:has(input[name="side"][value="south"])'), /Blancas \(empiezas tú\)/);
  assert.match(await p.textContent('.rules'), /82 semillas/);
  await shot(p, 'togyz-start-es');
  await switchLang(p, 'en');
  await p.check('input[name="kind"][value="oware"]');
  assert.equal(await p.$$eval('#hero-board .pit', (els) => els.length), 12);
  assert.match(await p.textContent('label:has(input[name="side"][value="south"])'), /South/);
  noProblems();
});

test('Togyz against the computer on a desktop, to the end: review and the record in Kazakh notation', async () => {
  const p = await player({ locale: 'en-US', name: 'togyz-desktop' });
  const g = await playComputer(p, 'south', 20, 'desktop', { hint: true, late: 30 });
  const s = g.state();
  assert.equal(await p.isVisible('#over'), true);
  const want = s.winner === 'draw' ? /draw/ : s.winner === 'south' ? /You won/i : /You lost/i;
  assert.match(await p.textContent('#over'), want);
  assert.match(await p.textContent('#over-score'), new RegExp(`White ${s.captured.south}, Black ${s.captured.north}`));
  // The move list in Kazakh notation.
  const listed = await p.$$eval('#moves .mv', (els) => els.map((e) => e.textContent.split(' ')[0]));
  assert.deepEqual(listed, g.history.map((h) => h.notation));
  // Review: the start, one ply on, the end.
  await p.click('#rv-first');
  await expectTogyz(p, Game.start(), 'review at the start');
  await p.click('#rv-next');
  await expectTogyz(p, replay(g.moves.slice(0, 1)), 'review at ply 1');
  await p.keyboard.press('ArrowRight');
  await expectTogyz(p, replay(g.moves.slice(0, 2)), 'review at ply 2');
  await p.click('#rv-last');
  await expectTogyz(p, g, 'review at the end');
  // No analysis or .ogn download: those are Oware's.
  assert.equal(await p.isHidden('#analysis'), true);
  assert.equal(await p.isHidden('#record-download'), true);
  assert.equal(await p.isHidden('#record-case'), true, "Togyz records number the holes");
  await p.click('#record-copy');
  const record = await p.evaluate(() => navigator.clipboard.readText());
  assert.equal(record, togyzRecord(g.history, s));
  assert.match(record, /^1\. \d\dX?(\+\d+)? \d\dX?/);
  // The captures as the move list shows them, no space at a line's end.
  assert.equal((record.match(/\+\d+/g) || []).length, g.history.filter((h) => h.seeds).length);
  assert.ok(g.history.some((h) => h.seeds), 'a game with captures');
  for (const l of record.split('\n')) assert.equal(l, l.trimEnd());
  assert.match(record.split('\n').pop(), /^(1-0|0-1|1\/2-1\/2) \(\d+-\d+\)$/);
  await shot(p, 'togyz-desktop-end');
  noProblems();
});

for (const width of [390, 360]) {
  test(`Togyz against the computer on a ${width} px phone, as Black, to the end, without sideways scrolling`, async () => {
    const p = await player({ locale: 'es-ES', name: `togyz-phone-${width}`, viewport: { width, height: 800 }, mobile: true });
    const g = await playComputer(p, 'north', width, `phone-${width}`, { late: 16 });
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `page is ${wide}px wide`);
    const box = await p.$eval('#board', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right }; });
    assert.ok(box.left >= 0 && box.right <= width, `board from ${box.left} to ${box.right}`);
    assert.match(await p.textContent('#player-bottom'), /Negras/);
    assert.match(await p.textContent('#over-score'), new RegExp(`Blancas ${g.state().captured.south}, Negras ${g.state().captured.north}`));
    await shot(p, `togyz-phone-${width}-end`);
    noProblems();
  });
}

test('two players: preview, keys 1-9, undo, a tuzdyk marked for its owner and named', async () => {
  const p = await player({ locale: 'en-US', name: 'togyz-two', motion: 'no-preference' });
  // White has a tuzdyk on Black's hole 1, Black one on White's hole 4.
  const start = { pits: [9, 9, 9, 0, 9, 9, 9, 9, 9, 0, 9, 9, 9, 9, 9, 9, 9, 9], captured: { south: 9, north: 9 },
    tuzdyk: { south: 1, north: 4 }, turn: 'south' };
  await p.goto(suite.server.url);
  await ready(p);
  await p.evaluate((s) => localStorage.setItem('oware.local', JSON.stringify({ kind: 'togyz', moves: [], ai: null, start: s })), start);
  await p.goto(`${suite.server.url}?local=1`);
  await ready(p);
  const g = Game.fromPosition(start);
  await expectTogyz(p, g, 'from the position');
  // The X is drawn by the style sheet (a text X missing from the pit's name fails axe), on tuzdyks only.
  const x = (pit) => p.evaluate((q) => getComputedStyle(document.querySelector(`#board .pit[data-pit="${q}"] .mark`), '::before').content, pit);
  assert.equal(await x('A'), '"X"');
  assert.equal(await x('d'), '"X"');
  assert.equal(await x('B'), 'none');
  assert.match(await p.getAttribute('#board .pit[data-pit="A"]', 'aria-label'), /^1: 0 seeds, Black's hole\. White's tuzdyk/);
  assert.match(await p.getAttribute('#board .pit[data-pit="d"]', 'aria-label'), /Black's tuzdyk/);
  assert.match(await p.textContent('#status'), /White to move: pick a hole in your row/);
  // Hover: where the last seed lands (hole 9 sows 9 seeds: the last on Black's 8th).
  await p.hover('#board .pit[data-pit="i"]');
  const pv = g.preview('i').move;
  assert.equal(await p.getAttribute('#board .pit.pv-land', 'data-pit'), pv.sown[pv.sown.length - 1]);
  assert.match(await p.textContent('#note'), /hole 8/);
  // Key 9 plays White's hole 9; the seed sown into White's tuzdyk scores.
  await p.mouse.move(0, 0);
  await p.keyboard.press('9');
  g.play('i');
  await p.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 1 && !document.querySelector('.board.animating'));
  await expectTogyz(p, g, 'after 9');
  assert.equal(await p.textContent('#moves .mv'), `${g.history[0].notation} +${g.history[0].seeds}`);
  assert.equal(await p.getAttribute('#board .pit.origin', 'data-pit'), 'i');
  assert.match(await p.textContent('#note'), /White sowed hole 9/);
  // Black's hole 5 by key, then undo takes it back.
  await p.keyboard.press('5');
  await p.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 2 && !document.querySelector('.board.animating'));
  await p.click('#act-undo');
  await p.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 1);
  await expectTogyz(p, g, 'after undo');
  await p.waitForFunction(() => /taken back/.test(document.querySelector('#live').textContent));
  assert.equal(await p.textContent('#live'), 'The move of hole 5 taken back. Black to move: pick a hole in your row');
  await shot(p, 'togyz-two-players');
  noProblems();
});

// An online Togyz room (PROTOCOL.md, "Togyz Kumalak rooms"): `create`
// with "kind":"togyz", the second player joins by the link, moves by click
// on both pages (sent as hole numbers, read back from the state).
test('an online Togyz room: created with its kind, joined, moves by click on both pages', async () => {
  const a = await player({ locale: 'en-US', name: 'togyz-online-white' });
  const b = await player({ locale: 'es-ES', name: 'togyz-online-black' });
  await a.goto(suite.server.url);
  await ready(a);
  await a.check('input[name="kind"][value="togyz"]');
  await a.check('input[name="side"][value="south"]');
  await a.click('#create');
  await a.waitForSelector('#share:not([hidden])');
  const link = await a.inputValue('#share-link');
  await b.goto(link);
  await ready(b);
  await b.waitForFunction(() => document.body.dataset.seat === 'north');
  const g = Game.start();
  const rand = rng(5);
  for (let ply = 0; ply < 8 && !g.over; ply++) {
    const mover = g.state().turn === 'south' ? a : b;
    const other = mover === a ? b : a;
    await mover.waitForFunction(() => document.querySelectorAll('#board .pit.legal').length > 0);
    assert.deepEqual((await readTogyz(mover)).legal, g.legal().slice().sort(), `legal at ply ${ply}`);
    assert.deepEqual((await readTogyz(other)).legal, []);
    const legal = g.legal();
    const m = legal[Math.floor(rand() * legal.length)];
    await mover.click(`#board .pit.legal[data-pit="${m}"]`);
    g.play(m);
    for (const p of [a, b]) {
      await p.waitForFunction((n) => document.querySelectorAll('#moves .mv').length === n &&
        !document.querySelector('.board.animating'), g.moves.length);
      await expectTogyz(p, g, `online after ${g.moves.length} plies`);
    }
  }
  assert.deepEqual(await b.$$eval('#moves .mv', (els) => els.map((e) => e.textContent.split(' ')[0])),
    g.history.map((h) => h.notation));
  assert.match(await b.textContent('#player-bottom'), /Negras/);
  assert.match(await a.textContent('#player-bottom'), /White \(you\)/);
  // The copied record, in Kazakh notation, from either page.
  await a.click('#record-copy');
  assert.equal(await a.evaluate(() => navigator.clipboard.readText()), togyzRecord(g.history, g.state()));
  await shot(b, 'togyz-online-es');
  // The start page's list of rooms names the game and the sides of a Togyz
  // room in its own words, also while the page offers Oware.
  await a.goto(suite.server.url);
  await ready(a);
  await a.check('input[name="kind"][value="oware"]');
  await a.reload();
  await ready(a);
  await a.waitForSelector('#games:not([hidden]) .game-item');
  const listed = await a.textContent('#games-list');
  assert.match(listed, /Against an unnamed opponent/);
  assert.doesNotMatch(listed, /Against (Black|North)/);
  assert.match(listed, /Togyz Kumalak · you play White · (your|their) move/);
  assert.match(await a.textContent('label:has(input[name="side"][value="south"])'), /South/);
  noProblems();
});
