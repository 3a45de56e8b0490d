// ear.test.mjs: whole games by ear (issue 52), in Chromium against the real
// server, played with the keyboard alone and read only as a screen reader
// gets the page: Chromium's accessibility tree (the DevTools protocol's
// Accessibility.getFullAXTree: the pits' names, whether they respond, the
// live region's text) and the text of the live regions as it changes (a
// MutationObserver added before the page loads). An online game of two
// pages in English, from the start page's *Create room* to the result, and
// a game against the computer in Russian: every move of both sides said
// once in the language's sentence (the player's own as "You sowed c."),
// the result said, and the board read on demand (r, o, s, w, l, t) into
// the live region; the keyboard's help opened with ? and closed with Esc,
// the focus back where it was (axe-core finding nothing serious there),
// and on the board after each move and a reconnection;
// the clock's low time said at its points; Togyz Kumalak's holes by their
// traditional names in Kazakh. A club event by ear, in English and
// Russian: joined with the keyboard, the board (opponent, colour) heard
// when each round is paired, the game played in its room and back, the
// board's result recorded by the organiser (from node) heard as the
// player's own, the end heard; the focus kept through the page's redraws
// and put on the heading of its part when its control goes, every
// control reached by Tab in the page's order. The puzzles' and a lesson's
// panels read by the same keys (w, l, t too) and open the keys' help.
// The sentences expected are built from
// web/i18n/ (the words may change; which sentence is said may not).
// Run: make test-browser (suite 2), or this file alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ready, browserSuite, root, shot } from './lib.mjs';
import { Client } from '../server/lib.mjs';
import { createRequire } from 'node:module';
import { loadEngine, replay, Game } from '../../web/engine.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// axe-core's serious and critical violations on the page (axe.test.mjs).
async function axeClean(page, label) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const bad = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(bad, [], label);
}

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));

// Every live region's text, each time it changes, in window.heardLive
// ({id, text}), from before the page's first script.
async function listen(page) {
  await page.addInitScript(() => {
    const heard = [];
    Object.defineProperty(window, 'heardLive', { value: heard });
    const last = new Map();
    const note = () => {
      for (const el of document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]')) {
        const text = el.textContent.trim();
        if (text && last.get(el) !== text) heard.push({ id: el.id, text });
        last.set(el, text);
      }
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const suite = browserSuite([], { init: listen });
const { player, noProblems } = suite;

// ---- the words expected, from web/i18n/ ----

const WORDS = {};
function words(l) {
  if (!WORDS[l]) {
    const read = (p) => JSON.parse(fs.readFileSync(path.join(root, 'web/i18n', p), 'utf8'));
    WORDS[l] = { ...read(`${l}.json`), ...read(`keyboard/${l}.json`), ...read(`event/${l}.json`) };
  }
  return WORDS[l];
}

// i18n.js's t() for Oware in language l: the plural form of params.n first.
function say(l, key, params = {}) {
  const w = words(l);
  const cat = params.n !== undefined ? new Intl.PluralRules(l).select(params.n) : null;
  const s = (cat && w[`${key}.${cat}`]) ?? w[key];
  assert.ok(s !== undefined, `${l}: ${key}`);
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}

// A side in a sentence (names.js's sideWords, no names).
function sideWords(l, side) {
  const w = words(l);
  const the = w[`side.the.${side}`];
  return { side: w[`side.${side}`], the, The: the.charAt(0).toUpperCase() + the.slice(1), of: w[`side.of.${side}`], plural: w['side.plural'] === 'yes' };
}

// The sentence a move is said in (texts.js's moveSaid): info the engine's.
// (name: the mover's, where the room names its players: an event's board.)
function moveSentence(l, info, mover, me, name = null) {
  const params = { pit: info.pit, n: info.seeds, pits: info.captured.join(', ') };
  const what = info.grand_slam ? 'slam' : info.seeds > 0 ? 'capture' : 'move';
  if (mover === me) return say(l, `last.you.${what}`, params);
  const sw = name ? { side: name, the: name, The: name, of: say(l, 'name.of', { name }), plural: false } : sideWords(l, mover);
  const key = sw.plural && words(l)[`last.${what}.pl`] ? `last.${what}.pl` : `last.${what}`;
  return say(l, key, { ...sw, ...params });
}

// ---- what a screen reader gets ----

async function axNodes(page) {
  if (!page.cdp) {
    page.cdp = await page.context().newCDPSession(page);
    await page.cdp.send('Accessibility.enable');
  }
  const { nodes } = await page.cdp.send('Accessibility.getFullAXTree');
  return nodes.filter((n) => !n.ignored);
}
const prop = (n, name) => { const p = (n.properties || []).find((x) => x.name === name); return p ? p.value.value : undefined; };
const nameOf = (n) => (n.name && n.name.value) || '';

// The accessibility tree read: the pits (name, count, responds) and the
// polite live regions' text.
async function hearPage(page) {
  const all = await page.cdp.send('Accessibility.getFullAXTree').then((r) => r.nodes);
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const textOf = (n) => (n.role && n.role.value === 'StaticText' ? nameOf(n)
    : (n.childIds || []).map((id) => byId.get(id)).filter(Boolean).map(textOf).join(''));
  const nodes = all.filter((n) => !n.ignored);
  const pits = nodes.filter((n) => n.role && n.role.value === 'button' && /^[a-fA-F]: \d+ /.test(nameOf(n)))
    .map((n) => ({ pit: nameOf(n)[0], n: Number(/^[a-fA-F]: (\d+)/.exec(nameOf(n))[1]), on: prop(n, 'disabled') !== true, name: nameOf(n) }));
  // (A region's root: its parent is not in a live region.)
  const live = nodes.filter((n) => prop(n, 'live') === 'polite' && !(n.parentId && prop(byId.get(n.parentId) || {}, 'live') === 'polite')).map(textOf);
  const texts = new Set(nodes.filter((n) => n.role && n.role.value === 'StaticText').map(nameOf));
  return { pits, live, texts };
}

// Waits until the page's accessibility tree satisfies ok (its reading).
async function waitTree(page, ok, what, timeout = 20000) {
  const end = Date.now() + timeout;
  let seen;
  for (;;) {
    seen = await hearPage(page);
    if (ok(seen)) return seen;
    if (Date.now() > end) assert.fail(`${page.name}: ${what}; the tree: ${JSON.stringify({ live: seen.live, pits: seen.pits.map((p) => p.name) })}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const heard = (page) => page.evaluate(() => window.heardLive.filter((h) => h.id === 'live').map((h) => h.text));

// Waits until the live region has said a text starting with sentence
// since the from-th thing it said; resolves to where.
async function waitHeard(page, from, sentence, timeout = 20000) {
  const end = Date.now() + timeout;
  for (;;) {
    const all = await heard(page);
    const i = all.findIndex((h, k) => k >= from && h.startsWith(sentence));
    if (i >= 0) return i;
    if (Date.now() > end) assert.fail(`${page.name} never heard "${sentence}"; heard since: ${JSON.stringify(all.slice(from))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The sentences of the moves of a game, as the player of side me hears them.
function saidMoves(l, moves, me) {
  return moves.map((m, i) => moveSentence(l, replay(moves.slice(0, i)).play(m), i % 2 ? 'north' : 'south', me));
}

// Each move said once, in order: the things heard that are a move's
// sentence are the moves' sentences.
function onceEach(all, sentences, who) {
  const isMove = (h) => sentences.some((s) => h.startsWith(s));
  const got = all.filter(isMove);
  assert.equal(got.length, sentences.length, `${who}: one sentence a move: ${JSON.stringify(got)}`);
  got.forEach((h, i) => assert.ok(h.startsWith(sentences[i]), `${who}: move ${i + 1} said as "${sentences[i]}", not "${h}"`));
}

// Tab (and nothing else) until the focus is on selector.
async function tabTo(page, selector, max = 120) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => !!document.activeElement && document.activeElement.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`${page.name}: Tab never reached ${selector}`);
}

// The move that captures most (the first of equals): games of about 35 moves.
function greedy(moves) {
  const g = replay(moves);
  let best = null, most = -1;
  for (const m of g.legal()) {
    const p = g.preview(m);
    const seeds = p.move ? p.move.seeds : 0;
    if (seeds > most) { most = seeds; best = m; }
  }
  return best;
}

// Checks the board read on demand (the reading keys) against the game's
// position, in language l, for the player of side me.
async function readsBoard(page, l, moves, me, info) {
  const g = replay(moves).state();
  const row = (side) => (side === 'south' ? 'abcdef' : 'ABCDEF').split('').map((p, i) => say(l, 'read.pit', { pit: p, n: g.pits[(side === 'south' ? 0 : 6) + i], name: '' })).join(', ');
  const opp = me === 'south' ? 'north' : 'south';
  const expect = {
    r: say(l, 'read.row.yours', { pits: row(me) }),
    o: say(l, 'read.row.theirs', { pits: row(opp), side: sideWords(l, opp).side }),
    s: ['south', 'north'].map((s) => say(l, 'store.label', { side: sideWords(l, s).side, n: g.captured[s] })).join('. ') + '.',
    w: g.turn === me ? say(l, 'announce.turn') : say(l, 'turn.theirs', { side: sideWords(l, opp).side }),
    l: moveSentence(l, info, moves.length % 2 ? 'south' : 'north', me),
    t: say(l, 'read.time.none'),
  };
  const from = (await heard(page)).length;
  for (const [key, text] of Object.entries(expect)) {
    await page.keyboard.press(key);
    await waitTree(page, (s) => s.live.includes(text), `key ${key} reads "${text}"`);
  }
  // What the keys read is not a move said (onceEach leaves it out).
  await waitHeard(page, from, expect.t);
  (page.readings ||= []).push([from, (await heard(page)).length]);
}

// What the live region said but the reading keys' answers.
const heardMoves = async (page) => (await heard(page)).filter((h, i) => !(page.readings || []).some(([a, b]) => i >= a && i < b));

test('an online game by ear in English: created, joined and played to its end with the keyboard', async () => {
  const l = 'en';
  const south = await player({ locale: 'en-US', name: 'south' });
  const north = await player({ locale: 'en-US', name: 'north' });
  await south.goto(suite.server.url);
  await ready(south);
  await tabTo(south, '#create');
  await south.keyboard.press('Enter');
  await south.waitForSelector('#share:not([hidden])');
  const link = await south.inputValue('#share-link');
  await north.goto(link);
  await ready(north);
  await north.waitForFunction(() => document.body.dataset.seat === 'north');
  for (const p of [south, north]) await axNodes(p);
  const pages = { south, north };
  const moves = [];
  let info = null;
  let helpChecked = false;
  while (!replay(moves).state().over) {
    const turn = replay(moves).state().turn;
    const page = pages[turn], other = pages[turn === 'south' ? 'north' : 'south'];
    const legal = replay(moves).legal().slice().sort();
    // The pits that respond, as the tree says: the game's legal moves.
    await waitTree(page, (s) => JSON.stringify(s.pits.filter((p) => p.on).map((p) => p.pit).sort()) === JSON.stringify(legal),
      `the pits that respond are ${legal}`);
    const m = greedy(moves);
    const from = { [turn]: (await heard(page)).length, other: (await heard(other)).length };
    if (turn === 'south') {
      // South plays from the pits themselves: Tab to it, Enter.
      await tabTo(page, `#board .pit[data-pit="${m}"]`);
      await page.keyboard.press('Enter');
    } else {
      await page.keyboard.press(m);  // North types its letter
    }
    info = replay(moves).play(m);
    moves.push(m);
    await waitHeard(page, from[turn], moveSentence(l, info, turn, turn));
    await waitHeard(other, from.other, moveSentence(l, info, turn, turn === 'south' ? 'north' : 'south'));
    if (turn === 'south') {
      // The focus stays on the board after the move and its redraws.
      assert.equal(await south.evaluate(() => !!document.activeElement.closest('#board')), true, 'the focus on the board');
    }
    if (moves.length === 9) {
      // A reconnection (the server restarted): the focus stays where it
      // was, and no move is said again (onceEach, below).
      await suite.server.stop();
      for (const p of [south, north]) await p.waitForSelector('#conn:not([hidden])');
      await suite.server.start();
      for (const p of [south, north]) {
        await p.waitForFunction(() => document.querySelector('#conn').hidden &&
          document.querySelectorAll('.player.online').length === 2, null, { timeout: 30000 });
      }
      assert.equal(await south.evaluate(() => !!document.activeElement.closest('#board')), true, 'the focus on the board after the reconnection');
    }
    if (moves.length === 4) {
      await readsBoard(north, l, moves, 'north', info);
      await readsBoard(south, l, moves, 'south', info);
    }
    if (!helpChecked && turn === 'north') {
      // The keys' help: ? opens it, Esc closes it, the focus comes back.
      helpChecked = true;
      await south.keyboard.press('?');
      await south.waitForSelector('#keys[open]');
      const tree = await hearPage(south);
      assert.ok(tree.texts.has(say(l, 'keys.row')), 'the help lists the keys');
      await axeClean(south, 'the keys\' help');
      await shot(south, 'ear-keys-desktop');
      await south.keyboard.press('Escape');
      await south.waitForSelector('#keys', { state: 'hidden' });
      assert.equal(await south.evaluate(() => !!document.activeElement.closest('#board')), true, 'the focus back on the board');
    }
  }
  // The result: said to both, as the result card says it.
  for (const p of [south, north]) {
    await p.waitForSelector('#over:not([hidden])');
    const reason = await p.$eval('#over-reason', (el) => el.textContent);
    assert.ok((await hearPage(p)).texts.has(reason), 'the result in the tree');
    await waitHeard(p, 0, moveSentence(l, info, moves.length % 2 ? 'south' : 'north', p === south ? 'south' : 'north'));
    const all = await heard(p);
    assert.ok(all.some((h) => h.includes(reason)), `${p.name} heard the result "${reason}": ${JSON.stringify(all.slice(-3))}`);
    onceEach(await heardMoves(p), saidMoves(l, moves, p === south ? 'south' : 'north'), p.name);
    await p.keyboard.press('w');
    await waitTree(p, (s) => s.live.includes(reason), 'w says the result');
  }
  noProblems();
});

test('a game against the computer by ear in Russian, to its end', async () => {
  const l = 'ru';
  const page = await player({ locale: 'ru-RU', name: 'ru' });
  await page.goto(suite.server.url);
  await ready(page);
  await tabTo(page, '#ai-play');
  await page.keyboard.press('Enter');
  await page.waitForURL(/local=1/);
  await ready(page);
  await axNodes(page);
  const moves = [];
  let info = null;
  let from = 0;
  while (!replay(moves).state().over) {
    // The player's turn: the pits that respond are the game's legal moves;
    // the computer's move is found from the counts the tree reads.
    const want = replay(moves).legal().slice().sort();
    await waitTree(page, (s) => JSON.stringify(s.pits.filter((p) => p.on).map((p) => p.pit).sort()) === JSON.stringify(want),
      `the pits that respond are ${want}`, 60000);
    const m = greedy(moves);
    from = (await heard(page)).length;
    await page.keyboard.press(m);
    info = replay(moves).play(m);
    moves.push(m);
    await waitHeard(page, from, moveSentence(l, info, 'south', 'south'));
    if (replay(moves).state().over) break;
    // The computer's reply: the one whose position the tree shows.
    const reply = await waitReply(page, moves);
    const rinfo = replay(moves).play(reply);
    moves.push(reply);
    info = rinfo;
    await waitHeard(page, from, moveSentence(l, rinfo, 'north', 'south'), 60000);
    if (moves.length === 6) await readsBoard(page, l, moves, 'south', info);
  }
  await page.waitForSelector('#over:not([hidden])');
  const reason = await page.$eval('#over-reason', (el) => el.textContent);
  const all = await heard(page);
  assert.ok(all.some((h) => h.includes(reason)), `the result heard: "${reason}": ${JSON.stringify(all.slice(-3))}`);
  onceEach(await heardMoves(page), saidMoves(l, moves, 'south'), 'ru');
  // On a phone: the help's button, reached with Tab, opens it too.
  await page.setViewportSize({ width: 360, height: 740 });
  await tabTo(page, '#keys-open');
  await shot(page, 'ear-game-360-ru');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#keys[open]');
  assert.ok((await hearPage(page)).texts.has(say(l, 'keys.title')), 'the help in Russian');
  await axeClean(page, 'the keys\' help on a phone');
  await shot(page, 'ear-keys-360-ru');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#keys', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'keys-open', 'the focus back on the button');
  noProblems();
});

// The computer's move after moves: the legal move whose position the
// page's tree shows (its pits' counts), once the player may move again or
// the game is over.
async function waitReply(page, moves) {
  const g = replay(moves);
  const cands = g.legal().map((m) => [m, replay([...moves, m]).state()]);
  let found = null;
  await waitTree(page, (s) => {
    const counts = 'abcdefABCDEF'.split('').map((p) => (s.pits.find((x) => x.pit === p) || { n: -1 }).n);
    const hit = cands.find(([, st]) => JSON.stringify(st.pits) === JSON.stringify(counts));
    if (hit && (s.pits.some((p) => p.on) || hit[1].over)) { found = hit[0]; return true; }
    return false;
  }, "the computer's move", 60000);
  return found;
}

test('the clock by ear: its low time said at set points, not every second; t reads it', async () => {
  const l = 'en';
  const south = await player({ locale: 'en-US', name: 'clock-south' });
  const north = await player({ locale: 'en-US', name: 'clock-north' });
  await south.goto(suite.server.url);
  await ready(south);
  await south.check('input[name="side"][value="south"]');
  await south.check('input[name="clock"][value="custom"]');
  await south.fill('#clock-min', '0');
  await south.fill('#clock-sec', '33');
  await south.fill('#clock-inc', '0');
  await south.click('#create');
  await south.waitForSelector('#share:not([hidden])');
  await north.goto(await south.inputValue('#share-link'));
  await ready(north);
  await north.waitForFunction(() => document.body.dataset.seat === 'north');
  for (const p of [south, north]) await axNodes(p);
  // Both move (the clocks start then): South's runs from 33 s.
  await waitTree(south, (s) => s.pits.some((p) => p.on), 'South may move');
  await south.keyboard.press('c');
  await waitTree(north, (s) => s.pits.some((p) => p.on), 'North may move');
  const from = (await heard(south)).length;
  await north.keyboard.press('A');
  const warning = say(l, 'clock.warn.sec', { n: 30 });
  await waitHeard(south, from, warning, 15000);
  // t: the time left in words, South's clock running.
  await south.keyboard.press('t');
  await waitTree(south, (s) => s.live.some((x) => /^You: (30|29|28|27|26|25) seconds left, running\. North: 33 seconds left\.$/.test(x)), 't reads the clocks');
  // Said once: until the clock shows 27 s nothing more about it.
  await waitTree(south, (s) => [...s.texts].some((x) => /^0:2[0-7]$/.test(x)), 'the clock at 27 s');
  const all = await heard(south);
  assert.equal(all.filter((h) => h === warning).length, 1, `the warning said once: ${JSON.stringify(all.slice(from))}`);
  assert.equal(all.slice(from).filter((h) => /left on your clock/.test(h)).length, 1, 'no other clock sentence');
  assert.equal((await heard(north)).filter((h) => /left on your clock/.test(h)).length, 0, "North hears nothing of South's clock");
  noProblems();
});

test('the puzzles\' board read by ear inside its panel', async () => {
  const l = 'en';
  const page = await player({ locale: 'en-US', name: 'puzzles' });
  await page.goto(suite.server.url);
  await ready(page);
  await tabTo(page, '#puzzles-open');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#puzzles[open] #puzzles-board .pit');
  await axNodes(page);
  // The panel is modal: the page's own pits are hidden from the tree, its are not.
  const tree = await waitTree(page, (s) => s.pits.length === 12, 'the puzzle\'s pits');
  const count = (p) => tree.pits.find((x) => x.pit === p).n;
  const row = (letters) => letters.split('').map((p) => say(l, 'read.pit', { pit: p, n: count(p), name: '' })).join(', ');
  const mine = [say(l, 'read.row.yours', { pits: row('abcdef') }), say(l, 'read.row.yours', { pits: row('ABCDEF') })];
  await page.keyboard.press('r');
  await waitTree(page, (s) => s.live.some((x) => mine.includes(x)), `r reads the player's row: ${mine.join(' | ')}`);
  await page.keyboard.press('s');
  await waitTree(page, (s) => s.live.some((x) => /^Captured by South: \d+\. Captured by North: \d+\.$/.test(x)), 's reads the stores');
  // w, l, t as on the game screen: the puzzle's player to move, no move
  // yet, no clock.
  const id = await page.getAttribute('#puzzles-name', 'data-id');
  const pz = JSON.parse(fs.readFileSync(path.join(root, 'web/puzzles-oware.json'), 'utf8')).find((q) => q.id === id);
  const me = pz.position.turn, them = me === 'south' ? 'north' : 'south';
  for (const [key, text] of [['w', say(l, 'announce.turn')], ['l', say(l, 'read.last.none')], ['t', say(l, 'read.time.panel')]]) {
    await page.keyboard.press(key);
    await waitTree(page, (s) => s.live.includes(text), `${key} reads "${text}"`);
  }
  // The solution's first move typed; l says the last move (the reply,
  // if the puzzle has one), w whose turn it is then.
  const g = Game.fromPosition(pz.position);
  const first = g.play(pz.moves[0]);
  await page.keyboard.press(pz.moves[0]);
  let lastSaid = moveSentence(l, first, me, me);
  if (pz.moves.length > 1) {
    const reply = g.play(pz.moves[1]);
    lastSaid = moveSentence(l, reply, them, me);
    await page.waitForFunction(() => document.querySelectorAll('#puzzles-board .pit.legal').length > 0 && !document.querySelector('#puzzles-board.animating'));
  } else await page.waitForFunction(() => !document.querySelector('#puzzles-board.animating') && document.querySelector('#puzzles-feedback').textContent !== '');
  await page.keyboard.press('l');
  await waitTree(page, (s) => s.live.includes(lastSaid), `l reads "${lastSaid}"`);
  // ? opens the keys' help over the panel, in the panel's words; Esc
  // closes it, the focus back in the panel.
  await page.keyboard.press('?');
  await page.waitForSelector('#keys[open]');
  const help = await hearPage(page);
  assert.ok(help.texts.has(say(l, 'keys.intro.panel')), 'the help says it is the panel\'s');
  assert.ok(help.texts.has(say(l, 'keys.time.panel')), 'and that there is no clock');
  assert.ok(!help.texts.has(say(l, 'keys.review')), 'no stepping through moves');
  await axeClean(page, 'the keys\' help over the puzzles');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#keys', { state: 'hidden' });
  assert.equal(await page.evaluate(() => !!document.activeElement.closest('#puzzles[open]')), true, 'the focus back in the panel');
  noProblems();
});

test('a lesson read by ear: w, l, t and ? in its panel', async () => {
  const l = 'ru';
  const page = await player({ locale: 'ru-RU', name: 'lesson-ru' });
  await page.goto(suite.server.url);
  await ready(page);
  await tabTo(page, '#learn-open');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#learn[open] #learn-list button, #learn[open] #learn-list a');
  await tabTo(page, '#learn-list button, #learn-list a');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#learn[open] #learn-board .pit');
  await axNodes(page);
  await page.keyboard.press('t');
  await waitTree(page, (s) => s.live.includes(say(l, 'read.time.panel')), 't: no clock');
  await page.keyboard.press('l');
  await waitTree(page, (s) => s.live.includes(say(l, 'read.last.none')), 'l: no move yet');
  await page.keyboard.press('?');
  await page.waitForSelector('#keys[open]');
  assert.ok((await hearPage(page)).texts.has(say(l, 'keys.intro.panel')), 'the help in Russian, the panel\'s');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#keys', { state: 'hidden' });
  assert.equal(await page.evaluate(() => !!document.activeElement.closest('#learn[open]')), true, 'the focus back in the lesson');
  noProblems();
});

test('Togyz Kumalak by ear in Kazakh: the holes read by their traditional names', async () => {
  const page = await player({ locale: 'kk-KZ', name: 'togyz-kk' });
  await page.goto(suite.server.url);
  await ready(page);
  await tabTo(page, 'input[name="kind"][value="oware"]');
  await page.keyboard.press('ArrowRight');  // the game chosen: Togyz Kumalak
  await page.waitForFunction(() => document.querySelector('input[name="kind"][value="togyz"]').checked);
  await tabTo(page, '#local-play');
  await page.keyboard.press('Enter');
  await page.waitForURL(/local=1/);
  await ready(page);
  await axNodes(page);
  const names = words('kk')['togyz.hole.names'].split(', ');
  assert.equal(names.length, 9);
  // Two players on this device: r reads the row of the side to move (White).
  await page.keyboard.press('r');
  const row = say('kk', 'read.row', { side: words('kk')['togyz.side.south'], pits: names.map((n, i) => `${i + 1} (${n}): 9`).join(', ') });
  await waitTree(page, (s) => s.live.includes(row), `r reads "${row}"`);
  // A move by its number, said with its holes: 9 balls from hole 7 end
  // in Black's hole 6, which then holds 10 (even): captured.
  await page.keyboard.press('7');
  const the = words('kk')['togyz.side.the.south'];
  const move = say('kk', 'togyz.last.capture', { The: the.charAt(0).toUpperCase() + the.slice(1), the, side: the, pit: '7', n: 10, pits: '6' });
  await waitTree(page, (s) => s.live.includes(move), `the move said: "${move}"`);
  noProblems();
});

// ---- a club event by ear ----

// The next message of client c of type (and pred), others skipped.
async function untilMsg(c, type, pred = () => true) {
  for (;;) {
    const m = await c.next(30000);
    if (m.type === 'error') assert.fail(`error ${JSON.stringify(m)}`);
    if (m.type === type && pred(m)) return m;
  }
}

// The event as the server says it (GET /api/events/<id>).
async function eventJson(id) {
  const r = await fetch(`${suite.server.url}api/events/${id}`);
  assert.equal(r.status, 200);
  return r.json();
}

// The node of the accessibility tree that has the focus: its name.
async function focusedName(page) {
  const nodes = await axNodes(page);
  const f = nodes.find((n) => prop(n, 'focused') === true && !(n.role && n.role.value === 'RootWebArea'));
  return f ? nameOf(f) : null;
}

// The player's game of round as the page says it (event-view.js's
// gameText): board, opponent, colour, who moves first.
async function gameSaid(l, id, round, entry, opponent) {
  const ev = await eventJson(id);
  const b = ev.schedule.find((r) => r.round === round).boards.find((x) => x.white === entry || x.black === entry);
  const side = b.white === entry ? 'south' : 'north';
  return { side, board: b.board, text: say(l, side === 'south' ? 'event.you.game.first' : 'event.you.game.second',
    { round, board: b.board, name: opponent, side: words(l)[`side.${side}`] }) };
}

for (const [l, locale] of [['en', 'en-US'], ['ru', 'ru-RU']]) {
  test(`a club event by ear in ${l}: joined, the board heard when paired, played, its result and the next round heard`, async () => {
    await suite.ready;
    const port = suite.server.port;
    // The organiser and the opponent from node, through the protocol.
    const org = await Client.open(port);
    org.send({ type: 'event_create', title: 'Club by ear', kind: 'oware', format: 'double_round_robin', clock: { initial: 600, increment: 5 }, auto: false });
    const { event: id, token } = await untilMsg(org, 'event_welcome');
    const kofi = await Client.open(port);
    kofi.send({ type: 'event_join', event: id, name: 'Kofi' });
    await untilMsg(kofi, 'event_welcome');
    const page = await player({ locale, name: `event-${l}` });
    await page.goto(`${suite.server.url}?event=${id}`);
    await ready(page);
    await page.waitForSelector('#ev-join:not([hidden])');
    await axNodes(page);
    // Joined with the keyboard alone: Tab to the name, type it, Enter.
    await tabTo(page, '#ev-join-name');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Ama');
    await page.keyboard.press('Enter');
    await waitHeard(page, 0, say(l, 'event.joined.you'));
    const title = say(l, 'event.you.title', { name: 'Ama' });
    await waitTree(page, (s) => s.texts.has(title) && s.texts.has(say(l, 'event.you.entered')), 'the player\'s box');
    assert.equal(await focusedName(page), title, 'the focus on the player\'s box');
    // Round 1 paired: the board, the opponent, the colour, said once.
    let from = (await heard(page)).length;
    org.send({ type: 'event_start', event: id, token });
    await untilMsg(org, 'event', (m) => m.round === 1 && !m.pairing);
    const g1 = await gameSaid(l, id, 1, 1, 'Kofi');
    const told1 = `${say(l, 'event.announce.round', { n: 1 })} ${g1.text}`;
    await waitHeard(page, from, told1);
    await waitTree(page, (s) => s.texts.has(g1.text), 'the player\'s box names the game');
    assert.equal((await heard(page)).slice(from).filter((h) => h.includes(g1.text)).length, 1, 'said once');
    assert.equal(await focusedName(page), title, 'the focus kept through the redraws');
    // Every control in the page's order, each shown, Tab alone: from
    // the box (the way into the room, withdrawing) to the standings,
    // the exports, the round and its boards' links, home; then back up.
    const order = [];
    for (let i = 0; i < 40 && order.at(-1) !== 'ev-home'; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => {
        const a = document.activeElement;
        if (!a.getClientRects().length) return `hidden:${a.id || a.tagName}`;
        return a.id || (a.tagName === 'SUMMARY' ? 'summary' : a.classList.contains('ev-watch') ? 'watch' : a.className || a.tagName);
      }));
    }
    const want = ['ev-you-play', 'ev-you-withdraw', 'ev-trf', 'ev-csv', 'summary', 'watch', 'ev-home'];
    assert.deepEqual(order.filter((x) => want.includes(x)), want, `the order of the controls: ${order.join(', ')}`);
    assert.deepEqual(order.filter((x) => x.startsWith('hidden:')), [], 'no hidden control takes the focus');
    for (let i = 0; i < 40 && await page.evaluate(() => document.activeElement.id !== 'ev-you-play'); i++) await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedName(page), say(l, 'event.you.play'));
    await axeClean(page, 'the event page, a game paired');
    await shot(page, `ear-event-${l}`);
    // Kofi sits at his board from node; the player goes there by Enter.
    const kg = (await untilMsg(kofi, 'event_you', (m) => m.you && m.you.game && m.you.game.round === 1)).you.game;
    const seatK = await Client.open(port);
    seatK.send({ type: 'join', room: kg.room, token: kg.token });
    await untilMsg(seatK, 'welcome');
    await page.keyboard.press('Enter');
    await page.waitForFunction((side) => document.body.dataset.seat === side, g1.side);
    await ready(page);
    page.cdp = null;
    await axNodes(page);
    // Two moves each, the player's typed, Kofi's sent; each said.
    const moves = [];
    for (let ply = 0; ply < 4; ply++) {
      const turn = ply % 2 ? 'north' : 'south';
      const m = greedy(moves);
      const info = replay(moves).play(m);
      const at = (await heard(page)).length;
      if (turn === g1.side) {
        const legal = replay(moves).legal().slice().sort();
        await waitTree(page, (s) => JSON.stringify(s.pits.filter((p) => p.on).map((p) => p.pit).sort()) === JSON.stringify(legal), 'the player may move');
        await page.keyboard.press(m);
      } else seatK.send({ type: 'move', pit: m, ply });
      moves.push(m);
      await waitHeard(page, at, moveSentence(l, info, turn, g1.side, 'Kofi'));
    }
    // Kofi resigns: the result said in the room.
    seatK.send({ type: 'resign' });
    await page.waitForSelector('#over:not([hidden])');
    const reason = await page.$eval('#over-reason', (el) => el.textContent);
    await waitTree(page, (s) => s.live.some((x) => x.includes(reason)), `the result said: ${reason}`);
    // Back to the event by the keyboard: the page says the game is over.
    await tabTo(page, '#act-event');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#ev-you:not([hidden])');
    page.cdp = null;
    await axNodes(page);
    await waitTree(page, (s) => s.texts.has(say(l, 'event.you.waiting', { round: 1 })), 'the player\'s box: the game has its result');
    // Round 2 paired by the organiser: heard, with the colour.
    from = (await heard(page)).length;
    org.send({ type: 'event_next', event: id, token });
    await untilMsg(org, 'event', (m) => m.round === 2 && !m.pairing);
    const g2 = await gameSaid(l, id, 2, 1, 'Kofi');
    await waitHeard(page, from, `${say(l, 'event.announce.round', { n: 2 })} ${g2.text}`);
    // The organiser records round 2 as a draw on a real board while the
    // player's focus is on the way into the room, which goes: the focus
    // goes to the box's heading, not to the page's top.
    await tabTo(page, '#ev-you-play');
    from = (await heard(page)).length;
    org.send({ type: 'event_result', event: id, token, round: 2, board: g2.board, result: 'draw' });
    await waitHeard(page, from, say(l, 'event.announce.you.draw', { round: 2, result: say(l, 'event.result.draw') }));
    await page.waitForSelector('#ev-you-play', { state: 'hidden' });
    await page.waitForFunction(() => document.activeElement.id === 'ev-you-title');
    assert.equal(await focusedName(page), title, 'the focus on the box\'s heading');
    // The end: said, and the final place in the box.
    from = (await heard(page)).length;
    org.send({ type: 'event_next', event: id, token });
    await waitHeard(page, from, say(l, 'event.announce.over'));
    const ev = await eventJson(id);
    const row = ev.standings.find((r) => r.entry === 1);
    const place = await page.$eval('#ev-you-text', (el) => el.textContent);
    assert.ok(place.startsWith(say(l, 'event.you.place', { place: row.place, points: '' }).split(':')[0]), place);
    await waitTree(page, (s) => s.texts.has(place), 'the final place in the tree');
    for (const c of [org, kofi, seatK]) c.close();
    noProblems();
  });
}
