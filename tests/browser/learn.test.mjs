// learn.test.mjs: the Learn panel (web/learn.js) in Chromium against the
// real server: a newcomer's path through every lesson of both games, driven
// by the data files (web/lessons/*.json): each step's text, every explained
// wrong try (its `why` shown), an unlisted wrong try (the engine's words),
// the answer (its `done`, the board after it as the engine says), every
// question's wrong and right option, the progress kept after a reload, the
// first game against the easy computer; on a desktop and on a 360 px phone
// (no sideways scrolling), each in English and in Spanish; axe finds no
// serious violation on any screen of it. Then a room waiting for
// its opponent: its Learn line opens the lessons over the room, which stays
// connected, and the panel says when the opponent arrives.
// Screenshots: build/screenshots/learn-*.png.
// Run: OWARED=build/owared node --test tests/browser/learn.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as oware from '../../web/engine.js';
import * as togyz from '../../web/togyz.js';
import { root, ready, shot as fullShot, saveShot, browserSuite } from './lib.mjs';

await oware.loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));
await togyz.loadTogyz(fs.readFileSync(path.join(root, 'web/togyz.wasm')));
const ENGINES = { oware: oware.Game, togyz: togyz.Game };
const IDS = { oware: 'abcdefABCDEF', togyz: 'abcdefghiABCDEFGHI' };
const DATA = Object.fromEntries(['oware', 'togyz'].map((k) => [k,
  JSON.parse(fs.readFileSync(path.join(root, `web/lessons/${k}.json`), 'utf8'))]));

const SIDES = {
  oware: { en: { south: 'South', north: 'North' }, es: { south: 'Sur', north: 'Norte' } },
  togyz: { en: { south: 'White', north: 'Black' }, es: { south: 'Blancas', north: 'Negras' } },
};

// How the page names a pit: Oware's letter, Togyz's hole with its side.
function pitWords(kind, lang, p) {
  if (kind === 'oware') return p;
  const side = SIDES.togyz[lang][p === p.toLowerCase() ? 'south' : 'north'];
  const n = IDS.togyz.indexOf(p) % 9 + 1;
  return lang === 'es' ? `el hoyo ${n} de ${side}` : `${side}'s hole ${n}`;
}

// The engine's sentence for a legal move that misses a goal's last pit.
function lastMissed(kind, lang, want, landed) {
  const [a, b] = [pitWords(kind, lang, want), pitWords(kind, lang, landed)];
  if (kind === 'oware') return lang === 'es' ? `Esa jugada no termina en el hoyo ${a}: su última semilla cae en ${b}.`
    : `That move does not end in pit ${a}: its last seed lands in ${b}.`;
  return lang === 'es' ? `Esa jugada no termina en ${a}: su última semilla cae en ${b}.`
    : `That move does not end in ${a}: its last seed lands in ${b}.`;
}

// axe-core (as tests/browser/axe.test.mjs runs it): no serious or critical
// violation on the screen as it is now.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// The position right after a move's sowing and captures (info) from
// before: a board before a game's end empties it.
function asSown(kind, before, info) {
  const ids = IDS[kind].split('');
  const pits = [...before.pits];
  pits[ids.indexOf(info.pit)] = 0;
  for (const p of info.sown) pits[ids.indexOf(p)]++;
  for (const p of info.captured) pits[ids.indexOf(p)] = 0;
  return { pits, captured: { ...before.captured, [before.turn]: before.captured[before.turn] + info.seeds } };
}

async function axeClean(page, label) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const bad = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).slice(0, 3) }));
  });
  assert.deepEqual(bad, [], `axe on ${label}: ${JSON.stringify(bad, null, 1)}`);
}

const suite = browserSuite([]);
const { player, noProblems } = suite;

// The panel is a dialog over the page: the screen as the player sees it.
async function shot(page, name) {
  await saveShot(page, name);
}

const text = (page, sel) => page.evaluate((s) => document.querySelector(s).textContent, sel);
const shown = (page, sel) => page.evaluate((s) => { const e = document.querySelector(s); return !!e && !e.hidden && !!e.closest('dialog[open], body'); }, sel);
const counts = (page, kind) => page.evaluate((ids) => ids.split('').map((l) =>
  Number(document.querySelector(`#learn-board .pit[data-pit="${l}"]`).dataset.count)), IDS[kind]);

async function feedback(page) {
  return page.evaluate(() => {
    const el = document.getElementById('learn-feedback');
    return { text: el.textContent, kind: el.dataset.kind || null };
  });
}

// The panel fits the phone: nothing wider than the screen.
async function fits(page, what) {
  const w = await page.evaluate(() => {
    const d = document.getElementById('learn');
    return { scroll: d.scrollWidth, client: d.clientWidth, page: document.documentElement.scrollWidth, vw: window.innerWidth };
  });
  assert.ok(w.scroll <= w.client + 1 && w.page <= w.vw, `${what}: fits (${JSON.stringify(w)})`);
}

// Plays every lesson of kind in the panel, as a newcomer: lang 'en' | 'es'.
async function everyLesson(page, kind, lang, tag) {
  const data = DATA[kind];
  const phone = tag.includes('phone');
  await page.click('#learn-open');
  await page.waitForSelector('#learn-list .learn-lesson');
  assert.equal(await text(page, '#learn-title'), lang === 'es'
    ? (kind === 'togyz' ? 'Aprender Togyz Kumalak' : 'Aprender Oware')
    : (kind === 'togyz' ? 'Learn Togyz Kumalak' : 'Learn Oware'));
  assert.equal(await page.locator('#learn-list .learn-lesson').count(), data.lessons.length);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'learn-title', 'the focus goes to the panel');
  await shot(page, `learn-${kind}-${tag}-list`);
  await axeClean(page, `${kind} ${tag}: the lessons`);
  // For a screen reader: a dialog named by its heading, each lesson a button.
  const snap = await page.locator('#learn').ariaSnapshot();
  assert.match(snap, new RegExp(`heading "${await text(page, '#learn-title')}" \\[level=2\\]`), snap);
  assert.match(snap, new RegExp(`button "1\\. ${data.lessons[0].title[lang]}"`), snap);
  await page.locator('#learn-list .learn-lesson').first().click();
  let shots = new Set();
  for (const [li, lesson] of data.lessons.entries()) {
    assert.equal(await text(page, '#learn-lesson-title'), lesson.title[lang], `${lesson.id}: its title`);
    for (const [si, step] of lesson.steps.entries()) {
      const where = `${kind}/${lesson.id} step ${si + 1}`;
      assert.equal(await text(page, '#learn-text'), step.text[lang], `${where}: the text`);
      assert.equal(await text(page, '#learn-count'), lang === 'es' ? `Paso ${si + 1} de ${lesson.steps.length}` : `Step ${si + 1} of ${lesson.steps.length}`);
      const type = step.goal ? 'move' : step.options ? 'question' : step.play ? 'play' : 'words';
      if (step.position) {
        const g = ENGINES[kind].fromPosition(step.position);
        let before = null, info = null;
        for (const m of step.moves || []) { before = g.state(); info = g.play(m); }
        // Moves that end the game: the board as the last one sowed it
        // (the position the question is about), not the pits emptied.
        const want = info && g.state().over ? asSown(kind, before, info) : g.state();
        await page.waitForFunction(() => !document.querySelector('#learn-board.animating'));
        assert.deepEqual(await counts(page, kind), want.pits, `${where}: the position shown`);
        if (info && g.state().over) {
          assert.ok(want.pits.some((n) => n > 0), `${where}: seeds on the board`);
          await shot(page, `learn-${kind}-${tag}-ending`);
        }
        // Both scores shown (on a phone in strips above and below the board).
        for (const side of ['south', 'north']) {
          assert.equal(await page.isVisible(`#learn-store-${side}`), true, `${where}: ${side}'s score shown`);
          assert.equal(await text(page, `#learn-store-${side} .store-count`), String(want.captured[side]), `${where}: ${side}'s score`);
        }
      }
      if (step.goal) {
        if (!shots.has('step')) { shots.add('step'); await shot(page, `learn-${kind}-${tag}-step`); await axeClean(page, `${where}: a step`); }
        assert.equal(await shown(page, '#learn-next'), false, `${where}: no Next before the move`);
        const side = SIDES[kind][lang][step.position.turn];
        assert.ok((await text(page, '#learn-task')).includes(side), `${where}: the task names ${side}`);
        assert.equal(await page.getAttribute('#learn-board', 'data-view'), step.position.turn, `${where}: the mover's row nearest`);
        for (const w of step.wrong) {
          await page.click(`#learn-board .pit[data-pit="${w.move}"]`);
          assert.deepEqual(await feedback(page), { text: w.why[lang], kind: 'wrong' }, `${where}: why ${w.move}`);
        }
        // A try the lesson does not list: the engine's words, not a listed why.
        const g = ENGINES[kind].fromPosition(step.position);
        const other = IDS[kind].split('').find((p) => !step.answers.includes(p) && !step.wrong.some((w) => w.move === p));
        if (other) {
          await page.click(`#learn-board .pit[data-pit="${other}"]`);
          const fb = await feedback(page);
          assert.equal(fb.kind, 'wrong', `${where}: ${other} is wrong`);
          assert.ok(fb.text.length > 10 && !step.wrong.some((w) => w.why[lang] === fb.text), `${where}: ${other}: ${fb.text}`);
          const p = g.preview(other);
          if (p.error === 'not_yours') assert.match(fb.text, lang === 'es' ? /no es tuyo/ : /not yours/, `${where}: ${other}`);
          if (p.error === 'empty') assert.match(fb.text, lang === 'es' ? /vacío/ : /empty/, `${where}: ${other}`);
          if (!p.error) assert.match(fb.text, lang === 'es' ? /^Esa jugada no / : /^That move does not /, `${where}: ${other}`);
          // A goal of the last pit: the sentence names both pits.
          if (!p.error && step.goal.last) assert.equal(fb.text, lastMissed(kind, lang, step.goal.last, p.move.sown.at(-1)), `${where}: ${other}`);
        }
        if (!shots.has('wrong')) { shots.add('wrong'); await shot(page, `learn-${kind}-${tag}-wrong`); await axeClean(page, `${where}: a wrong try`); }
        // The answer, by keyboard on the desktop's first step, else by a click.
        const answer = step.answers[0];
        if (!phone && li === 0 && si === 0) {
          await page.focus('#learn-text');
          await page.keyboard.press(kind === 'togyz' ? String(IDS.togyz.indexOf(answer) % 9 + 1) : answer);
        } else if (phone) {
          await page.tap(`#learn-board .pit[data-pit="${answer}"]`);
        } else {
          await page.click(`#learn-board .pit[data-pit="${answer}"]`);
        }
        assert.deepEqual(await feedback(page), { text: step.done[lang], kind: 'done' }, `${where}: done`);
        g.play(answer);
        await page.waitForFunction(() => !document.querySelector('#learn-board.animating'));
        assert.deepEqual(await counts(page, kind), g.state().pits, `${where}: the board after ${answer}`);
        assert.equal(await text(page, '#learn-task'), '', `${where}: the task done`);
        assert.equal(await page.getAttribute('#learn-board', 'data-view'), step.position.turn, `${where}: the view stays`);
        if (!shots.has('done')) { shots.add('done'); await shot(page, `learn-${kind}-${tag}-done`); await axeClean(page, `${where}: done`); }
      } else if (step.options) {
        const buttons = page.locator('#learn-options .learn-option');
        assert.deepEqual(await buttons.allTextContents(), step.options.map((o) => o.text[lang]), `${where}: the options`);
        const wrong = step.options.findIndex((o) => !o.correct);
        await buttons.nth(wrong).click();
        const fb = await feedback(page);
        assert.equal(fb.kind, 'wrong', `${where}: a wrong option`);
        assert.equal(fb.text, step.options[wrong].why[lang], `${where}: why that option is wrong`);
        if (!shots.has('question-wrong')) { shots.add('question-wrong'); await shot(page, `learn-${kind}-${tag}-question-wrong`); }
        assert.equal(await shown(page, '#learn-next'), false, `${where}: no Next after a wrong option`);
        await buttons.nth(step.options.findIndex((o) => o.correct)).click();
        assert.deepEqual(await feedback(page), { text: step.done[lang], kind: 'done' }, `${where}: done`);
        if (!shots.has('question')) { shots.add('question'); await shot(page, `learn-${kind}-${tag}-question`); await axeClean(page, `${where}: a question`); }
      }
      if (phone) await fits(page, where);
      if (step.play) {
        assert.equal(await shown(page, '#learn-play'), true, `${where}: the first game's button`);
        assert.equal(await shown(page, '#learn-next'), false);
        await shot(page, `learn-${kind}-${tag}-play`);
        await axeClean(page, `${where}: the first game`);
        break;
      }
      assert.equal(await shown(page, '#learn-next'), true, `${where}: Next (${type})`);
      // A lesson done: its last step answered, Next goes to the next lesson.
      if (si === lesson.steps.length - 1 && !shots.has('lesson-done')) {
        shots.add('lesson-done');
        assert.equal(await text(page, '#learn-next'), lang === 'es' ? 'Siguiente lección' : 'Next lesson', `${where}: the lesson done`);
        await shot(page, `learn-${kind}-${tag}-lesson-done`);
        await axeClean(page, `${where}: the lesson done`);
      }
      await page.click('#learn-next');
    }
  }
}

for (const kind of ['oware', 'togyz']) {
  for (const [tag, opts, lang] of [
    ['desktop', { locale: 'en-US' }, 'en'],
    ['phone', { locale: 'es-ES', viewport: { width: 360, height: 740 }, mobile: true, motion: 'no-preference' }, 'es'],
    ['desktop-es', { locale: 'es-ES' }, 'es'],
    // (The sowing animated on one phone is enough: Spanish's.)
    ['phone-en', { locale: 'en-US', viewport: { width: 360, height: 740 }, mobile: true }, 'en'],
  ]) {
    test(`${kind} lessons, every step, on a ${tag.split('-')[0]} in ${lang}`, async () => {
      const page = await player({ ...opts, name: `${kind}-${tag}` });
      await page.goto(suite.server.url);
      await ready(page);
      await page.check(`input[name="kind"][value="${kind}"]`);
      assert.equal(await text(page, '#learn-open'), lang === 'es' ? 'Aprender a jugar' : 'Learn to play');
      await everyLesson(page, kind, lang, tag);
      // The progress stays in this browser: every lesson before the first game finished.
      await page.reload();
      await ready(page);
      await page.click('#learn-open');
      await page.waitForSelector('#learn-list .learn-lesson');
      const n = DATA[kind].lessons.length;
      assert.equal(await page.locator('#learn-list .learn-lesson.finished').count(), n - 1);
      assert.equal(await text(page, '#learn-progress'), lang === 'es'
        ? `Lecciones terminadas: ${n - 1} de ${n}.` : `Lessons finished: ${n - 1} of ${n}.`);
      // The last lesson: a first game against the easy computer.
      await page.locator('#learn-list .learn-lesson').last().click();
      await page.click('#learn-play');
      await page.waitForURL(/\?local=1/);
      await ready(page);
      const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('oware.local')));
      assert.equal(saved.kind, kind);
      assert.deepEqual(saved.ai, { level: 'easy', side: 'north' });
      await page.waitForSelector('#board .pit.legal');
      assert.equal(await page.evaluate(() => document.body.dataset.kind), kind);
      await fullShot(page, `learn-${kind}-${tag}-first-game`);
      // Escape closes the panel, the focus back on the page.
      await page.goto(suite.server.url);
      await ready(page);
      await page.click('#learn-open');
      await page.waitForSelector('#learn-list .learn-lesson');
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate(() => document.getElementById('learn').open), false, 'Escape closes it');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'learn-open', 'the focus back on the button');
      noProblems();
    });
  }
}

test('a room waiting for its opponent: Learn over the room, the opponent arriving during a lesson', async () => {
  for (const [kind, lang, opts] of [['oware', 'en', { locale: 'en-US' }],
    ['togyz', 'es', { locale: 'es-ES', viewport: { width: 360, height: 740 }, mobile: true }]]) {
    const host = await player({ ...opts, name: `host-${kind}` });
    await host.goto(suite.server.url);
    await ready(host);
    await host.check(`input[name="kind"][value="${kind}"]`);
    await host.click('#create');
    await host.waitForSelector('#share:not([hidden])');
    const link = await host.inputValue('#share-link');
    const line = {
      oware: { en: 'New to Oware? Learn the rules while you wait', es: '¿Nuevo en el Oware? Aprende las reglas mientras esperas' },
      togyz: { en: 'New to Togyz Kumalak? Learn the rules while you wait', es: '¿Nuevo en el Togyz Kumalak? Aprende las reglas mientras esperas' },
    }[kind][lang];
    assert.equal(await text(host, '#share-learn'), line);
    const url = host.url();
    await host.click('#share-learn');
    await host.waitForSelector('#learn-list .learn-lesson');
    await host.locator('#learn-list .learn-lesson').first().click();
    const step = DATA[kind].lessons[0].steps[0];
    await host.click(`#learn-board .pit[data-pit="${step.wrong[0].move}"]`);
    assert.equal((await feedback(host)).text, step.wrong[0].why[lang]);
    assert.equal(await shown(host, '#learn-arrived'), false, 'nobody has come yet');
    // The opponent opens the link while the host is in a lesson.
    const guest = await player({ locale: 'en-US', name: `guest-${kind}` });
    await guest.goto(link);
    await ready(guest);
    await host.waitForSelector('#learn-arrived:not([hidden])');
    assert.equal(await text(host, '#learn-arrived-text'), lang === 'es' ? 'Tu rival ha llegado.' : 'Your opponent has arrived.');
    // The lesson is still there, the room's page never left.
    assert.equal(await text(host, '#learn-text'), step.text[lang]);
    assert.equal(host.url(), url);
    await shot(host, `learn-room-${kind}-arrived`);
    await axeClean(host, `${kind}: the opponent arrived during a lesson`);
    await host.click('#learn-back-room');
    assert.equal(await host.evaluate(() => document.getElementById('learn').open), false);
    assert.equal(await host.evaluate(() => document.body.dataset.seat), 'south');
    await host.waitForSelector('#share', { state: 'hidden' });
    // The room answers: the host (South) moves and the guest sees it.
    await host.click(`#board .pit[data-pit="a"].legal`);
    await guest.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 1);
    await fullShot(host, `learn-room-${kind}-back`);
  }
  noProblems();
});
