// languages.test.mjs: the five languages of web/i18n/ in Chromium (issue
// 42): a page opened with ?lang= speaks it, names it in the selector and
// keeps it; the browser's language decides a first visit; and the start
// page, a lesson, a puzzle and a game to its end fit a 360 px phone and a
// 1280 px screen in each language, with no text wider than its box and
// nothing wider than the page. Screenshots: build/screenshots/lang-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ready, shot, browserSuite, switchLang, SHOTS } from './lib.mjs';

const suite = browserSuite();
const { player, noProblems } = suite;

const LANGS = ['en', 'es', 'fr', 'kk', 'ru'];
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// What sticks out: an element shown whose content is wider than its box
// (a clipped or spilling text), or that reaches past the page's sides, and
// the page scrolling sideways. Scrolling lists and visually hidden texts
// are meant to; the start page's board is turned a little on purpose.
// Text only: words do not change a board's shape.
function overflows(page) {
  return page.evaluate(() => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    for (const el of document.querySelectorAll('body *')) {
      if (!el.getClientRects().length || el.closest('.sr-only, .hero, svg, select, option')) continue;
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
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
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
      await p.waitForSelector('#learn-list .learn-lesson');
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
