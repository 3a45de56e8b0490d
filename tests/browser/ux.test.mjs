// ux.test.mjs: what a new user stumbled on (issue 12): a saved local game
// is not discarded without asking, copying works on plain HTTP and says so
// beside its button, marks never hide a count nor leave the board, review
// keeps the board and its buttons in view, touch previews before it plays,
// and every screen has a level-one heading that takes the focus.
// Run: make test-browser (needs build/owared, web/engine.wasm, tests/node_modules).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, Game } from '../../web/engine.js';
import { root, launchBrowser, ready, readBoard, waitMoves, shot, rng, browserSuite, switchLang } from './lib.mjs';

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));

// A host name that resolves to the loopback but, unlike 127.0.0.1 or
// localhost, is not a potentially trustworthy origin: its pages are not a
// secure context and have no navigator.clipboard, as on a LAN address.
const LAN_HOST = 'oware-lan.test';

const suite = browserSuite();
const { player, noProblems } = suite;
let lanBrowser, decoder;

before(async () => {
  await suite.ready;
  lanBrowser = await launchBrowser([`--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`]);
  decoder = await (await suite.browser.newContext()).newPage();
});

after(async () => {
  if (lanBrowser) await lanBrowser.close();
});

const PHONE = { viewport: { width: 390, height: 844 }, mobile: true };

// Opens the local game holding moves (ai: null for two players, else the
// computer's level and side). When the computer is to move after them, its
// reply is waited for too: the page shows the moves alone only until then.
async function localGame(page, moves, ai = null, base = suite.server.url) {
  await page.goto(base);
  await ready(page);
  await page.evaluate((saved) => localStorage.setItem('oware.local', JSON.stringify(saved)), { moves, ai });
  await page.goto(`${base}?local=1`);
  await ready(page);
  const toMove = moves.length % 2 === 0 ? 'south' : 'north';
  await waitMoves(page, moves.length + (ai && ai.side === toMove ? 1 : 0));
}

async function createRoom(page, side, base = suite.server.url) {
  await page.goto(base);
  await ready(page);
  await page.check(`input[name="side"][value="${side}"]`);
  await page.click('#create');
  await page.waitForSelector('#share:not([hidden])');
  return page.inputValue('#share-link');
}

async function join(page, link) {
  await page.goto(link);
  await ready(page);
  await page.waitForFunction(() => !!document.body.dataset.seat && document.querySelector('#game').classList.contains('has-state'));
}

// A whole game of random moves, the same for a seed.
function finishedGame(seed) {
  const rand = rng(seed);
  const g = Game.start();
  while (!g.over) {
    const legal = g.legal();
    g.play(legal[Math.floor(rand() * legal.length)]);
  }
  return g;
}

// Random moves up to the first capture of at least two pits (so the last
// move marks an origin, sown pits, a landing pit and captured pits).
function gameToCapture(seed) {
  const rand = rng(seed);
  for (;;) {
    const g = Game.start();
    while (!g.over && g.moves.length < 60) {
      const legal = g.legal();
      g.play(legal[Math.floor(rand() * legal.length)]);
      const last = g.history.at(-1);
      if (last.captured.length >= 2 && !last.grand_slam) return g;
    }
  }
}

// The pixels of an element's box: {w, h, data: [r, g, b, a, …]}.
async function pixels(locator) {
  const png = await locator.screenshot({ animations: 'disabled' });
  return decoder.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bmp.width, bmp.height);
    const g = canvas.getContext('2d');
    g.drawImage(bmp, 0, 0);
    return { w: bmp.width, h: bmp.height, data: Array.from(g.getImageData(0, 0, bmp.width, bmp.height).data) };
  }, png.toString('base64'));
}

const luma = (d, i) => 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];

// The rectangle of a page's elements as the viewport has them.
const rectOf = (page, sel) => page.$eval(sel, (e) => {
  const r = e.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
});

const intersects = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// ---- 4. a new local game does not silently discard the saved one ----------

test('starting a new local game asks before it discards the saved one', async () => {
  for (const [locale, opts, tag] of [['en-US', {}, 'en'], ['es-ES', PHONE, 'phone-es']]) {
    const p = await player({ locale, ...opts, name: `replace-${tag}` });
    const moves = ['c', 'F', 'd'];
    await localGame(p, moves, { level: 'easy', side: 'north' });
    // Back to the start page: the unfinished game can be resumed.
    await p.click('#act-home');
    await ready(p);
    await p.waitForSelector('#local-resume:not([hidden])');
    const saved = await p.evaluate(() => localStorage.getItem('oware.local'));

    // "Two players" asks first; Cancel keeps the game and stays here.
    await p.click('#local-play');
    await p.waitForSelector('#confirm[open]');
    const text = await p.textContent('#confirm-text');
    assert.equal(text, tag === 'en'
      ? 'The game on this device is not finished. Start a new one? The game in progress will be lost.'
      : 'La partida en este dispositivo no ha terminado. ¿Empezar otra? La que está en curso se perderá.');
    await shot(p, `ux-local-replace-${tag}`);
    await p.click('#confirm button[value="cancel"]');
    await p.waitForSelector('#confirm', { state: 'hidden' });
    assert.equal(await p.evaluate(() => window.location.search), '');
    assert.equal(await p.evaluate(() => localStorage.getItem('oware.local')), saved, 'the saved game is kept');
    assert.equal(await p.isVisible('#local-resume'), true);

    // "Play the computer" asks too.
    await p.click('#ai-play');
    await p.waitForSelector('#confirm[open]');
    await p.click('#confirm button[value="cancel"]');
    await p.waitForSelector('#confirm', { state: 'hidden' });
    assert.equal(await p.evaluate(() => localStorage.getItem('oware.local')), saved, 'the saved game is kept');

    // Confirmed: a new two-player game with no move.
    await p.click('#local-play');
    await p.waitForSelector('#confirm[open]');
    await p.click('#confirm-ok');
    await p.waitForURL(/\?local=1$/);
    await ready(p);
    await waitMoves(p, 0);
    assert.deepEqual(JSON.parse(await p.evaluate(() => localStorage.getItem('oware.local'))).moves, []);
    assert.equal(await p.textContent('#player-top .player-name'), tag === 'en' ? 'North' : 'Norte', 'two players, no computer');
  }
  // Nothing to lose (no moves yet, or a finished game): no question.
  const q = await player({ locale: 'en-US', name: 'replace-none' });
  await localGame(q, finishedGame(3).moves);
  await q.click('#act-home');
  await ready(q);
  await q.click('#local-play');
  await q.waitForURL(/\?local=1$/);
  await ready(q);
  await waitMoves(q, 0);
  noProblems();
});

// ---- 6. copying on plain HTTP, with the clipboard refused, by hand --------

// Where the clipboard holds text: read from a secure page of the same browser.
async function clipboardOf(b) {
  const ctx = await b.newContext();
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const p = await ctx.newPage();
  await p.goto(suite.server.url);
  const text = await p.evaluate(() => navigator.clipboard.readText());
  await ctx.close();
  return text;
}

// After a copy: no toast lies over a button.
async function toastCoversNothing(page, label) {
  const hits = await page.evaluate(() => {
    const toast = document.querySelector('#toast');
    if (toast.hidden) return [];
    const t = toast.getBoundingClientRect();
    return [...document.querySelectorAll('button, a.button, input, textarea')].filter((b) => {
      const r = b.getBoundingClientRect();
      return r.width && r.height && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
    }).map((b) => b.id || b.textContent);
  });
  assert.deepEqual(hits, [], `${label}: the toast covers ${hits.join(', ')}`);
}

test('copying the room link and the record on a secure page (127.0.0.1)', async () => {
  const p = await player({ locale: 'en-US', name: 'copy-secure' });
  const link = await createRoom(p, 'south');
  assert.equal(await p.evaluate(() => window.isSecureContext), true);
  await p.click('#share-copy');
  await p.waitForFunction(() => document.querySelector('#share-note').textContent === 'Link copied');
  assert.equal(await p.evaluate(() => navigator.clipboard.readText()), link);
  await toastCoversNothing(p, 'secure copy');
  noProblems();
});

test('copying on plain HTTP (not a secure context) falls back to execCommand', async () => {
  const p = await player({ locale: 'es-ES', name: 'copy-lan' }, lanBrowser);
  const base = suite.server.url.replace('127.0.0.1', LAN_HOST);
  const link = await createRoom(p, 'south', base);
  assert.ok(link.startsWith(`http://${LAN_HOST}:`), link);
  assert.deepEqual(await p.evaluate(() => [window.isSecureContext, typeof navigator.clipboard]), [false, 'undefined']);
  await p.click('#share-copy');
  await p.waitForFunction(() => document.querySelector('#share-note').textContent === 'Enlace copiado');
  assert.equal(await clipboardOf(lanBrowser), link);
  await toastCoversNothing(p, 'LAN copy');
  // The focus is back on the button pressed.
  assert.equal(await p.evaluate(() => document.activeElement.id), 'share-copy');

  // The record of a finished game, likewise.
  const q = await player({ locale: 'en-US', name: 'copy-lan-record' }, lanBrowser);
  const g = finishedGame(8);
  await localGame(q, g.moves, null, base);
  await q.click('#record-copy');
  await q.waitForFunction(() => document.querySelector('#record-note').textContent === 'Record copied');
  const record = await clipboardOf(lanBrowser);
  assert.ok(record.startsWith('[Variant "Oware Abapa"]\n'), record);
  assert.ok(record.includes(`1. ${g.moves[0].toUpperCase()}`), record);
  assert.equal(await q.isVisible('#record-text'), false, 'no box when the copy worked');
  await toastCoversNothing(q, 'LAN record copy');
  noProblems();
});

test('with the clipboard refused, the copy still works', async () => {
  const p = await player({ locale: 'en-US', name: 'copy-denied' });
  await p.goto(suite.server.url);
  const cdp = await p.context().newCDPSession(p);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', {
    permission: { name: 'clipboard-write' }, setting: 'denied', origin: new URL(suite.server.url).origin,
    browserContextId: targetInfo.browserContextId,
  });
  const link = await createRoom(p, 'north');
  const refused = await p.evaluate(() => navigator.clipboard.writeText('x').then(() => 'written', (e) => e.name));
  assert.equal(refused, 'NotAllowedError', 'the clipboard API is refused');
  await p.click('#share-copy');
  await p.waitForFunction(() => document.querySelector('#share-note').textContent === 'Link copied');
  assert.equal(await clipboardOf(suite.browser), link);
  noProblems();
});

test('when no copy works, the text is shown selected beside its button', async () => {
  for (const [locale, opts, tag] of [['en-US', {}, 'en'], ['es-ES', PHONE, 'phone-es']]) {
    const p = await player({ locale, ...opts, name: `copy-none-${tag}` }, lanBrowser);
    // A browser that copies nothing at all.
    await p.addInitScript(() => { document.execCommand = () => false; });
    const base = suite.server.url.replace('127.0.0.1', LAN_HOST);
    const link = await createRoom(p, 'south', base);
    await p.click('#share-copy');
    await p.waitForFunction(() => document.querySelector('#share-note').textContent !== '');
    assert.match(await p.textContent('#share-note'), tag === 'en' ? /^Could not copy\. The text is selected here/ : /^No se pudo copiar\. El texto está seleccionado aquí/);
    const sel = await p.evaluate(() => {
      const e = document.activeElement;
      return { id: e.id, text: e.value.slice(e.selectionStart, e.selectionEnd) };
    });
    assert.deepEqual(sel, { id: 'share-link', text: link }, 'the whole link is selected');
    await toastCoversNothing(p, `${tag} link by hand`);
    await shot(p, `ux-copy-by-hand-link-${tag}`);

    // The record: its text appears in a box under the button, selected, in view.
    const q = await player({ locale, ...opts, name: `copy-none-record-${tag}` }, lanBrowser);
    await q.addInitScript(() => { document.execCommand = () => false; });
    const g = finishedGame(9);
    await localGame(q, g.moves, null, base);
    await q.click('#record-copy');
    await q.waitForSelector('#record-text:not([hidden])');
    const box = await q.evaluate(() => {
      const e = document.activeElement;
      const r = e.getBoundingClientRect();
      return { id: e.id, all: e.selectionStart === 0 && e.selectionEnd === e.value.length, value: e.value, inView: r.top >= 0 && r.bottom <= window.innerHeight + 1 };
    });
    assert.equal(box.id, 'record-text');
    assert.ok(box.all, 'the whole record is selected');
    assert.ok(box.value.includes(`1. ${g.moves[0].toUpperCase()}`), box.value);
    assert.ok(box.inView, 'the box is in view');
    assert.notEqual(await q.textContent('#record-note'), '');
    // The note and the box sit in the flow: they cover no button.
    const note = await rectOf(q, '#record-note');
    const boxRect = await rectOf(q, '#record-text');
    for (const id of ['record-copy', 'act-home', 'act-new']) {
      const r = await rectOf(q, `#${id}`);
      assert.ok(!intersects(note, r) && !intersects(boxRect, r), `${tag}: #${id} is covered`);
    }
    await toastCoversNothing(q, `${tag} record by hand`);
    await shot(q, `ux-copy-by-hand-record-${tag}`);
  }
  noProblems();
});

// ---- 7. marks never hide a count, stay on the board, show the sown pits ----

// Whether the circle {cx, cy, r} lies inside the rounded box (corner radius
// rho) with margin to spare.
function circleInside(c, box, rho, margin) {
  const l = box.left + margin, t = box.top + margin, r = box.right - margin, b = box.bottom - margin;
  const k = Math.max(0, rho - margin);
  if (c.cx - c.r < l || c.cx + c.r > r || c.cy - c.r < t || c.cy + c.r > b) return false;
  // In a corner's square the circle must stay inside the corner's arc.
  const ccx = c.cx < l + k ? l + k : c.cx > r - k ? r - k : null;
  const ccy = c.cy < t + k ? t + k : c.cy > b - k ? b - k : null;
  if (ccx === null || ccy === null) return true;
  return Math.hypot(c.cx - ccx, c.cy - ccy) + c.r <= k;
}

test('marks cover no count, stay inside the board, and the sown pits show', async () => {
  const g = gameToCapture(21);
  const last = g.history.at(-1);
  const views = [
    ['desktop-en', { locale: 'en-US' }],
    ['phone-es', { locale: 'es-ES', ...PHONE }],
    ['small-phone-en', { locale: 'en-US', viewport: { width: 360, height: 740 }, mobile: true }],
  ];
  for (const [tag, opts] of views) {
    const p = await player({ ...opts, name: `marks-${tag}` });
    await localGame(p, g.moves);
    await p.mouse.move(0, 0);
    assert.equal(await p.getAttribute('#board .pit.origin', 'data-pit'), last.pit);
    const taken = await p.$$eval('#board .pit.taken', (els) => els.map((e) => e.dataset.pit).sort());
    assert.deepEqual(taken, [...last.captured].sort());
    await shot(p, `ux-marks-${tag}`);

    // Every pit's ring (the box of its .mark, whichever mark it shows) lies
    // on the wood, clear of the board's rounded edge.
    const board = await rectOf(p, '#board');
    const rho = await p.$eval('#board', (e) => parseFloat(getComputedStyle(e).borderTopLeftRadius));
    const rings = await p.$$eval('#board .pit .mark', (els) => els.map((e) => {
      const r = e.getBoundingClientRect();
      return { pit: e.parentElement.dataset.pit, cx: (r.left + r.right) / 2, cy: (r.top + r.bottom) / 2, r: r.width / 2 };
    }));
    for (const ring of rings) {
      assert.ok(circleInside(ring, board, rho, 2), `${tag}: the ring of ${ring.pit} reaches the board's edge (${JSON.stringify({ ring, board, rho })})`);
    }

    // The rings of the last move leave every pixel of the count badge as it
    // is without them.
    for (const pit of [last.pit, last.sown.at(-1), ...last.captured]) {
      const el = p.locator(`#board .pit[data-pit="${pit}"]`);
      const badge = el.locator('.count');
      const marked = await pixels(badge);
      const classes = await el.evaluate((e) => {
        const had = ['origin', 'landed', 'taken'].filter((c) => e.classList.contains(c));
        e.classList.remove(...had);
        return had;
      });
      assert.ok(classes.length, `${tag}: ${pit} is marked`);
      const bare = await pixels(badge);
      await el.evaluate((e, had) => e.classList.add(...had), classes);
      // The inside of the badge (its rounded ends blend with what is behind).
      let differ = 0;
      for (let y = 4; y < marked.h - 4; y++) {
        for (let x = 4; x < marked.w - 4; x++) {
          const i = (y * marked.w + x) * 4;
          if (Math.abs(marked.data[i] - bare.data[i]) + Math.abs(marked.data[i + 1] - bare.data[i + 1]) + Math.abs(marked.data[i + 2] - bare.data[i + 2]) > 6) differ++;
        }
      }
      assert.equal(differ, 0, `${tag}: the ${classes.join('+')} mark of ${pit} covers ${differ} pixels of its count`);
    }

    // A sown pit (not the landing one) differs at a glance from an unsown
    // one: the ring of its rim changes brightness clearly.
    const sownPit = last.sown.find((q) => q !== last.sown.at(-1) && !last.captured.includes(q));
    const el = p.locator(`#board .pit[data-pit="${sownPit}"]`);
    assert.equal(await el.evaluate((e) => e.classList.contains('sown')), true);
    const sown = await pixels(el);
    await el.evaluate((e) => e.classList.remove('sown'));
    const plain = await pixels(el);
    await el.evaluate((e) => e.classList.add('sown'));
    let rim = 0, bright = 0;
    const c = sown.w / 2;
    for (let y = 0; y < sown.h; y++) {
      for (let x = 0; x < sown.w; x++) {
        const d = Math.hypot(x + 0.5 - c, y + 0.5 - c) / c;
        if (d < 0.8 || d > 0.96) continue;
        const i = (y * sown.w + x) * 4;
        rim++;
        if (luma(sown.data, i) - luma(plain.data, i) >= 20) bright++;
      }
    }
    assert.ok(bright / rim >= 0.6, `${tag}: only ${bright} of ${rim} rim pixels of the sown pit ${sownPit} stand out`);
  }
  noProblems();
});

// ---- 8. review keeps the board and its buttons in view ---------------------

test('review keeps the board and the step buttons in view, and says the position once', async () => {
  const g = finishedGame(5);
  const n = g.moves.length;
  const views = [
    ['desktop-en', { locale: 'en-US', viewport: { width: 1280, height: 800 } }],
    ['phone-es', { locale: 'es-ES', ...PHONE }],
  ];
  for (const [tag, opts] of views) {
    const p = await player({ ...opts, name: `review-${tag}` });
    await localGame(p, g.moves);
    const es = tag.endsWith('es');
    const inView = async (k, how) => {
      const seen = await p.evaluate(() => {
        const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
        return { board: box('#board'), buttons: box('.review-buttons'), pos: box('#review-pos'), vh: window.innerHeight, vw: window.innerWidth, text: document.body.innerText };
      });
      for (const part of ['board', 'buttons', 'pos']) {
        const r = seen[part];
        assert.ok(r.top >= 0 && r.bottom <= seen.vh && r.left >= 0 && r.right <= seen.vw,
          `${tag} at ${k} (${how}): the ${part} is out of view: ${JSON.stringify(r)} in ${seen.vw}x${seen.vh}`);
      }
      const said = k === 0 ? (es ? 'Posición inicial' : 'Starting position')
        : es ? `Posición tras la jugada ${k} de ${n}` : `Position after move ${k} of ${n}`;
      assert.equal(seen.text.split(said).length - 1, 1, `${tag} at ${k}: "${said}" is said once`);
      assert.equal(await p.textContent('#review-pos'), said);
    };
    // The player brings the step buttons into view, then steps.
    await p.locator('#rv-first').scrollIntoViewIfNeeded();
    const press = (sel) => (opts.mobile ? p.tap(sel) : p.click(sel));
    await press('#rv-first');
    await inView(0, 'first');
    for (let k = 1; k <= 6; k++) {
      await press('#rv-next');
      await inView(k, 'next');
      if (k === 3) await shot(p, `ux-review-${tag}`);
    }
    await p.keyboard.press('ArrowRight');
    await inView(7, 'ArrowRight');
    await press('#rv-prev');
    await inView(6, 'previous');
    await press('#rv-last');
    await inView(n, 'last');
  }
  noProblems();
});

// ---- 9. touch: tap once to preview, tap again to play ----------------------

test('on a touch screen a tap previews, a second tap on the same pit plays', async () => {
  const p = await player({ locale: 'en-US', ...PHONE, name: 'touch-en' });
  await localGame(p, []);
  // On by default on a touch screen; the setting is shown under the buttons.
  assert.equal(await p.evaluate(() => matchMedia('(pointer: coarse)').matches), true);
  await p.waitForSelector('#tap-option:not([hidden])');
  assert.equal(await p.isChecked('#opt-tap'), true);
  assert.equal(await p.textContent('#tap-option'), ' Tap once to preview, tap again to play');
  const game = Game.start();
  const landing = (m) => game.preview(m).move.sown.at(-1);

  await p.tap('#board .pit[data-pit="c"]');
  await p.waitForSelector(`#board .pit.pv-land[data-pit="${landing('c')}"]`);
  assert.equal(await p.textContent('#note'), `The last seed lands in ${landing('c')}.`);
  assert.equal((await readBoard(p)).moves, 0, 'a first tap plays nothing');
  const armed = () => p.$$eval('#board .pit.armed', (els) => els.map((e) => e.dataset.pit).join());
  assert.equal(await armed(), 'c', 'the pit tapped is marked');
  await shot(p, 'ux-touch-preview-phone-en');

  // A tap elsewhere moves the preview.
  await p.tap('#board .pit[data-pit="f"]');
  await p.waitForSelector(`#board .pit.pv-land[data-pit="${landing('f')}"]`);
  assert.equal(await p.$$eval('#board .pit.pv-origin', (els) => els.map((e) => e.dataset.pit).join()), 'f');
  assert.equal(await armed(), 'f');
  assert.equal((await readBoard(p)).moves, 0);
  // The second tap on it plays.
  await p.tap('#board .pit[data-pit="f"]');
  game.play('f');
  await waitMoves(p, 1);
  assert.deepEqual((await readBoard(p)).pits, game.state().pits);
  assert.equal(await armed(), '');
  // North's pit: two taps again.
  await p.tap('#board .pit[data-pit="B"]');
  await p.waitForSelector('#board .pit.pv-origin[data-pit="B"]');
  assert.equal((await readBoard(p)).moves, 1);
  await p.tap('#board .pit[data-pit="B"]');
  game.play('B');
  await waitMoves(p, 2);

  // Turned off, a tap plays at once; the choice is remembered.
  await p.tap('#opt-tap');
  assert.equal(await p.isChecked('#opt-tap'), false);
  await p.tap('#board .pit[data-pit="a"]');
  game.play('a');
  await waitMoves(p, 3);
  await p.reload();
  await ready(p);
  await waitMoves(p, 3);
  assert.equal(await p.isChecked('#opt-tap'), false);
  await p.tap('#board .pit[data-pit="A"]');
  game.play('A');
  await waitMoves(p, 4);
  assert.deepEqual((await readBoard(p)).pits, game.state().pits);

  // Spanish, and online: the same two taps.
  const s = await player({ locale: 'es-ES', ...PHONE, name: 'touch-es' });
  const n = await player({ locale: 'en-US', ...PHONE, name: 'touch-north' });
  const link = await createRoom(s, 'south');
  await join(n, link);
  await s.waitForSelector('#board .pit.legal');
  assert.equal(await s.textContent('#tap-option'), ' Un toque para ver la jugada, otro para jugarla');
  await s.tap('#board .pit[data-pit="d"]');
  await s.waitForSelector('#board .pit.pv-origin[data-pit="d"]');
  assert.match(await s.textContent('#note'), /La última semilla cae en/);
  await shot(s, 'ux-touch-preview-phone-es');
  assert.equal((await readBoard(s)).moves, 0);
  await s.tap('#board .pit[data-pit="d"]');
  await waitMoves(s, 1);
  await waitMoves(n, 1);
  // The spectator has nothing to tap: no setting shown.
  const w = await player({ locale: 'en-US', ...PHONE, name: 'touch-watch' });
  await join(w, link);
  assert.equal(await w.isHidden('#tap-option'), true);
  noProblems();
});

test('a mouse click plays at once, and a screen without touch shows no setting', async () => {
  const p = await player({ locale: 'en-US', name: 'mouse' });
  await localGame(p, []);
  assert.equal(await p.isHidden('#tap-option'), true);
  await p.click('#board .pit[data-pit="c"]');
  await waitMoves(p, 1);
  noProblems();
});

// ---- 11. headings, pit labels, focus ----------------------------------------

// The level-one headings in the accessibility tree.
async function h1s(page) {
  const hs = page.getByRole('heading', { level: 1 });
  return hs.allTextContents();
}

test('every screen has one level-one heading, and it takes the focus', async () => {
  const p = await player({ locale: 'en-US', name: 'a11y-en' });
  await p.goto(suite.server.url);
  await ready(p);
  assert.deepEqual(await h1s(p), ['Oware Abapa for two, on this screen or in a private room']);
  assert.equal(await p.isVisible('#start-title'), true, 'the start page\'s heading is visible');
  // The start page's heading has the focus.
  assert.equal(await p.evaluate(() => document.activeElement.id), 'start-title');
  // Start page -> a room, without a reload: the focus goes to the new heading.
  await p.check('input[name="side"][value="south"]');
  await p.click('#create');
  await p.waitForSelector('#share:not([hidden])');
  assert.deepEqual(await h1s(p), ['Online game']);
  assert.equal(await p.evaluate(() => document.activeElement.id), 'game-title');
  const link = await p.inputValue('#share-link');
  const snap = await p.locator('body').ariaSnapshot();
  assert.match(snap, /heading "Online game" \[level=1\]/);

  // Pit labels say whose pit it is, from each viewpoint.
  const n = await player({ locale: 'es-ES', name: 'a11y-es' });
  await join(n, link);
  const w = await player({ locale: 'en-US', name: 'a11y-watch' });
  await join(w, link);
  await p.waitForSelector('#board .pit.legal');
  const label = (page, pit) => page.getAttribute(`#board .pit[data-pit="${pit}"]`, 'aria-label');
  assert.equal(await label(p, 'a'), 'a: 4 seeds, your pit. Press to sow.');
  assert.equal(await label(p, 'A'), 'A: 4 seeds, North\'s pit');
  assert.equal(await label(n, 'A'), 'A: 4 semillas, tu hoyo');
  assert.equal(await label(n, 'a'), 'a: 4 semillas, hoyo del Sur');
  assert.equal(await label(w, 'a'), 'a: 4 seeds, South\'s pit');
  assert.equal(await label(w, 'A'), 'A: 4 seeds, North\'s pit');
  assert.ok(await p.getByRole('button', { name: 'c: 4 seeds, your pit. Press to sow.' }).isVisible());
  assert.deepEqual(await h1s(n), ['Partida en línea']);
  assert.deepEqual(await h1s(w), ['Watching an online game']);
  assert.equal(await w.evaluate(() => document.activeElement.id), 'game-title');
  // One seed: singular.
  await p.click('#board .pit[data-pit="c"]');
  await waitMoves(w, 1);
  await n.click('#board .pit[data-pit="F"]');
  await waitMoves(w, 2);
  assert.equal(await label(w, 'c'), 'c: 1 seed, South\'s pit');
  assert.equal(await label(n, 'c'), 'c: 1 semilla, hoyo del Sur');

  // Local games: two players name both sides; against the computer, "yours".
  const l = await player({ locale: 'en-US', name: 'a11y-local' });
  await localGame(l, []);
  assert.deepEqual(await h1s(l), ['Two players on this device']);
  assert.equal(await l.evaluate(() => document.activeElement.id), 'game-title');
  assert.equal(await label(l, 'a'), 'a: 4 seeds, South\'s pit. Press to sow.');
  assert.equal(await label(l, 'A'), 'A: 4 seeds, North\'s pit');
  const ai = await player({ locale: 'es-ES', name: 'a11y-ai' });
  await localGame(ai, [], { level: 'easy', side: 'south' });
  await ai.waitForSelector('#board .pit.legal');
  assert.deepEqual(await h1s(ai), ['Partida contra la IA']);
  assert.match(await label(ai, 'A'), /^A: \d+ semillas?, tu hoyo\. Pulsa para sembrar\.$/);
  // The heading follows the language switch.
  await switchLang(ai, 'en');
  assert.deepEqual(await h1s(ai), ['Playing the computer']);

  // A room that does not exist still has its heading.
  const gone = await player({ locale: 'en-US', name: 'a11y-noroom' });
  await gone.goto(`${suite.server.url}?room=00000000-0000-4000-8000-000000000000`);
  await ready(gone);
  await gone.waitForFunction(() => /does not exist/.test(document.querySelector('#conn').textContent));
  assert.deepEqual(await h1s(gone), ['Online game']);
  // The engine failing to load leaves the loading screen, with a heading.
  const broken = await player({ locale: 'en-US', name: 'a11y-broken' });
  await broken.route('**/engine.wasm', (r) => r.abort());
  await broken.goto(suite.server.url);
  await broken.waitForFunction(() => /could not be loaded/.test(document.querySelector('#loading').textContent));
  assert.deepEqual(await h1s(broken), ['Oware']);
  broken.problems.length = 0;  // the refused download is the point here
  noProblems();
});
