// languages.test.mjs: the five languages of web/i18n/ in Chromium (issue
// 42): a page opened with ?lang= speaks it, names it in the selector and
// keeps it; the browser's language decides a first visit; and the start
// page, a lesson, a puzzle and a game to its end fit a 360 px phone and a
// 1280 px screen in each language, with no text wider than its box and
// nothing wider than the page; so does a club event's page, running and
// over (the standings with their longest words, numbers in the language's
// own format). Screenshots: build/screenshots/lang-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { ready, shot, saveShot, browserSuite, switchLang } from './lib.mjs';

const suite = browserSuite();
const { player, noProblems } = suite;

const LANGS = ['en', 'es', 'fr', 'kk', 'ru'];
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// What sticks out: an element shown whose content is wider than its box
// (a clipped or spilling text), or that reaches past the page's sides, and
// the page scrolling sideways. Scrolling lists and visually hidden texts
// are meant to (and what is inside them: the standings with every
// tie-break scroll sideways on a phone); the start page's board is turned
// a little on purpose. Text only: words do not change a board's shape.
function overflows(page) {
  return page.evaluate(() => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const scroller = (el) => {
      for (let a = el.parentElement; a; a = a.parentElement) if (/auto|scroll/.test(getComputedStyle(a).overflowX)) return true;
      return false;
    };
    for (const el of document.querySelectorAll('body *')) {
      if (!el.getClientRects().length || el.closest('.sr-only, .hero, svg, select, option') || scroller(el)) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.position === 'fixed') continue;
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > vw + 1 || r.left < -1)) out.push(`${name(el)} reaches past the page (${Math.round(r.left)}..${Math.round(r.right)} of ${vw})`);
      // (A board's pits wear their count as a badge over their edge.)
      const scrolls = /auto|scroll/.test(cs.overflowX);
      if (!scrolls && !el.closest('.board') && el.clientWidth && el.scrollWidth > el.clientWidth + 1 && !['INPUT', 'TEXTAREA'].includes(el.tagName)) {
        out.push(`${name(el)} is wider than its box (${el.scrollWidth} > ${el.clientWidth}): ${el.textContent.trim().slice(0, 60)}`);
      }
    }
    if (document.documentElement.scrollWidth > vw + 1) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${vw})`);
    return out;
  });
}

// The screen as seen (a panel over the page), not the whole page.
async function seen(page, name) {
  await saveShot(page, name);
}

async function fits(page, label) {
  assert.deepEqual(await overflows(page), [], label);
}

for (const [vname, viewport] of [['360', PHONE], ['1280', DESKTOP]]) {
  for (const l of LANGS) {
    test(`${l} at ${vname} px: the start page, a lesson, a puzzle and a game to its end fit`, async () => {
      const p = await player({ locale: 'en-US', viewport, mobile: viewport === PHONE, name: `${l}-${vname}` });
      await p.goto(`${suite.server.url}?lang=${l}`);
      await ready(p);
      assert.equal(await p.getAttribute('html', 'lang'), l);
      assert.equal(await p.inputValue('#lang'), l);
      assert.deepEqual(await p.$$eval('#lang option', (os) => os.map((o) => `${o.value}:${o.textContent}`)),
        ['en:English', 'es:Español', 'fr:Français', 'kk:Қазақша', 'ru:Русский']);
      // No key shows raw.
      assert.deepEqual(await p.$$eval('[data-i18n]', (els) => els.filter((e) => e.textContent === e.dataset.i18n).map((e) => e.dataset.i18n)), []);
      await p.click('#editor > summary');
      await fits(p, `${l} ${vname}: the start page`);
      await shot(p, `lang-${l}-${vname}-start`);
      await p.click('#editor > summary');

      // A lesson's first step.
      await p.click('#learn-open');
      await p.waitForSelector('#learn-list .learn-lesson');
      await p.locator('#learn-list .learn-lesson').first().click();
      await p.waitForSelector('#learn-text');
      await fits(p, `${l} ${vname}: a lesson`);
      await seen(p, `lang-${l}-${vname}-lesson`);
      await p.click('#learn-close');
      // And Togyz Kumalak's, whose nine holes leave its stores narrower.
      await p.check('input[name="kind"][value="togyz"]');
      await p.click('#learn-open');
      // (Oware's list stays until Togyz Kumalak's lessons are loaded.)
      await p.waitForSelector('#learn-list li[data-key^="togyz:"] .learn-lesson');
      await p.locator('#learn-list .learn-lesson').first().click();
      await p.waitForSelector('#learn-text');
      await fits(p, `${l} ${vname}: a Togyz Kumalak lesson`);
      await seen(p, `lang-${l}-${vname}-lesson-togyz`);
      await p.click('#learn-close');
      await p.check('input[name="kind"][value="oware"]');

      // A puzzle, with its hint asked.
      await p.click('#puzzles-open');
      await p.waitForSelector('#puzzles-task:not(:empty)');
      await fits(p, `${l} ${vname}: a puzzle`);
      await seen(p, `lang-${l}-${vname}-puzzle`);
      await p.keyboard.press('Escape');
      await p.waitForSelector('#puzzles', { state: 'hidden' });

      // A game one move from its end: South's f takes two of North's A and
      // reaches 26 (North keeps B, so no grand slam).
      await p.click('#editor > summary');
      await p.fill('#ed-text', '0-0-0-0-0-1-1-1-0-0-0-0-24-21-S');
      await p.click('#ed-read');
      await p.click('#ed-two');
      await ready(p);
      await p.waitForSelector('#board .pit.legal[data-pit="f"]');
      assert.equal(await p.getAttribute('html', 'lang'), l, 'the game follows the link\'s language');
      await fits(p, `${l} ${vname}: a game`);
      await p.click('#board .pit.legal[data-pit="f"]');
      await p.waitForSelector('#over:not([hidden])');
      await p.waitForFunction(() => !document.querySelector('.board.animating'));
      await fits(p, `${l} ${vname}: the game's end`);
      await seen(p, `lang-${l}-${vname}-over`);
      noProblems();
    });
  }
}

test('a first visit follows the browser; a choice is kept; ?lang= wins for its page', async () => {
  const p = await player({ locale: 'ru-RU', name: 'ru-first' });
  await p.goto(suite.server.url);
  await ready(p);
  assert.equal(await p.getAttribute('html', 'lang'), 'ru');
  assert.equal(await p.textContent('#create'), 'Создать комнату');
  await switchLang(p, 'kk');
  assert.equal(await p.textContent('#create'), 'Бөлме ашу');
  await p.reload();
  await ready(p);
  assert.equal(await p.getAttribute('html', 'lang'), 'kk', 'the choice is kept');
  // A shared link's language holds in its tab (the pages it leads to), and
  // leaves the choice kept in the browser as it was.
  await p.goto(`${suite.server.url}?lang=fr`);
  await ready(p);
  assert.equal(await p.textContent('#create'), 'Créer le salon');
  await p.goto(suite.server.url);
  await ready(p);
  assert.equal(await p.getAttribute('html', 'lang'), 'fr', 'the tab keeps the link\'s language');
  const other = await p.context().newPage();
  await other.goto(suite.server.url);
  await ready(other);
  assert.equal(await other.getAttribute('html', 'lang'), 'kk', 'a shared link does not change the choice');
  await other.close();
  await p.check('input[name="kind"][value="togyz"]');
  await switchLang(p, 'kk');
  // Togyz Kumalak's own words in Kazakh.
  assert.match(await p.textContent('.rules'), /тұздық/);
  assert.match(await p.textContent('label:has(input[name="side"][value="south"])'), /Ақтар/);
  noProblems();
});

// The server as the protocol speaks it (PROTOCOL.md, "Club events"): one
// connection, its messages waited for by a test with a deadline.
async function wsClient(url) {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + 'ws', ['oware.v1']);
  const queue = [];
  let wake = null;
  ws.on('message', (d) => { queue.push(JSON.parse(d.toString())); if (wake) wake(); });
  await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
  return {
    send: (m) => ws.send(JSON.stringify(m)),
    // The next message that pred accepts (an error throws).
    async until(pred, ms = 10000) {
      const end = Date.now() + ms;
      for (;;) {
        while (queue.length) {
          const m = queue.shift();
          if (m.type === 'error') throw new Error(`error ${JSON.stringify(m)}`);
          if (pred(m)) return m;
        }
        if (Date.now() > end) throw new Error('no such message in time');
        await new Promise((res) => { wake = res; setTimeout(res, end - Date.now()); });
        wake = null;
      }
    },
    close: () => ws.close(),
  };
}

test('a club event\'s page at 360 px in fr, kk and ru, running and over: nothing cut, numbers as the language writes them', async () => {
  const url = suite.server.url;
  const org = await wsClient(url);
  org.send({ type: 'event_create', title: 'Club du jeudi — tournoi de printemps', kind: 'oware', format: 'swiss', rounds: 2, clock: null });
  const w = await org.until((m) => m.type === 'event_welcome');
  const id = w.event;
  // Five players (a bye each round), the longest names the page may meet.
  const names = ['Ana', 'Yaw Mensah-Bonsu', 'Élodie', 'Бауыржан Мұхамедқали', 'Bruno'];
  const tokens = [];
  for (const name of names) {
    const c = await wsClient(url);
    c.send({ type: 'event_join', event: id, name });
    tokens.push((await c.until((m) => m.type === 'event_welcome')).token);
    c.close();
  }
  org.send({ type: 'event_start', event: id, token: w.token });
  let ev = await org.until((m) => m.type === 'event' && m.round === 1);
  const boardsOf = (e, r) => e.schedule.find((x) => x.round === r).boards.filter((b) => b.result !== 'bye');

  // Each language on a phone, as a player: the event running (your side,
  // who starts), then over (your place and points, the standings).
  const pages = {};
  for (const l of ['fr', 'kk', 'ru']) {
    const p = await player({ locale: 'en-US', viewport: PHONE, mobile: true, name: `event-${l}` });
    const entry = boardsOf(ev, 1)[0].white;
    await p.goto(url);
    await p.evaluate(([k, v]) => localStorage.setItem(k, JSON.stringify(v)), [`oware.event.${id}`, { token: tokens[entry], role: 'player', title: 'x' }]);
    await p.goto(`${url}?event=${id}&lang=${l}`);
    await p.waitForSelector('#ev-you-text:not(:empty)');
    await fits(p, `${l}: the event running`);
    await shot(p, `lang-${l}-360-event-running`);
    pages[l] = p;
  }
  // Round 1: a draw with its seeds, a forfeit; round 2: a draw, a win.
  const record = async (round, results) => {
    const boards = boardsOf(ev, round);
    for (const [i, result] of results.entries()) {
      org.send({ type: 'event_result', event: id, token: w.token, round, board: boards[i].board, result, ...(result === 'draw' ? { seeds: [24, 24] } : {}) });
      ev = await org.until((m) => m.type === 'event' && boardsOf(m, round)[i].result === result);
    }
  };
  await record(1, ['draw', 'white_forfeit']);
  ev = ev.round === 2 ? ev : await org.until((m) => m.type === 'event' && m.round === 2);
  await record(2, ['draw', 'black']);
  ev = ev.state === 'over' ? ev : await org.until((m) => m.type === 'event' && m.state === 'over');
  org.close();
  for (const [l, p] of Object.entries(pages)) {
    // The page has the event over (its table was shown, with no points
    // yet, while it ran).
    await p.waitForSelector('#ev-state[data-state="over"]');
    await p.waitForSelector('#ev-table:not([hidden])');
    await p.waitForFunction(() => document.querySelectorAll('#ev-table-body tr').length === 5);
    await fits(p, `${l}: the event over`);
    await shot(p, `lang-${l}-360-event-over`);
    // Half points as the language writes them: "2,5", never "2.5".
    const table = await p.textContent('#ev-table-body');
    assert.match(table, /\d,5/, `${l}: half points`);
    assert.doesNotMatch(table, /\d\.\d/, `${l}: no "2.5"`);
    assert.doesNotMatch(await p.textContent('#ev-you-text'), /\d\.\d|\{\w+\}/, `${l}: your place and points`);
    // The longest row of tie-breaks, shown.
    if (await p.isVisible('#ev-tb-more')) {
      await p.click('#ev-tb-more');
      await fits(p, `${l}: every tie-break shown`);
      await shot(p, `lang-${l}-360-event-tiebreaks`);
    }
  }
  // No key, and no placeholder, shows raw on any of them.
  for (const [l, p] of Object.entries(pages)) {
    assert.doesNotMatch(await p.textContent('main'), /\{\w+\}|\bevent\.[a-z_.]+\b/, l);
  }
  noProblems();
});
