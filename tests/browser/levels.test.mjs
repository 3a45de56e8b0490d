// levels.test.mjs: the ladder of the computer's levels on the page (issue
// 33), in Chromium against the real server, in both games and both
// languages: the level choice lists every step of the ladder, weakest
// first, each with its name and a line on its play; each game keeps its own
// level in this browser; a game against the computer at a new step gets
// the engine's move of that step; after a game won the page offers the
// next level (not after a loss or a draw, nor at the top) and plays it;
// the hint is hard's whatever the level; axe finds nothing serious on the
// choice. Screenshots: build/screenshots/levels-*.png.
// Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { loadEngine, Game } from '../../web/engine.js';
import { loadTogyz, Game as TogyzGame } from '../../web/togyz.js';
import { root, ready, waitMoves, shot, saveShot, rng, browserSuite } from './lib.mjs';

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));
await loadTogyz(fs.readFileSync(path.join(root, 'web/togyz.wasm')));

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const suite = browserSuite();
const { player, noProblems } = suite;

// Each game's ladder as the page must show it, weakest first: [value,
// English name, Spanish name]; Oware's has thirteen, Togyz Kumalak's eleven
// of its own.
const NAMES = {
  starter: ['Starter', 'Inicial'],
  easy: ['Easy', 'Fácil'],
  learner: ['Learner', 'Aprendiz'],
  amateur: ['Amateur', 'Aficionado'],
  improver: ['Improver', 'Practicante'],
  steady: ['Steady', 'Constante'],
  medium: ['Medium', 'Medio'],
  club: ['Club', 'Club'],
  advanced: ['Advanced', 'Avanzado'],
  strong: ['Strong', 'Fuerte'],
  expert: ['Expert', 'Experto'],
  master: ['Master', 'Maestro'],
  hard: ['Champion', 'Campeón'],
};
const LADDERS = {
  oware: ['starter', 'easy', 'learner', 'amateur', 'improver', 'steady', 'medium', 'club', 'advanced', 'strong', 'expert', 'master', 'hard'],
  togyz: ['starter', 'easy', 'learner', 'amateur', 'improver', 'steady', 'medium', 'advanced', 'strong', 'master', 'hard'],
};
const ladder = (kind) => LADDERS[kind].map((v) => [v, ...NAMES[v]]);
// The step above medium: the first offered after a game won at medium.
const ABOVE_MEDIUM = { oware: 'club', togyz: 'advanced' };
const LANGS = { en: 'en-US', es: 'es-ES' };
const PHONE = { viewport: { width: 360, height: 740 }, mobile: true };

// The level choice as shown: [{value, name, desc, checked}].
const shownLevels = (page) => page.$$eval('#ai-levels label', (els) => els.map((l) => ({
  value: l.querySelector('input').value,
  name: l.querySelector('.level-name').textContent,
  desc: l.querySelector('.level-desc').textContent,
  checked: l.querySelector('input').checked,
})));
const checkedLevel = (page) => page.$eval('#ai-levels input:checked', (i) => i.value);

// The start page with game kind chosen, and no saved local game (a new
// one would be asked about first).
async function startPage(page, kind) {
  await page.goto(suite.server.url);
  await ready(page);
  await page.evaluate(() => localStorage.removeItem('oware.local'));
  await page.check(`input[name="kind"][value="${kind}"]`);
}

test('the level choice: the whole ladder with a name and a line each, both games, both languages; axe finds nothing serious', async () => {
  for (const [lang, locale] of Object.entries(LANGS)) {
    for (const [label, opts] of [['desktop', { viewport: { width: 1280, height: 800 } }], ['phone', PHONE]]) {
      const p = await player({ locale, name: `choice-${lang}-${label}`, ...opts });
      for (const kind of ['oware', 'togyz']) {
        await startPage(p, kind);
        const shown = await shownLevels(p);
        const LADDER = ladder(kind);
        assert.deepEqual(shown.map((l) => l.value), LADDER.map((l) => l[0]), `${lang} ${kind}: the ladder's order`);
        assert.deepEqual(shown.map((l) => l.name), LADDER.map((l) => (lang === 'en' ? l[1] : l[2])), `${lang} ${kind}: the names`);
        for (const l of shown) {
          // A line of its own: a sentence, no key left, no two alike.
          assert.match(l.desc, /^[A-ZÁÉÍÓÚ].{15,100}\.$/, `${lang} ${kind} ${l.value}: ${l.desc}`);
          assert.doesNotMatch(l.desc, /ai\.level/);
        }
        assert.equal(new Set(shown.map((l) => l.desc)).size, LADDER.length, `${lang} ${kind}: the lines differ`);
        // Issue 43, minor 22: a compact ladder read in rows, weakest
        // first, numbered, and the chosen step's line under it.
        const look = await p.evaluate(() => {
          const set = document.getElementById('ai-levels').getBoundingClientRect();
          const boxes = [...document.querySelectorAll('#ai-levels label')].map((l) => {
            const r = l.getBoundingClientRect();
            return { top: Math.round(r.top), left: Math.round(r.left), num: l.querySelector('.level-num').textContent, height: r.height };
          });
          const line = document.getElementById('ai-level-desc');
          return { height: set.height, boxes, line: line.textContent, lineHeight: line.getBoundingClientRect().height, vh: window.innerHeight };
        });
        const inRows = look.boxes.every((b, i) => i === 0 || b.top > look.boxes[i - 1].top || (b.top === look.boxes[i - 1].top && b.left > look.boxes[i - 1].left));
        assert.ok(inRows, `${lang} ${kind} ${label}: read in rows, weakest first ${JSON.stringify(look.boxes)}`);
        assert.deepEqual(look.boxes.map((b) => b.num), LADDER.map((_, i) => String(i + 1)));
        assert.ok(look.boxes.every((b) => b.height <= 48), `${lang} ${kind} ${label}: each step on one line`);
        assert.ok(look.height <= (label === 'phone' ? 0.45 * look.vh : 300), `${lang} ${kind} ${label}: the choice is ${look.height} px high`);
        assert.equal(look.line, shown.find((l) => l.checked).desc, 'the chosen step\'s line');
        // Before a choice: medium, as before the ladder.
        assert.equal(await checkedLevel(p), 'medium');
        // No sideways scrolling on the phone.
        assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${lang} ${kind} ${label}: no sideways scroll`);
        if (kind === 'oware') {
          await p.evaluate(AXE);
          const bad = await p.evaluate(async () => {
            const r = await window.axe.run(document, { resultTypes: ['violations'] });
            return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
          });
          assert.deepEqual(bad, [], `${lang} ${label}: ${JSON.stringify(bad)}`);
        }
        if (kind === 'oware') await shot(p, `levels-start-${lang}-${label}`);
        await p.locator('#ai-form').scrollIntoViewIfNeeded();
        await p.check('input[name="ai-level"][value="learner"]');
        assert.equal(await p.textContent('#ai-level-desc'), shown.find((l) => l.value === 'learner').desc, 'the line follows the choice');
        await saveShot(p.locator('#ai-form'), `levels-choice-${kind}-${lang}-${label}`);
        await p.evaluate(() => localStorage.clear());
      }
    }
  }
  noProblems();
});

test('each game keeps its own level in this browser, and a game starts at it', async () => {
  const p = await player({ locale: 'en-US', name: 'keep' });
  await startPage(p, 'oware');
  await p.check('input[name="ai-level"][value="club"]');
  await p.check('input[name="kind"][value="togyz"]');
  assert.equal(await checkedLevel(p), 'medium', 'Togyz has no level chosen yet');
  await p.check('input[name="ai-level"][value="learner"]');
  await p.check('input[name="kind"][value="oware"]');
  assert.equal(await checkedLevel(p), 'club', "Oware's own level back");
  // After a reload the page opens on the game chosen last (Oware) with its level.
  await p.reload();
  await ready(p);
  assert.equal(await checkedLevel(p), 'club');
  await p.check('input[name="kind"][value="togyz"]');
  assert.equal(await checkedLevel(p), 'learner');
  assert.deepEqual(await p.evaluate(() => [localStorage.getItem('oware.level.oware'), localStorage.getItem('oware.level.togyz')]), ['club', 'learner']);
  // A Togyz game at its level; the computer (White) moves first.
  await p.check('input[name="ai-side"][value="north"]');
  await p.click('#ai-play');
  await ready(p);
  await waitMoves(p, 1, 20000);
  assert.deepEqual(await p.evaluate(() => JSON.parse(localStorage.getItem('oware.local')).ai), { level: 'learner', side: 'south' });
  assert.match(await p.textContent('#player-top .player-name'), /\(computer, Learner\)$/);
  // Back on the start page the other game's level is unchanged.
  await p.goto(suite.server.url);
  await ready(p);
  assert.equal(await checkedLevel(p), 'learner');
  await p.check('input[name="kind"][value="oware"]');
  assert.equal(await checkedLevel(p), 'club');
  // Togyz Kumalak's club and expert, kept by an older page (its ladder had
  // Oware's names): the steps that took their place; a name of no ladder: medium.
  for (const [kept, shown] of [['club', 'advanced'], ['expert', 'master'], ['nope', 'medium']]) {
    await p.evaluate((v) => localStorage.setItem('oware.level.togyz', v), kept);
    await p.check('input[name="kind"][value="oware"]');
    await p.check('input[name="kind"][value="togyz"]');
    assert.equal(await checkedLevel(p), shown, `Togyz ${kept} kept`);
  }
  assert.equal(await p.locator('#ai-levels input[value="club"]').count(), 0);
  assert.equal(await p.locator('#ai-levels input[value="amateur"]').count(), 1);
  // A Togyz game against club saved by an older page resumes against advanced.
  await p.evaluate(() => localStorage.setItem('oware.local', JSON.stringify({ kind: 'togyz', moves: ['a'], ai: { level: 'club', side: 'north' } })));
  await p.goto(`${suite.server.url}?local=1`);
  await ready(p);
  assert.match(await p.textContent('#player-top .player-name'), /\(computer, Advanced\)$/);
  noProblems();
});

// Records the messages the page sends to its computer's worker.
async function spyWorkers(page) {
  await page.addInitScript(() => {
    window.workerMessages = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      window.workerMessages.push(msg && msg.type ? { type: msg.type, level: msg.level } : msg);
      return post.call(this, msg, ...rest);
    };
  });
}

test('every step plays in both games (its own engine level) and answers quickly; the hint is hard\'s', async () => {
  const p = await player({ locale: 'es-ES', name: 'steps' });
  await spyWorkers(p);
  for (const kind of ['oware', 'togyz']) {
    for (const [i, [level]] of ladder(kind).entries()) {
      if (level === 'hard') continue;  // hard thinks a second: played elsewhere
      await startPage(p, kind);
      await p.check(`input[name="ai-level"][value="${level}"]`);
      await p.check('input[name="ai-side"][value="north"]');
      await p.evaluate(() => { window.workerMessages.length = 0; });
      const t0 = Date.now();
      await p.click('#ai-play');
      await ready(p);
      await waitMoves(p, 1, 20000);
      const took = Date.now() - t0;
      const best = (await p.evaluate(() => window.workerMessages)).filter((m) => m.type === 'best');
      // easy and medium are the engine's levels themselves; the others its ladder's 10 + n.
      const want = ['easy', 'medium'].includes(level) ? level : 10 + i + 1;
      assert.deepEqual(best.map((m) => m.level), [want], `${kind} ${level}`);
      // The page's pause after a move is half a second; the search adds little.
      assert.ok(took < 5000, `${kind} ${level}: ${took} ms`);
    }
    // The hint at the starter level: hard's search.
    await startPage(p, kind);
    await p.check('input[name="ai-level"][value="starter"]');
    await p.check('input[name="ai-side"][value="south"]');
    await p.click('#ai-play');
    await ready(p);
    await p.waitForSelector('#board .pit.legal');
    await p.evaluate(() => { window.workerMessages.length = 0; });
    await p.click('#act-hint');
    await p.waitForSelector('#board .pit.hint', { timeout: 20000 });
    assert.deepEqual((await p.evaluate(() => window.workerMessages)).filter((m) => m.type === 'best').map((m) => m.level), ['hard'], `${kind}: the hint`);
  }
  noProblems();
});

// A finished game of random moves won by want ('south', 'north' or 'draw').
function finished(kind, want) {
  const G = kind === 'togyz' ? TogyzGame : Game;
  for (let seed = 1; seed < 5000; seed++) {
    const rand = rng(seed);
    const g = G.start();
    while (!g.over) {
      const legal = g.legal();
      g.play(legal[Math.floor(rand() * legal.length)]);
    }
    if (g.state().winner === want) return g.moves.slice();
  }
  return null;
}

// The action bar's buttons shown, in their order: [id, filled].
const actionsShown = (page) => page.$$eval('#actions > :is(button, a)', (bs) => bs.filter((b) => b.getClientRects().length > 0)
  .map((b) => [b.id, b.classList.contains('primary')]));

// Opens the saved local game of kind: moves, against the computer at
// level playing side.
async function openSaved(page, kind, moves, level, side) {
  if (!page.url().startsWith(suite.server.url)) { // localStorage is the origin's
    await page.goto(suite.server.url);
    await ready(page);
  }
  await page.evaluate((saved) => localStorage.setItem('oware.local', JSON.stringify(saved)), { kind, moves, ai: { level, side } });
  await page.goto(`${suite.server.url}?local=1`);
  await ready(page);
  await page.waitForSelector('#over:not([hidden])');
}

test('after a game won the page offers the next level and plays it; not after a loss or a draw, nor at the top', async () => {
  for (const kind of ['oware', 'togyz']) {
    const won = finished(kind, 'south');
    const lost = finished(kind, 'north');
    assert.ok(won && lost, `${kind}: games found`);
    for (const [lang, locale] of Object.entries(LANGS)) {
      for (const [label, opts] of [['desktop', { viewport: { width: 1280, height: 800 } }], ['phone', PHONE]]) {
        const p = await player({ locale, name: `next-${kind}-${lang}-${label}`, ...opts });
        // The human (South) won against medium: the step above is offered
        // (Oware's club, Togyz Kumalak's advanced).
        const up = ABOVE_MEDIUM[kind];
        const upName = NAMES[up][lang === 'en' ? 0 : 1];
        await openSaved(p, kind, won, 'medium', 'north');
        assert.equal(await p.isVisible('#act-next-level'), true);
        assert.equal(await p.textContent('#act-next-level'), lang === 'en' ? `Play the next level: ${upName}` : `Jugar el siguiente nivel: ${upName}`);
        // Issue 43, minor 6: the next level leads and is the one filled
        // button; Undo comes after what is next (Analyse: Oware's).
        const analyse = kind === 'oware' ? ['act-analyse'] : [];
        assert.deepEqual(await actionsShown(p), [['act-next-level', true], ['act-new', false],
          ...analyse.map((id) => [id, false]), ['act-undo', false], ['act-flip', false], ['act-home', false]]);
        await shot(p, `levels-next-${kind}-${lang}-${label}`);
        if (label === 'phone') continue;
        // The offer at the other steps names the step above.
        await openSaved(p, kind, won, 'starter', 'north');
        assert.equal(await p.textContent('#act-next-level'), lang === 'en' ? 'Play the next level: Easy' : 'Jugar el siguiente nivel: Fácil');
        await openSaved(p, kind, won, 'master', 'north');
        assert.equal(await p.textContent('#act-next-level'), lang === 'en' ? 'Play the next level: Champion' : 'Jugar el siguiente nivel: Campeón');
        // None at the top, nor after a loss.
        await openSaved(p, kind, won, 'hard', 'north');
        assert.equal(await p.isVisible('#act-next-level'), false, 'hard won');
        await openSaved(p, kind, lost, 'medium', 'north');
        assert.equal(await p.isVisible('#act-next-level'), false, 'lost');
        assert.deepEqual((await actionsShown(p)).slice(0, 1), [['act-new', true]], 'lost: New game leads, filled');
        // A game between two players has none either.
        await p.evaluate((saved) => localStorage.setItem('oware.local', JSON.stringify(saved)), { kind, moves: won, ai: null });
        await p.goto(`${suite.server.url}?local=1`);
        await ready(p);
        await p.waitForSelector('#over:not([hidden])');
        assert.equal(await p.isVisible('#act-next-level'), false, 'two players');
        // Taken: a new game a step up, the same side, and that step is this game's level now.
        await openSaved(p, kind, won, 'medium', 'north');
        await p.click('#act-next-level');
        await p.waitForSelector('#over', { state: 'hidden' });
        await p.waitForSelector('#board .pit.legal');
        const saved = await p.evaluate(() => JSON.parse(localStorage.getItem('oware.local')));
        assert.deepEqual([saved.kind, saved.moves, saved.ai], [kind, [], { level: up, side: 'north' }]);
        assert.equal(await p.evaluate((k) => localStorage.getItem(`oware.level.${k}`), kind), up);
        assert.equal(await p.evaluate((k) => localStorage.getItem(`oware.level.${k === 'togyz' ? 'oware' : 'togyz'}`), kind), null, 'the other game keeps its own');
        assert.equal(await p.isVisible('#act-next-level'), false, 'a game on');
        assert.ok((await p.textContent('#player-top .player-name')).endsWith(lang === 'en' ? `(computer, ${upName})` : `(IA, ${upName})`));
        await p.evaluate(() => localStorage.clear());
      }
    }
  }
  // A draw (Oware's random games have some) offers nothing.
  const drawn = finished('oware', 'draw');
  assert.ok(drawn, 'a drawn game found');
  const p = await player({ locale: 'en-US', name: 'draw' });
  await openSaved(p, 'oware', drawn, 'medium', 'north');
  assert.equal(await p.isVisible('#act-next-level'), false, 'draw');
  noProblems();
});
