// client.test.mjs: the web client's core (issue 27): a redraw changes only
// what changed. Enter on a move of the move list keeps the focus on that
// move while the list is drawn again (the review moving, the analysis's
// marks arriving one ply at a time); a move arriving in a room adds its
// button and leaves the others in place; one pit hovered at ply 40 changes only
// the few nodes it must (counted with a MutationObserver: before this work
// 177 mutation records and 56 nodes replaced, now 4 records: the two pits
// marked, the board's class and the note's text); and the page's state
// takes no field added on the fly.
// Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, Game } from '../../web/engine.js';
import { ready, waitMoves, rng, root, browserSuite, switchLang } from './lib.mjs';

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));

const suite = browserSuite([]);
const { player, noProblems } = suite;
const games = JSON.parse(fs.readFileSync(new URL('../server/games.json', import.meta.url)));
const GAME = games[0].moves.split('');  // 16 plies, over

// A game of n plies, not over, from seeded random moves.
function gameOf(n, seed) {
  for (let s = seed; ; s++) {
    const r = rng(s);
    const g = Game.start();
    while (g.moves.length < n && !g.state().over) {
      const legal = g.legal();
      g.play(legal[Math.floor(r() * legal.length)]);
    }
    if (g.moves.length === n && !g.state().over) return g;
  }
}

// The focused element, as the probe mark set on the button focused first.
const focusedProbe = (p) => p.evaluate(() => ({
  probe: document.activeElement && document.activeElement.dataset.probe || null,
  ply: document.activeElement && document.activeElement.dataset.ply || null,
}));

test('Enter on a move of the move list keeps the focus on that move, as the review moves and the analysis marks arrive', async () => {
  const p = await player({ name: 'focus' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.fill('#import-text', GAME.join(' '));
  await p.click('#import-open');
  await waitMoves(p, GAME.length);
  // The analysis runs: each ply it judges draws the list again.
  await p.click('#an-start');
  await p.waitForSelector('#an-progress:not([hidden])');
  const mv = '#moves .mv[data-ply="5"]';
  await p.$eval(mv, (b) => { b.dataset.probe = 'five'; });
  await p.focus(mv);
  await p.keyboard.press('Enter');
  await p.waitForSelector(`${mv}[aria-current="step"]`);
  assert.deepEqual(await focusedProbe(p), { probe: 'five', ply: '5' }, 'Enter: the focus stays on the move');
  assert.match(await p.textContent('#review-pos'), /5/);
  // The review moves with the arrows; the focus stays where it was.
  await p.keyboard.press('ArrowLeft');
  await p.waitForSelector('#moves .mv[data-ply="4"][aria-current="step"]');
  assert.deepEqual(await focusedProbe(p), { probe: 'five', ply: '5' }, 'a step back: the focus stays');
  await p.keyboard.press('Enter');
  await p.waitForSelector(`${mv}[aria-current="step"]`);
  // Marks arrive on the moves while the focus stays on move 5.
  await p.waitForSelector('#an-progress', { state: 'hidden', timeout: 120000 });
  const marks = await p.$$eval('#moves .an-mark:not([hidden])', (els) => els.length);
  assert.ok(marks > 0, `the analysis marked moves (${marks})`);
  assert.deepEqual(await focusedProbe(p), { probe: 'five', ply: '5' }, 'after every ply analysed: the focus stays');
  // Another language: every text drawn again, the focus kept.
  await p.evaluate(() => document.querySelector('#moves .mv[data-ply="5"]').blur());
  await p.focus(mv);
  await switchLang(p, 'es');
  await p.waitForFunction(() => document.documentElement.lang === 'es' || /Posición|Inicio/.test(document.querySelector('#review-pos').textContent));
  assert.deepEqual(await focusedProbe(p), { probe: 'five', ply: '5' }, 'another language: the focus stays');
  noProblems();
});

test('in a room, a move arriving adds its button to the move list and leaves the others in place', async () => {
  const a = await player({ name: 'keyed-south' });
  const b = await player({ name: 'keyed-north' });
  await a.goto(suite.server.url);
  await ready(a);
  await a.check('input[name="side"][value="south"]');
  await a.click('#create');
  await a.waitForSelector('#share:not([hidden])');
  await b.goto(await a.inputValue('#share-link'));
  await ready(b);
  await a.waitForSelector('#share', { state: 'hidden' });
  const g = Game.start();
  // The side to move plays its first legal pit.
  const play = async () => {
    const letter = g.legal()[0];
    const page = g.state().turn === 'south' ? a : b;
    await page.click(`#board .pit.legal[data-pit="${letter}"]`);
    g.play(letter);
    for (const x of [a, b]) await waitMoves(x, g.moves.length);
  };
  for (let i = 0; i < 4; i++) await play();
  // The buttons and rows drawn so far, marked on the page that watches.
  await b.$$eval('#moves li, #moves .mv', (els) => els.forEach((e, i) => { e.dataset.probe = String(i); }));
  const before = await b.$$eval('#moves li, #moves .mv', (els) => els.map((e) => e.dataset.probe));
  assert.equal(g.state().turn, 'south');
  await play();  // South's move reaches North's page from the server
  await play();  // and North's own move comes back confirmed
  const after = await b.$$eval('#moves li, #moves .mv', (els) => els.map((e) => e.dataset.probe || 'new'));
  // Every node drawn before is still there, in order; only the new ones are new.
  assert.deepEqual(after.filter((x) => x !== 'new'), before);
  assert.equal(after.filter((x) => x === 'new').length, 3, `one row and two buttons added (${after.join(' ')})`);
  assert.deepEqual(await b.$$eval('#moves .mv', (bs) => bs.map((x) => x.textContent.split(' ')[0])), g.moves);
  noProblems();
});

// Every mutation while one pit is hovered: {records, removed, added, targets}.
async function hoverMutations(p, pit) {
  await p.mouse.move(2, 2);
  await p.evaluate(() => {
    window.seen = [];
    window.watch = new MutationObserver((rs) => window.seen.push(...rs));
    window.watch.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await p.hover(`#board .pit[data-pit="${pit}"]`);
  await p.waitForFunction(() => document.querySelector('#board').classList.contains('previewing') &&
    document.querySelector('#note').textContent !== '');
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  return p.evaluate(() => {
    window.seen.push(...window.watch.takeRecords());
    window.watch.disconnect();
    const name = (n) => (n.id ? `#${n.id}` : n.dataset && n.dataset.pit ? `pit ${n.dataset.pit}` : n.nodeName);
    return {
      records: window.seen.length,
      removed: window.seen.reduce((s, r) => s + r.removedNodes.length, 0),
      added: window.seen.reduce((s, r) => s + r.addedNodes.length, 0),
      targets: [...new Set(window.seen.map((r) => `${r.type} ${name(r.target)}${r.attributeName ? `@${r.attributeName}` : ''}`))].sort(),
    };
  });
}

test('one pit hovered at ply 40 changes only the pits it marks, the board and the note', async () => {
  const g = gameOf(40, 7);
  const p = await player({ name: 'hover' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.evaluate((saved) => localStorage.setItem('oware.local', JSON.stringify(saved)), { moves: g.moves, ai: null });
  await p.goto(`${suite.server.url}?local=1`);
  await ready(p);
  await waitMoves(p, 40);
  const pit = g.legal()[0];
  const pv = g.preview(pit);
  const land = pv.move.sown[pv.move.sown.length - 1];
  const m = await hoverMutations(p, pit);
  // The pits the preview marks (where it starts, where it lands, what it
  // takes), the board's "previewing" class, the note's text.
  const pits = new Set([pit, land, ...pv.move.captured]);
  const allowed = new Set(['attributes #board@class', 'childList #note', ...[...pits].map((x) => `attributes pit ${x}@class`)]);
  for (const target of m.targets) assert.ok(allowed.has(target), `${target} changed on a hover (${JSON.stringify(m)})`);
  assert.ok(m.targets.includes(`attributes pit ${pit}@class`) && m.targets.includes('childList #note'), JSON.stringify(m));
  assert.ok(m.records <= 2 + pits.size, `${m.records} mutation records (${JSON.stringify(m)})`);
  assert.ok(m.removed <= 1 && m.added <= 1, `nodes replaced: ${m.removed} removed, ${m.added} added`);
  assert.equal(await p.$$eval('#moves .mv', (bs) => bs.length), 40);
  noProblems();
});

test('the page\'s state is sealed at every level: a field added on the fly throws', async () => {
  const p = await player({ name: 'sealed' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#local-play');
  await ready(p);
  await waitMoves(p, 0);
  // The page's own module instance (the same URL: in the folder its modules
  // come from, v/<hash>/), so the page's own state.
  const r = await p.evaluate(async () => {
    'use strict';  // as the page's modules are: an assignment that cannot be made throws
    const app = performance.getEntriesByType('resource').map((e) => e.name)
      .find((n) => /\/v\/[0-9a-f]{16}\/app\.js$/.test(n));
    const { model } = await import(app.replace(/app\.js$/, 'model.js'));
    const tries = {};
    for (const [where, obj, field] of [['state', model, 'createKind'], ['online', model.online, 'retryTimer'],
      ['local', model.local, 'myName'], ['study', model.study, 'recordDate']]) {
      try { obj[field] = 1; tries[where] = 'added'; } catch (e) { tries[where] = e.constructor.name; }
      if (Object.hasOwn(obj, field)) tries[where] += ' (and there)';
    }
    return {
      mode: model.mode,
      sealed: [model, model.online, model.local, model.study].map((o) => Object.isSealed(o)),
      tries,
    };
  });
  assert.equal(r.mode, 'local');
  assert.deepEqual(r.sealed, [true, true, true, true]);
  assert.deepEqual(r.tries, { state: 'TypeError', online: 'TypeError', local: 'TypeError', study: 'TypeError' });
  noProblems();
});
