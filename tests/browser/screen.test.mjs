// screen.test.mjs: where things are on the game screen (issue 28), in
// Chromium against the real server: the result in view when a game ends,
// with its next actions beside it, on a desktop and a phone; each player
// bar on one line at 320, 360 and 390 px with long names, in both games
// and both languages; a rematch that starts with the board in view and
// says who plays which side. Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ready, waitMoves, shot, saveShot, browserSuite, readBoard, switchLang, waitText } from './lib.mjs';

const suite = browserSuite();
const { player, noProblems } = suite;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function createRoom(page, { side = 'south', kind = 'oware', clock = 'none', name = '' } = {}) {
  await page.goto(suite.server.url);
  await ready(page);
  await page.check(`input[name="kind"][value="${kind}"]`);
  await page.check(`input[name="side"][value="${side}"]`);
  await page.check(`input[name="clock"][value="${clock}"]`);
  if (name) await page.fill('#start-name', name);
  await page.click('#create');
  await page.waitForSelector('#share:not([hidden])');
  return page.inputValue('#share-link');
}

async function join(page, link, name = '') {
  await page.goto(link);
  await ready(page);
  await page.waitForFunction(() => !!document.body.dataset.seat);
  if (name) {
    await page.fill('#room-name', name);
    await page.click('#name-save');
  }
}

// Where el is against the viewport now (the page keeps its scroll).
const rect = (page, sel) => page.$eval(sel, (el) => {
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, vh: window.innerHeight, scroll: window.scrollY };
});

// A room of two with two moves played; south in Spanish, north in English.
async function twoPlaying(viewport, mobile) {
  const south = await player({ locale: 'es-ES', viewport, mobile, name: 'south' });
  const north = await player({ locale: 'en-US', viewport, mobile, name: 'north' });
  const link = await createRoom(south);
  await join(north, link);
  await south.waitForSelector('#share', { state: 'hidden' });
  await south.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(north, 1);
  await north.click('#board .pit.legal[data-pit="A"]');
  await waitMoves(south, 2);
  return { south, north };
}

// The result's card and the next action both start inside the viewport.
async function resultInView(page, action, label) {
  await page.waitForSelector('#over:not([hidden])');
  await page.waitForSelector(`${action}:not([hidden])`);
  const over = await rect(page, '#over');
  assert.ok(over.top >= 0 && over.top < over.vh, `${label}: the result's card starts in view (${JSON.stringify(over)})`);
  const act = await rect(page, action);
  assert.ok(act.top >= 0 && act.bottom <= act.vh, `${label}: ${action} in view (${JSON.stringify(act)})`);
}

test('a resignation on a desktop: the result and Rematch in view for both players', async () => {
  const { south, north } = await twoPlaying(DESKTOP, false);
  await north.click('#act-resign');
  await north.click('#confirm-ok');
  await resultInView(north, '#act-rematch', 'desktop, the one who resigned');
  await resultInView(south, '#act-rematch', 'desktop, the winner');
  await shot(north, 'screen-over-desktop-en');
  await shot(south, 'screen-over-desktop-es');
  noProblems();
});

// Issue 43, minors 1 and 2: with a clock and a spectator the page above
// the result is at its tallest; Rematch and Analyse stay beside the result
// at 800 px, and Analyse brings the analysis in view, started, in one click.
test('a resignation at 800 px with a clock and a spectator: Rematch and Analyse beside the result; Analyse opens the analysis', async () => {
  for (const [viewport, mobile, tag] of [[DESKTOP, false, 'desktop'], [{ width: 360, height: 740 }, true, 'phone']]) {
    const south = await player({ locale: 'es-ES', viewport, mobile, name: `south-${tag}` });
    const north = await player({ locale: 'en-US', viewport, mobile, name: `north-${tag}` });
    const watcher = await player({ locale: 'en-US', viewport, mobile, name: `watcher-${tag}` });
    const link = await createRoom(south, { clock: '3+2', name: 'Ana' });
    await join(north, link, 'Bruno');
    await south.waitForSelector('#share', { state: 'hidden' });
    await join(watcher, link);
    await south.waitForSelector('#watchers:not([hidden])');
    await north.waitForSelector('#watchers:not([hidden])');
    // As players are during a game: at the top of the page (saving a name
    // in the chat scrolled down), and the page does not scroll at the end.
    for (const p of [south, north]) await p.evaluate(() => window.scrollTo(0, 0));
    await south.click('#board .pit.legal[data-pit="c"]');
    await waitMoves(north, 1);
    await north.click('#board .pit.legal[data-pit="A"]');
    await waitMoves(south, 2);
    await north.click('#act-resign');
    await north.click('#confirm-ok');
    for (const [p, who] of [[north, 'the one who resigned'], [south, 'the winner']]) {
      await resultInView(p, '#act-rematch', `${tag}, ${who}`);
      await resultInView(p, '#act-analyse', `${tag}, ${who}`);
      assert.ok(await p.isVisible('#clock-line') || await p.isVisible('.player-clock'), `${tag}: the clock is shown`);
      // Beside the result: Rematch and Analyse no further than 1.5 lines
      // below the result's card, and on one line.
      const over = await rect(p, '#over');
      assert.equal(over.scroll, 0, `${tag}, ${who}: the page was not scrolled`);
      const rm = await rect(p, '#act-rematch');
      const an = await rect(p, '#act-analyse');
      assert.ok(rm.top - over.bottom < 60, `${tag}, ${who}: Rematch right under the result (${rm.top - over.bottom} px)`);
      assert.equal(Math.round(an.top), Math.round(rm.top), `${tag}, ${who}: Analyse beside Rematch`);
    }
    await shot(north, `screen-over-clock-${tag}-en`);
    await shot(south, `screen-over-clock-${tag}-es`);
    assert.equal(await watcher.isHidden('#act-rematch'), true);
    assert.equal(await north.textContent('#act-analyse'), 'Analyse');
    assert.equal(await south.textContent('#act-analyse'), 'Analizar');
    // One click: the analysis card in view, running (or done), with the focus.
    await south.click('#act-analyse');
    await south.waitForFunction(() => !document.querySelector('#an-stop').hidden || !document.querySelector('#an-result').hidden);
    const card = await rect(south, '#analysis');
    assert.ok(card.top >= 0 && card.top < card.vh / 2, `${tag}: the analysis card in view (${JSON.stringify(card)})`);
    assert.equal(await south.evaluate(() => document.activeElement.id), 'an-title');
    await south.waitForSelector('#an-result:not([hidden])');
    await shot(south, `screen-analyse-${tag}-es`);
    for (const p of [south, north, watcher]) await p.context().close();
  }
  noProblems();
});

test('a draw agreed on a phone: the result and Rematch in view; a rematch starts with the board in view and says the sides', async () => {
  const { south, north } = await twoPlaying(PHONE, true);
  await north.click('#act-draw');
  await south.waitForSelector('#offer[data-kind="draw"]:not([hidden])');
  await south.click('#offer-accept');
  await resultInView(north, '#act-rematch', 'phone, the one who offered');
  await resultInView(south, '#act-rematch', 'phone, the one who accepted');
  await shot(north, 'screen-over-phone-en');
  await shot(south, 'screen-over-phone-es');

  // South looked down the page (the moves, the analysis) before the
  // rematch, North scrolled a little (issue 43, minor 13: 32 px).
  await south.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await north.evaluate(() => window.scrollTo(0, 32));
  await south.click('#act-rematch');
  await north.waitForSelector('#offer[data-kind="rematch"]:not([hidden])');
  await north.click('#offer-accept');
  for (const p of [south, north]) await p.waitForSelector('#over', { state: 'hidden' });
  for (const [p, label] of [[south, 'south'], [north, 'north']]) {
    const top = await rect(p, '#player-top');
    const board = await rect(p, '#board');
    assert.ok(top.top >= 0, `${label}: the top player's bar in view after the rematch (${JSON.stringify(top)})`);
    assert.ok(board.bottom <= board.vh, `${label}: the whole board in view after the rematch (${JSON.stringify(board)})`);
    assert.equal(board.scroll, 0, `${label}: the page at its top, the logo whole`);
  }
  // The sides swapped: one line says so, in each player's language.
  assert.equal(await south.textContent('#note'), 'Nueva partida: ahora eres Norte.');
  assert.equal(await north.textContent('#note'), 'New game: you play South now.');
  await shot(north, 'screen-rematch-phone-en');
  await shot(south, 'screen-rematch-phone-es');
  // It goes with the first move.
  await north.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(south, 1);
  assert.notEqual(await south.textContent('#note'), 'Nueva partida: ahora eres Norte.');
  noProblems();
});

// Each visible part of a player bar: its box.
const barParts = (page, sel) => page.$eval(sel, (bar) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height }; };
  const parts = [...bar.children].filter((el) => el.getClientRects().length && getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 1)
    .map((el) => ({ cls: el.className, text: el.textContent, ...box(el) }));
  return { bar: box(bar), parts, width: document.documentElement.clientWidth, line: parseFloat(getComputedStyle(bar).lineHeight) || 24 };
});

// Each bar on one line: no part taller than a line and a half (no wrap),
// the parts side by side without overlapping, all inside the bar and the
// bar inside the page.
async function barsOnOneLine(page, label) {
  for (const sel of ['#player-top', '#player-bottom']) {
    const { bar, parts, width } = await barParts(page, sel);
    const where = `${label} ${sel}`;
    assert.ok(bar.right <= width + 0.5, `${where}: the bar inside the page (${bar.right} > ${width})`);
    const tallest = Math.max(...parts.map((p) => p.height));
    assert.ok(bar.height <= 56, `${where}: the bar is one line high (${bar.height} px): ${JSON.stringify(parts)}`);
    for (const p of parts) {
      assert.ok(p.height <= tallest && p.height <= 40, `${where}: "${p.text}" on one line (${p.height} px)`);
      assert.ok(p.left >= bar.left - 0.5 && p.right <= bar.right + 0.5, `${where}: "${p.text}" inside the bar`);
    }
    for (let i = 1; i < parts.length; i++) {
      assert.ok(parts[i].left >= parts[i - 1].right - 0.5,
        `${where}: "${parts[i].text}" does not overlap "${parts[i - 1].text}" (${parts[i].left} < ${parts[i - 1].right})`);
    }
  }
}

for (const [kind, clock] of [['oware', '10+5'], ['togyz', 'days:3']]) {
  test(`${kind}: player bars on one line at 320, 360 and 390 px with long names, in both languages`, async () => {
    const south = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'south' });
    const north = await player({ locale: 'en-US', viewport: PHONE, mobile: true, name: 'north' });
    const link = await createRoom(south, { kind, clock, name: 'Aigerim Nurlanovna Bolat' });
    await join(north, link, 'Bolat Kassymzhomartuly');
    await south.waitForSelector('#share', { state: 'hidden' });
    await south.waitForFunction(() => /Kassymzhomartuly/.test(document.querySelector('#player-top .player-name').textContent));
    await north.waitForFunction(() => /Nurlanovna/.test(document.querySelector('#player-top .player-name').textContent));
    // One move each, so that both clocks have run.
    await south.click('#board .pit.legal');
    await waitMoves(north, 1);
    await north.click('#board .pit.legal');
    await waitMoves(south, 2);
    for (const width of [320, 360, 390]) {
      for (const [p, lang] of [[south, 'es'], [north, 'en']]) {
        await p.setViewportSize({ width, height: 740 });
        await barsOnOneLine(p, `${kind} ${lang} ${width} px`);
        if (width !== 360) await shot(p, `screen-bars-${kind}-${width}-${lang}`);
      }
    }
    // "(you)" stays whole beside a name cut short.
    for (const [p, you] of [[south, '(tú)'], [north, '(you)']]) {
      const mark = await p.$eval('#player-bottom .player-you', (el) => ({ text: el.textContent, width: el.getBoundingClientRect().width, whole: el.scrollWidth <= el.clientWidth }));
      assert.equal(mark.text, you);
      assert.ok(mark.width > 10 && mark.whole, `${you} shown whole`);
    }
    // The whole name is there for whoever asks: the name, focused, and its title.
    const name = await north.$eval('#player-top .player-name', (el) => ({ title: el.title, tab: el.tabIndex, text: el.textContent }));
    assert.equal(name.title, name.text);
    assert.equal(name.tab, 0);
    assert.match(name.text, /^Aigerim Nurlanovna Bolat/);
    noProblems();
  });
}

test('a game against the computer: both bars on one line at 320 px, in both games and languages', async () => {
  for (const [kind, locale] of [['togyz', 'es-ES'], ['oware', 'en-US'], ['togyz', 'en-US'], ['oware', 'es-ES']]) {
    const p = await player({ locale, viewport: { width: 320, height: 640 }, mobile: true, name: `${kind}-${locale}` });
    await p.goto(suite.server.url);
    await ready(p);
    await p.check(`input[name="kind"][value="${kind}"]`);
    await p.check('input[name="ai-level"][value="medium"]');
    await p.click('#ai-play');
    await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
    await barsOnOneLine(p, `${kind} ${locale} computer 320 px`);
    await p.context().close();
  }
  noProblems();
});

// Issue 28, minor 12 and 13: the Spanish words, and Togyz's own side in
// the custom clock.
test('the custom clock names the game\'s own side; Spanish names sides with their article and pits as "hoyo"', async () => {
  const es = await player({ locale: 'es-ES', name: 'words-es' });
  const en = await player({ locale: 'en-US', name: 'words-en' });
  for (const p of [es, en]) {
    await p.goto(suite.server.url);
    await ready(p);
    await p.check('input[name="clock"][value="custom"]');
  }
  const odds = (p) => p.textContent('label:has(#clock-odds) span');
  assert.equal(await odds(es), 'Minutos del Norte (ventaja de tiempo; vacío: los mismos)');
  assert.equal(await odds(en), "North's minutes (time odds; empty: the same)");
  for (const p of [es, en]) await p.check('input[name="kind"][value="togyz"]');
  assert.equal(await odds(es), 'Minutos de las Negras (ventaja de tiempo; vacío: los mismos)');
  assert.equal(await odds(en), "Black's minutes (time odds; empty: the same)");
  await es.check('input[name="kind"][value="oware"]');
  assert.match(await es.textContent('.rules'), /Empieza el Sur\./);
  // The board editor comes with its card, when first opened.
  await es.click('#editor summary');
  assert.equal(await es.getAttribute('#ed-row-south input', 'aria-label'), 'Semillas del hoyo a');
  await es.click('#local-play');
  await es.waitForSelector('#game:not([hidden]) #board .pit.legal');
  assert.equal(await es.textContent('#status'), 'Turno del Sur: elige un hoyo de tu fila');
  noProblems();
});

// Issue 28, minor 7: the chat field holds what the server takes, counts
// it, and a line refused for coming too fast stays in the field.
test('the chat field stops at 300 characters with a counter, and keeps a line the rate limit refused', async () => {
  const south = await player({ locale: 'en-US', name: 'chat-south' });
  const north = await player({ locale: 'es-ES', name: 'chat-north' });
  await join(north, await createRoom(south));
  await south.waitForSelector('#share', { state: 'hidden' });
  await south.focus('#chat-input');
  await south.keyboard.insertText('x'.repeat(1200));
  assert.equal((await south.inputValue('#chat-input')).length, 300);
  assert.equal(await south.textContent('#chat-count'), '300/300 characters');
  await south.fill('#chat-input', 'short');
  assert.equal(await south.isHidden('#chat-count'), true, 'no counter for a short line');
  await south.fill('#chat-input', '');
  // At most 5 lines in 10 seconds: the sixth is refused and comes back.
  for (let i = 1; i <= 6; i++) {
    await south.fill('#chat-input', `line ${i}`);
    await south.click('#chat-send');
    await south.waitForFunction(() => document.querySelector('#chat-input').value === '' || /line/.test(document.querySelector('#chat-input').value));
  }
  await south.waitForFunction(() => /Too many messages/.test(document.querySelector('#toast').textContent));
  await south.waitForFunction(() => document.querySelector('#chat-input').value === 'line 6');
  await shot(south, 'screen-chat-refused-en');
  noProblems();
});

// Issue 28, minor 3: the name field holds what the server takes, and what
// is wrong with a name is said at the field, which takes the focus.
test('the name field stops at 24 characters and says at the field what is wrong with a name', async () => {
  const p = await player({ locale: 'en-US', name: 'name-field' });
  await p.goto(suite.server.url);
  await ready(p);
  assert.equal(await p.textContent('label.name-field > span'), 'Your name (optional, up to 24 characters)');
  await p.focus('#start-name');
  await p.keyboard.insertText('n'.repeat(96));
  assert.equal((await p.inputValue('#start-name')).length, 24);
  await p.fill('#start-name', 'North');
  await p.click('#create');
  await p.waitForSelector('#name-error:not([hidden])');
  assert.match(await p.textContent('#name-error'), /cannot be a side's/);
  assert.equal(await p.evaluate(() => document.activeElement.id), 'start-name');
  const gap = await p.evaluate(() => document.querySelector('#name-error').getBoundingClientRect().top - document.querySelector('#start-name').getBoundingClientRect().bottom);
  assert.ok(gap >= 0 && gap < 40, `the note right under the field (${gap} px)`);
  assert.equal(await p.evaluate(() => location.search), '');
  await shot(p, 'screen-name-field-en');
  await p.fill('#start-name', 'Nora');
  assert.equal(await p.isHidden('#name-error'), true, 'gone once the name is edited');
  noProblems();
});

// Issue 43, minor 14: a name the page lets through and the server refuses
// (Cyrillic look-alikes of "South") is said under the name field, which
// takes the focus, and is not remembered.
test('a name the server refuses: said under the name field with the focus, and not kept', async () => {
  for (const [locale, lang] of [['en-US', 'en'], ['es-ES', 'es']]) {
    for (const [viewport, mobile, tag] of [[DESKTOP, false, 'desktop'], [{ width: 360, height: 740 }, true, 'phone']]) {
      const p = await player({ locale, viewport, mobile, name: `refused-${lang}-${tag}` });
      await p.goto(suite.server.url);
      await ready(p);
      await p.fill('#start-name', 'Ana');
      await p.click('#create');   // a good name is remembered
      await p.waitForSelector('#share:not([hidden])');
      await p.goto(suite.server.url);
      await ready(p);
      assert.equal(await p.inputValue('#start-name'), 'Ana');
      await p.fill('#start-name', '\u0405\u043euth');
      await p.click('#create');
      await p.waitForSelector('#name-error:not([hidden])');
      assert.equal(await p.textContent('#name-error'), lang === 'en'
        ? "A name has 1 to 24 characters, some visible, and cannot be a side's (South, North, White, Black…)."
        : (await p.evaluate(async () => (await (await fetch('i18n/es.json')).json())['name.bad'])));
      assert.equal(await p.isHidden('#create-error'), true, 'nothing under the create button');
      assert.equal(await p.evaluate(() => document.activeElement.id), 'start-name');
      assert.equal(await p.inputValue('#start-name'), '\u0405\u043euth', 'the name refused is shown to be edited');
      const gap = await p.evaluate(() => document.querySelector('#name-error').getBoundingClientRect().top - document.querySelector('#start-name').getBoundingClientRect().bottom);
      assert.ok(gap >= 0 && gap < 40, `the note right under the field (${gap} px)`);
      const r = await rect(p, '#name-error');
      assert.ok(r.top >= 0 && r.bottom <= r.vh + 1, `${lang} ${tag}: the note in view (${JSON.stringify(r)})`);
      assert.equal(await p.evaluate(() => localStorage.getItem('oware.name')), null, 'not remembered');
      assert.equal(await p.evaluate(() => location.search), '');
      await saveShot(p, `screen-name-refused-${tag}-${lang}`);
      await p.reload();
      await ready(p);
      assert.equal(await p.inputValue('#start-name'), '', 'nor offered after a reload');
      await p.context().close();
    }
  }
  noProblems();
});

// Issue 28, minor 14: when a game ends, nothing one can press appears
// where the last tap was (the draw offered, the draw accepted, Resign
// confirmed in its dialog: the button that opened it).
test('a game that ends puts no button where the last tap was, on a phone and a desktop', async () => {
  const under = (page, at) => page.evaluate(({ x, y }) => {
    const el = document.elementFromPoint(x, y);
    const hit = el && el.closest('button, a, input, label, select, textarea, summary');
    return hit ? (hit.id || hit.textContent.trim()) : null;
  }, at);
  const centre = (page, sel) => page.$eval(sel, (el) => { const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
  for (const [viewport, mobile, tag] of [[PHONE, true, 'phone'], [DESKTOP, false, 'desktop']]) {
    const { south, north } = await twoPlaying(viewport, mobile);
    const offered = await centre(north, '#act-draw');
    await north.click('#act-draw');
    await south.waitForSelector('#offer[data-kind="draw"]:not([hidden])');
    const accepted = await centre(south, '#offer-accept');
    await south.click('#offer-accept');
    for (const p of [south, north]) await p.waitForSelector('#over:not([hidden])');
    assert.equal(await under(north, offered), null, `${tag}: where North offered the draw`);
    assert.equal(await under(south, accepted), null, `${tag}: where South accepted it`);
    await south.click('#act-rematch');
    await north.click('#offer-accept');
    await north.waitForSelector('#over', { state: 'hidden' });
    await north.click('#board .pit.legal[data-pit="c"]');
    await waitMoves(south, 1);
    await south.click('#board .pit.legal[data-pit="A"]');
    await waitMoves(north, 2);
    const resigned = await centre(south, '#act-resign');
    await south.click('#act-resign');
    await south.click('#confirm-ok');
    await south.waitForSelector('#over:not([hidden])');
    assert.equal(await under(south, resigned), null, `${tag}: where South pressed Resign`);
  }
  noProblems();
});

// Issue 28, minor 5: where the players gave names, the page says them.
test('names, where known, in the turn line, a declined draw and the final score', async () => {
  const ana = await player({ locale: 'en-US', name: 'ana' });
  const bruno = await player({ locale: 'es-ES', name: 'bruno' });
  const watcher = await player({ locale: 'en-US', name: 'watcher' });
  const link = await createRoom(ana, { name: 'Ana' });
  await join(bruno, link, 'Bruno');
  await join(watcher, link);
  await watcher.waitForFunction(() => /Bruno/.test(document.querySelector('#player-top').textContent));
  assert.equal(await watcher.textContent('#status'), 'Turn: Ana (South)');
  await waitText(bruno, '#status', 'Turno del rival (Ana)');
  await ana.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(bruno, 1);
  // Bruno may have the move before Ana has the server's answer to it.
  await waitText(ana, '#status', "Opponent's turn (Bruno)");
  await bruno.click('#act-draw');
  await ana.waitForSelector('#offer[data-kind="draw"]:not([hidden])');
  await ana.click('#offer-decline');
  await bruno.waitForSelector('#offer[data-kind="declined"]:not([hidden])');
  assert.equal(await bruno.textContent('#offer-text'), 'Ana ha rechazado el empate.');
  await bruno.click('#board .pit.legal[data-pit="A"]');
  await waitMoves(ana, 2);
  await bruno.click('#act-resign');
  await bruno.click('#confirm-ok');
  for (const p of [ana, bruno, watcher]) await p.waitForSelector('#over:not([hidden])');
  assert.equal(await ana.textContent('#over-score'), 'Final score: Ana 0, Bruno 0');
  assert.equal(await bruno.textContent('#over-score'), 'Puntuación final: Ana 0, Bruno 0');
  await shot(bruno, 'screen-names-over-es');
  noProblems();
});

// Issue 28, minor 10 (its first half): after Enter on a pit, the focus goes
// to where the next move is made: the other side's pits in a game of two
// on this device, one's own again after the computer's move.
test('after a move by keyboard the focus is on a pit the next move can be made with', async () => {
  const p = await player({ locale: 'en-US', name: 'keys' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#local-play');
  await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
  const focused = () => p.evaluate(() => {
    const el = document.activeElement;
    return el && el.classList.contains('pit') ? { pit: el.dataset.pit, side: el.dataset.side, legal: el.classList.contains('legal') } : null;
  });
  await p.focus('#board .pit[data-pit="c"]');
  await p.keyboard.press('Enter');
  await waitMoves(p, 1);
  await p.waitForFunction(() => document.activeElement && document.activeElement.matches('#board .pit.legal'));
  assert.deepEqual({ ...(await focused()), pit: null }, { pit: null, side: 'north', legal: true }, 'North moves next: one of its pits');
  await p.keyboard.press('Enter');
  await waitMoves(p, 2);
  await p.waitForFunction(() => document.activeElement && document.activeElement.matches('#board .pit.legal'));
  assert.equal((await focused()).side, 'south', 'then one of South\'s');
  // Against the computer: the focus comes back to one's own pits.
  await p.click('#act-home');
  await ready(p);
  await p.click('#ai-play');
  await p.waitForSelector('#confirm[open]');  // the game of two is not over
  await p.click('#confirm-ok');
  await p.waitForURL(/\?local=1$/);
  await ready(p);
  await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await p.focus('#board .pit.legal');
  await p.keyboard.press('Enter');
  await waitMoves(p, 2, 30000);
  await p.waitForFunction(() => document.activeElement && document.activeElement.matches('#board .pit.legal'));
  assert.equal((await focused()).side, 'south');
  noProblems();
});

// Issue 28, minor 9: a server restart is over for the pages within a few
// seconds of the server's return (the waits between attempts are capped
// well inside the 15 s of grace of the side to move), and while offline
// each player keeps reading the turn in their own words.
test('after a server restart the pages are back within seconds, and offline the turn line keeps the viewer\'s words', async () => {
  const { south, north } = await twoPlaying(DESKTOP, false);
  // The longest wait each page announces ("Reconnecting in N s").
  const watchWaits = (page) => page.evaluate(() => {
    window.longestWait = 0;
    setInterval(() => {
      const m = /(\d+) s/.exec(document.querySelector('#conn-text').textContent);
      if (m && !document.querySelector('#conn').hidden) window.longestWait = Math.max(window.longestWait, Number(m[1]));
    }, 100);
  });
  await watchWaits(south);
  await watchWaits(north);
  await suite.server.stop();
  for (const p of [south, north]) await p.waitForSelector('#conn:not([hidden])');
  await shot(south, 'screen-offline-desktop-es');
  await shot(north, 'screen-offline-desktop-en');
  assert.equal(await south.textContent('#status'), 'Te toca: elige uno de tus hoyos', 'the one to move, offline');
  assert.equal(await north.textContent('#status'), 'Opponent\'s turn (South)', 'the other, offline');
  await new Promise((r) => setTimeout(r, 14000));
  for (const p of [south, north]) {
    const longest = await p.evaluate(() => window.longestWait);
    assert.ok(longest >= 1 && longest <= 4, `${p.name}: waits of at most 4 s announced (${longest} s)`);
  }
  await suite.server.start();
  const back = Date.now();
  for (const p of [south, north]) {
    await p.waitForFunction(() => document.querySelector('#conn').hidden &&
      document.querySelectorAll('.player.online').length === 2, null, { timeout: 20000 });
  }
  assert.ok(Date.now() - back < 6000, `both pages back ${Date.now() - back} ms after the server`);
  assert.equal(await south.textContent('#status'), 'Te toca: elige uno de tus hoyos');
  noProblems();
});

// Issue 28, minor 11: a path the server does not know gets the client's
// own page (HTTP 404) in English and Spanish, with nothing else to load
// and a way home that works at any depth.
test('an unknown path: our own 404 page in every language, nothing else requested, a link home', async () => {
  for (const [viewport, mobile, locale, where] of [[DESKTOP, false, 'en-US', 'desktop'], [PHONE, true, 'es-ES', 'phone']]) {
    const p = await player({ locale, viewport, mobile, name: `404-${where}` });
    const requests = [];
    p.on('response', (r) => requests.push(`${r.status()} ${new URL(r.url()).pathname}`));
    p.on('requestfailed', (r) => requests.push(`failed ${new URL(r.url()).pathname}`));
    const res = await p.goto(`${suite.server.url}no/such/page?x=1`);
    assert.equal(res.status(), 404);
    assert.match(res.headers()['content-type'], /^text\/html; charset=utf-8/);
    assert.deepEqual(await p.$$eval('h1', (hs) => hs.map((h) => `${h.closest('[lang]').lang}: ${h.textContent}`)),
      ['en: Page not found', 'es: Página no encontrada', 'fr: Page introuvable', 'kk: Бет табылмады', 'ru: Страница не найдена']);
    await shot(p, `screen-404-${where}-${locale.slice(0, 2)}`);
    assert.deepEqual(requests, ['404 /no/such/page'], 'the page alone, nothing else fetched');
    // The one console line is the browser's own report of the 404.
    const said = p.problems.splice(0);
    assert.ok(said.every((s) => /status of 404/.test(s)) && said.length <= 1, said.join('\n'));
    await p.click(locale === 'es-ES' ? 'text=Volver a la página de inicio' : 'text=Back to the start page');
    await ready(p);
    assert.equal(new URL(p.url()).pathname, '/');
  }
  noProblems();
});

// Issue 28, minor 1: the joiner is offered a name (optional, remembered,
// one tap to skip).
test('the joiner is offered a name: saved, it reaches the opponent and is remembered; "Not now" is remembered too', async () => {
  const ana = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'ask-ana' });
  const bruno = await player({ locale: 'en-US', name: 'ask-bruno' });
  const link = await createRoom(ana, { side: 'south', name: 'Ana' });
  assert.ok(await ana.isHidden('#ask-name'), 'the creator named herself on the start page');
  await join(bruno, link);
  await bruno.waitForSelector('#ask-name:not([hidden])');
  assert.equal(await bruno.textContent('#ask-name label'), 'What name would you like to play under?');
  assert.match(await bruno.textContent('#ask-name-why'), /instead of "North"/);
  await shot(bruno, 'screen-ask-name-desktop-en');
  await bruno.fill('#ask-name-input', 'North');
  await bruno.click('#ask-name-save');
  await bruno.waitForSelector('#ask-name-error:not([hidden])');
  assert.equal(await bruno.evaluate(() => document.activeElement.id), 'ask-name-input');
  await bruno.fill('#ask-name-input', 'Bruno');
  await bruno.press('#ask-name-input', 'Enter');
  await bruno.waitForSelector('#ask-name', { state: 'hidden' });
  await ana.waitForFunction(() => [...document.querySelectorAll('.player-name')].some((e) => e.textContent === 'Bruno'));
  await bruno.reload();
  await ready(bruno);
  await bruno.waitForFunction(() => !!document.body.dataset.seat);
  assert.ok(await bruno.isHidden('#ask-name'), 'a seat with a name is not asked again');
  // A joiner on a phone in Spanish skips it: not asked again in that browser.
  const cleo = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'ask-cleo' });
  const link2 = await createRoom(bruno, { side: 'north' });
  await join(cleo, link2);
  await cleo.waitForSelector('#ask-name:not([hidden])');
  assert.equal(await cleo.textContent('#ask-name label'), '¿Con qué nombre quieres jugar?');
  assert.match(await cleo.textContent('#ask-name-why'), /en lugar de «Sur»/);
  await shot(cleo, 'screen-ask-name-phone-es');
  await cleo.click('#ask-name-skip');
  await cleo.waitForSelector('#ask-name', { state: 'hidden' });
  const link3 = await createRoom(bruno, { side: 'south' });
  await join(cleo, link3);
  await cleo.waitForSelector('#share', { state: 'hidden' }).catch(() => {});
  assert.ok(await cleo.isHidden('#ask-name'), 'skipped once: not offered again');
  noProblems();
});

// Issue 28, minor 2: the custom clock takes minutes and seconds, each
// field with its limits.
test('the custom clock: minutes and seconds, with the limits on the fields', async () => {
  const p = await player({ locale: 'en-US', name: 'custom-clock' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="clock"][value="custom"]');
  const limits = (sel) => p.$eval(sel, (el) => [el.min, el.max, el.step]);
  assert.deepEqual(await limits('#clock-min'), ['0', '180', '1']);
  assert.deepEqual(await limits('#clock-sec'), ['0', '59', '1']);
  assert.deepEqual(await limits('#clock-inc'), ['0', '180', '1']);
  assert.deepEqual(await limits('#clock-odds'), ['0', '180', '1']);
  assert.deepEqual(await limits('#clock-odds-sec'), ['0', '59', '1']);
  // Out of a field's limits: the browser says so there, and no room is made.
  await p.fill('#clock-sec', '75');
  await p.click('#create');
  assert.equal(await p.$eval('#clock-sec', (el) => el.validity.rangeOverflow), true);
  assert.ok(await p.isHidden('#share'));
  assert.equal(await p.evaluate(() => document.activeElement.id), 'clock-sec');
  // Within the fields, but past 3 hours: the form's own sentence.
  await p.fill('#clock-min', '180');
  await p.fill('#clock-sec', '30');
  await p.click('#create');
  assert.equal(await p.textContent('#create-error'), 'The time must be from 10 seconds to 3 hours (180 minutes).');
  await shot(p, 'screen-custom-clock-desktop-en');
  // A preset chosen after a wrong custom value is not held up by it.
  await p.check('input[name="clock"][value="3+2"]');
  await p.click('#create');
  await p.waitForSelector('#share:not([hidden])');
  assert.equal(await p.textContent('#clock-control'), 'Clock 3+2');
  // 1 min 30 s + 2, North 0:45: time odds, in minutes and seconds.
  const es = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'custom-clock-es' });
  await es.goto(suite.server.url);
  await ready(es);
  await es.check('input[name="side"][value="south"]');
  await es.check('input[name="clock"][value="custom"]');
  await es.fill('#clock-min', '1');
  await es.fill('#clock-sec', '30');
  await es.fill('#clock-inc', '2');
  await es.fill('#clock-odds', '0');
  await es.fill('#clock-odds-sec', '45');
  await shot(es, 'screen-custom-clock-phone-es');
  await es.click('#create');
  await es.waitForSelector('#share:not([hidden])');
  assert.equal(await es.textContent('#clock-control'), 'Reloj con ventaja: Sur 1:30 min, Norte 0:45 min, +2 s');
  assert.equal(await es.textContent('#player-bottom .player-clock'), '1:30');
  assert.equal(await es.textContent('#player-top .player-clock'), '0:45');
  noProblems();
});

// Issue 28, minor 6: a room from a set-up position says so, with the
// preset's name: on the creator's share card, and over the board to the
// joiner.
test('a room from a set-up position says so to its creator and its joiner, with the preset\'s name', async () => {
  const ana = await player({ locale: 'en-US', name: 'from-ana' });
  const bruno = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'from-bruno' });
  await ana.goto(suite.server.url);
  await ready(ana);
  await ana.check('input[name="side"][value="north"]');
  await ana.check('input[name="clock"][value="none"]');
  await ana.click('#editor > summary');
  await ana.click('[data-preset="give4n"]');
  await ana.click('#ed-online');
  await ana.waitForSelector('#share:not([hidden])');
  assert.equal(await ana.textContent('#share-position'), 'From a set-up position: Handicap: North gives 4');
  await shot(ana, 'screen-from-position-desktop-en');
  const link = await ana.inputValue('#share-link');
  await join(bruno, link);
  await bruno.waitForSelector('#from-position:not([hidden])');
  assert.equal(await bruno.textContent('#from-position'), 'Desde una posición preparada: Ventaja: el Norte da 4');
  await shot(bruno, 'screen-from-position-phone-es');
  await ana.waitForSelector('#from-position:not([hidden])');
  assert.equal(await ana.textContent('#from-position'), 'From a set-up position: Handicap: North gives 4');
  // A room from the standard start says nothing of the kind.
  const link2 = await createRoom(ana);
  await join(bruno, link2);
  assert.ok(await bruno.isHidden('#from-position'));
  assert.ok(await ana.isHidden('#share-position'));
  noProblems();
});

// Issue 28, minor 8: "Your games" words each room's state once: a room
// closed before anyone came, an unnamed opponent not called by a side.
test('your games: a room closed before anyone came, an unnamed opponent, each said once', async () => {
  const ana = await player({ locale: 'en-US', name: 'games-ana' });
  const bruno = await player({ locale: 'en-US', name: 'games-bruno' });
  const abortHere = async () => {
    await ana.waitForSelector('#act-abort:not([hidden])');
    await ana.click('#act-abort');
    await ana.click('#confirm-ok');
    await ana.waitForSelector('#over:not([hidden])');
  };
  const room = (link) => new URL(link).searchParams.get('room');
  const alone = room(await createRoom(ana, { side: 'south' }));
  await abortHere();
  const abortedLink = await createRoom(ana, { side: 'south' });
  await join(bruno, abortedLink);
  await ana.waitForSelector('#share', { state: 'hidden' });
  await abortHere();
  const onLink = await createRoom(ana, { side: 'south' });
  await join(bruno, onLink);
  await ana.waitForSelector('#share', { state: 'hidden' });
  const items = async (p) => {
    await p.goto(suite.server.url);
    await ready(p);
    await p.waitForFunction((n) => document.querySelectorAll('#games-list .game-item .game-detail').length >= n &&
      [...document.querySelectorAll('#games-list .game-detail')].every((e) => e.textContent), 3);
    return p.$$eval('#games-list .game-item', (els) => Object.fromEntries(els.map((e) => [e.dataset.room,
      `${e.querySelector('.game-title').textContent} | ${e.querySelector('.game-detail').textContent.replace(/ · [^·]*$/, '')}`])));
  };
  const en = await items(ana);
  assert.equal(en[alone], 'Closed before anyone joined | you play South');
  assert.equal(en[room(abortedLink)], 'Against an unnamed opponent | you play South · aborted');
  assert.equal(en[room(onLink)], 'Against an unnamed opponent | you play South · your move');
  await shot(ana, 'screen-games-desktop-en');
  const phone = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'games-phone' });
  await phone.goto(suite.server.url);
  await phone.evaluate((entries) => { for (const [k, v] of entries) localStorage.setItem(k, v); },
    await ana.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('oware.token.'))));
  const es = await items(phone);
  assert.equal(es[alone], 'Cerrada sin que llegara nadie | juegas con Sur');
  assert.equal(es[room(abortedLink)], 'Contra un rival sin nombre | juegas con Sur · anulada');
  assert.equal(es[room(onLink)], 'Contra un rival sin nombre | juegas con Sur · te toca');
  await phone.$eval('#games', (el) => el.scrollIntoView());
  await shot(phone, 'screen-games-phone-es');
  noProblems();
});

// Issue 28, minor 4: the analysis shows a proven win as a win (in how
// many moves), a game's real end as its result, and seeds only where the
// engine counts seeds. The game: 16 plies North wins 25-5 (games.json);
// the engine proves North's win from ply 11 on (oware analyse).
test('the analysis: proven wins said as wins, the end as the result, seeds only for seeds', async () => {
  const moves = JSON.parse(fs.readFileSync(new URL('../server/games.json', import.meta.url)))[0].moves.split('');
  const en = await player({ locale: 'en-US', name: 'an-en' });
  const es = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'an-es' });
  const open = async (p, list) => {
    await p.goto(suite.server.url);
    await ready(p);
    await p.fill('#import-text', list.join(' '));
    await p.click('#import-open');
    await waitMoves(p, list.length);
    await p.click('#an-start');
    await p.waitForSelector('#an-result:not([hidden])');
    await p.waitForSelector('#an-progress', { state: 'hidden', timeout: 120000 });
  };
  const at = async (p, k) => {
    await p.click(`#moves .mv >> nth=${k - 1}`);
    await p.waitForFunction((n) => new RegExp(`(after move|tras la jugada) ${n} `).test(document.querySelector('#review-pos').textContent), k);
    return { move: await p.textContent('#an-move'), best: await p.textContent('#an-best') };
  };
  await open(en, moves);
  let shown = await at(en, 10);
  assert.match(shown.best, /^Best move here: d \(line: [a-fA-F ]+( …)?\)\. Evaluation: −10\.2 seeds \(North ahead\)\.$/);
  // The graph's axes in words (Polish).
  assert.deepEqual(await en.$$eval('#an-graph text', (ts) => ts.map((x) => x.textContent)), ['South ahead', 'North ahead', '16 moves']);
  shown = await at(en, 11);
  assert.equal(shown.move, 'Move 11, a??: blunder (lets North win by force); the engine preferred d.');
  assert.match(shown.best, /\. North wins by force in 11 moves\.$/);
  shown = await at(en, 13);
  assert.match(shown.best, /\. North wins by force in 5 moves\.$/);
  shown = await at(en, 16);
  assert.equal(shown.best, 'End of the game: North won.');
  await shot(en, 'screen-analysis-end-desktop-en');
  await at(en, 11);
  await shot(en, 'screen-analysis-desktop-en');
  // No count of seeds past what a game can hold, anywhere along it.
  for (let k = 1; k <= moves.length; k++) {
    const { move, best } = await at(en, k);
    assert.doesNotMatch(`${move} ${best}`, /2[4-9]\.\d seeds|\+24|−24/, `ply ${k}`);
  }
  // A record stopped before its end (as a resignation would): what the
  // engine thinks of where it stopped, in Spanish with its articles.
  await open(es, moves.slice(0, 12));
  shown = await at(es, 11);
  assert.equal(shown.move, 'Jugada 11, a??: error grave (permite una victoria a la fuerza del Norte); el motor prefería d.');
  shown = await at(es, 12);
  assert.equal(shown.best, 'Final de la partida. Victoria a la fuerza del Norte en 10 jugadas.');
  shown = await at(es, 10);
  assert.match(shown.best, /Evaluación: −10,2 semillas \(ventaja del Norte\)\.$|Evaluación: −10\.2 semillas \(ventaja del Norte\)\.$/);
  assert.deepEqual(await es.$$eval('#an-graph text', (ts) => ts.map((x) => x.textContent)), ['ventaja del Sur', 'ventaja del Norte', '12 jugadas']);
  await at(es, 12);
  await es.$eval('#analysis', (el) => el.scrollIntoView());
  await shot(es, 'screen-analysis-phone-es');
  noProblems();
});

// Issue 28, minor 10 (its second half): ←/→ step back through a game in
// play and forward to the live position; a move that comes meanwhile is
// not lost, and Esc goes back to the game.
test('during play ←/→ review the game so far and come back to the live position; a move meanwhile is kept', async () => {
  const { south, north } = await twoPlaying(DESKTOP, false);  // south (es) to move, 2 plies played
  await south.click('#board .pit.legal[data-pit="d"]');
  await waitMoves(north, 3);
  const live = await readBoard(north);
  // North looks back two plies: its pits stop responding, the bar says where it is.
  await north.keyboard.press('ArrowLeft');
  await north.keyboard.press('ArrowLeft');
  await north.waitForSelector('#review:not([hidden])');
  assert.equal(await north.textContent('#review-pos'), 'Looking back: position after move 1 of 3. → or Esc goes back to the game. In the game it is your move.');
  assert.deepEqual((await readBoard(north)).legal, []);
  assert.notDeepEqual((await readBoard(north)).pits, live.pits);
  await north.keyboard.press('ArrowLeft');
  assert.deepEqual((await readBoard(north)).pits, Array(12).fill(4), 'the start');
  await shot(north, 'screen-review-during-desktop-en');
  // → steps forward to the live position, where the pits respond again.
  for (let k = 0; k < 3; k++) await north.keyboard.press('ArrowRight');
  await north.waitForSelector('#review', { state: 'hidden' });
  assert.deepEqual(await readBoard(north), live);
  // North moves; South looks back meanwhile and the move comes: kept.
  await south.keyboard.press('ArrowLeft');
  await south.waitForSelector('#review:not([hidden])');
  const before = (await readBoard(south)).pits;
  await north.click('#board .pit.legal >> nth=0');
  await waitMoves(south, 4);
  assert.deepEqual((await readBoard(south)).pits, before, 'the board stays where South looks');
  assert.equal(await south.textContent('#review-pos'), 'Mirando atrás: posición tras la jugada 2 de 4. → o Esc vuelve a la partida. En la partida te toca a ti.');
  await shot(south, 'screen-review-during-desktop-es');
  await south.keyboard.press('Escape');
  await south.waitForSelector('#review', { state: 'hidden' });
  assert.deepEqual((await readBoard(south)).pits, (await readBoard(north)).pits, 'the live position, with the move that came');
  assert.ok((await readBoard(south)).legal.length > 0);
  // On a phone, the bar's button goes back to the game, the focus on a pit to play.
  const phone = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'review-phone' });
  await phone.goto(suite.server.url);
  await ready(phone);
  await phone.click('#local-play');
  await phone.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await phone.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(phone, 1);
  await phone.click('#board .pit.legal[data-pit="B"]');
  await waitMoves(phone, 2);
  // A tap on a move of the list looks back too (a phone has no arrow keys).
  await phone.click('#moves .mv >> nth=0');
  await phone.waitForSelector('#rv-live:not([hidden])');
  assert.equal(await phone.textContent('#review-pos'), 'Mirando atrás: posición tras la jugada 1 de 2. → o Esc vuelve a la partida.');
  await shot(phone, 'screen-review-during-phone-es');
  await phone.click('#rv-live');
  await phone.waitForSelector('#review', { state: 'hidden' });
  await phone.waitForFunction(() => document.activeElement && document.activeElement.matches('#board .pit.legal'));
  assert.equal(await phone.evaluate(() => document.activeElement.dataset.side), 'south');
  noProblems();
});

// Issue 28, minor 12 (the rest): the record reader's errors in the page's
// language, garbage text explained with the page's own letters (a-f
// South), OGN's letters said to be OGN's; sides with their article in
// Spanish, a Togyz side as a plural.
test('the record reader speaks the page\'s language and letters; Spanish sides with their article', async () => {
  const es = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'rec-es' });
  const en = await player({ locale: 'en-US', name: 'rec-en' });
  const readErr = async (p, text) => {
    await p.goto(suite.server.url);
    await ready(p);
    await p.fill('#import-text', text);
    await p.click('#import-open');
    await p.waitForSelector('#import-error:not([hidden])');
    return p.textContent('#import-error');
  };
  assert.equal(await readErr(es, 'hola mundo'), 'No se puede leer el registro (línea 1): «hola» no es una jugada (a-f son del Sur, A-F del Norte)');
  await es.$eval('#import-error', (el) => el.scrollIntoView({ block: 'center' }));
  await shot(es, 'screen-record-error-phone-es');
  assert.equal(await readErr(es, '1. D C'), 'No se puede leer el registro (línea 1): jugada 2 "C": un hoyo del Sur (mayúscula en OGN); juega el Norte (minúscula)');
  assert.equal(await readErr(es, '[Variant "Oware Abapa"]\n[Date "x"\n\n1. A'), 'No se puede leer el registro (línea 2): etiqueta "Date": falta «]» después del valor');
  assert.equal(await readErr(en, 'hello there'), 'Cannot read the record (line 1): “hello” is not a move (a-f are South’s, A-F North’s)');
  assert.equal(await readErr(en, '1. A b 2. Q'), 'Cannot read the record (line 1): unexpected "Q" (in OGN moves are A-F for South, a-f for North)');
  await shot(en, 'screen-record-error-desktop-en');
  // A Togyz game on this device in Spanish: "Las Blancas sembraron…".
  await es.goto(suite.server.url);
  await ready(es);
  await es.check('input[name="kind"][value="togyz"]');
  await es.click('#local-play');
  await es.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await es.click('#board .pit.legal[data-pit="a"]');
  await waitMoves(es, 1);
  assert.match(await es.textContent('#note'), /^Las Blancas sembraron el hoyo 1/);
  await shot(es, 'screen-togyz-note-phone-es');
  noProblems();
});

// Issue 28, Polish: a side's name said once in the players line and the
// word "clock" once on the share card; "New game" during a local game is
// a plain button whose question warns; the editor's paste field marked
// invalid, the board's line no longer green beside its error.
test('polish: players line, share card clock, New game during a game, the editor\'s paste error', async () => {
  const ana = await player({ locale: 'en-US', name: 'polish-ana' });
  const bruno = await player({ locale: 'es-ES', name: 'polish-bruno' });
  const link = await createRoom(ana, { side: 'south', clock: '3+2', name: 'Ana' });
  assert.equal(await ana.textContent('#share-clock'), 'Clock 3+2');
  // Issue 43, minor 13: said once while waiting (the share card), then
  // over the table once the opponent is there.
  const saysClock = (page) => page.evaluate(() => [...document.querySelectorAll('#game *')]
    .filter((e) => e.children.length === 0 && e.getClientRects().length && /3\+2/.test(e.textContent)).map((e) => e.id));
  assert.deepEqual(await saysClock(ana), ['share-clock']);
  await join(bruno, link);
  await ana.waitForSelector('#share', { state: 'hidden' });
  assert.deepEqual(await saysClock(ana), ['clock-control']);
  assert.deepEqual(await saysClock(bruno), ['clock-control']);
  await ana.waitForSelector('#record-players:not([hidden])');
  assert.equal(await ana.textContent('#record-players'), 'Ana (South) vs North');
  assert.equal(await bruno.textContent('#record-players'), 'Ana (Sur) contra Norte');
  // New game during a game on this device.
  const p = await player({ locale: 'en-US', viewport: PHONE, mobile: true, name: 'polish-local' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#local-play');
  await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
  assert.equal(await p.$eval('#act-new', (b) => b.classList.contains('primary')), true, 'before a move nothing is lost');
  await p.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(p, 1);
  assert.equal(await p.$eval('#act-new', (b) => b.classList.contains('primary')), false);
  await p.click('#act-new');
  await p.waitForSelector('#confirm[open]');
  assert.equal(await p.textContent('#confirm-text'), 'Start a new game? The game in progress will be lost.');
  await shot(p, 'screen-newgame-confirm-phone-en');
  await p.click('#confirm button[value="cancel"]');
  // The editor: garbage pasted.
  await bruno.goto(suite.server.url);
  await ready(bruno);
  await bruno.click('#editor > summary');
  await bruno.fill('#ed-text', 'esto no es nada');
  await bruno.click('#ed-read');
  await bruno.waitForSelector('#ed-error:not([hidden])');
  assert.equal(await bruno.getAttribute('#ed-text', 'aria-invalid'), 'true');
  assert.equal(await bruno.$eval('#ed-check', (e) => e.classList.contains('held')), true);
  assert.notEqual(await bruno.$eval('#ed-check', (e) => getComputedStyle(e).color), 'rgb(46, 125, 50)');
  await bruno.$eval('#ed-error', (el) => el.scrollIntoView({ block: 'center' }));
  await shot(bruno, 'screen-editor-paste-error-desktop-es');
  await bruno.fill('#ed-text', '4-4-4-4-4-0-4-4-4-4-4-4-0-4-S');
  assert.equal(await bruno.getAttribute('#ed-text', 'aria-invalid'), 'false');
  await bruno.click('#ed-read');
  assert.equal(await bruno.$eval('#ed-check', (e) => e.classList.contains('held')), false);
  noProblems();
});

// Issue 28, Polish: "Resume the game" says which game.
test('polish: the start page\'s Resume names the game kept, in both languages', async () => {
  const p = await player({ locale: 'en-US', name: 'resume' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="kind"][value="togyz"]');
  await p.click('#local-play');
  await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await p.click('#board .pit.legal >> nth=0');
  await waitMoves(p, 1);
  await p.click('#board .pit.legal >> nth=0');
  await waitMoves(p, 2);
  await p.click('#act-home');
  await ready(p);
  await p.waitForSelector('#local-resume:not([hidden])');
  assert.equal(await p.textContent('#local-resume'), 'Resume: Togyz Kumalak for two players, move 3');
  await switchLang(p, 'es');
  await p.waitForFunction(() => document.querySelector('#local-resume').textContent === 'Seguir: Togyz Kumalak a dos, jugada 3');
  await shot(p, 'screen-resume-desktop-es');
  await switchLang(p, 'en');
  noProblems();
});

// Issue 28, Polish: a resignation is in the record: its Result stays "*"
// (the rules did not end the game) and a closing comment says how it
// ended; the record opens again.
test('polish: the record of a resigned game says how it ended, and reads back', async () => {
  const { south, north } = await twoPlaying(DESKTOP, false);
  await north.click('#act-resign');
  await north.click('#confirm-ok');
  await north.waitForSelector('#over:not([hidden])');
  await north.click('#record-copy');
  const rec = await north.evaluate(() => navigator.clipboard.readText());
  // Issue 43, minor 4: Result "*" (OGN's results are final scores), how
  // it ended in a Termination tag and in a comment on the last move.
  assert.match(rec, /\[Result "\*"\]\n\[Termination "North resigned; South won"\]\n\n1\. C a\n/);
  assert.ok(rec.endsWith('\n1. C a\n{North resigned; South won}\n'), rec);  // OGN: South upper case
  // Minor 3: the list shows c and A, the record C and a: said under the buttons.
  assert.deepEqual(await north.$$eval('#moves .mv-text', (els) => els.map((e) => e.textContent)), ['c', 'A']);
  assert.equal(await north.textContent('#record-case'),
    'In the record (Aualé’s OGN), South’s pits are written A–F and North’s a–f: the other way round from the board and the list above.');
  assert.equal(await south.textContent('#record-case'),
    'En el registro (el OGN de Aualé), los hoyos del Sur se escriben A–F y los del Norte a–f: al revés que en el tablero y en la lista de arriba.');
  assert.equal(await north.isVisible('#record-case'), true);
  await saveShot(north.locator('#record'), 'screen-record-case-en');
  await saveShot(south.locator('#record'), 'screen-record-case-es');
  await south.waitForSelector('#over:not([hidden])');
  await south.click('#record-copy');
  assert.equal(await south.evaluate(() => navigator.clipboard.readText()), rec, 'the same record on the Spanish page');
  await north.goto(suite.server.url);
  await ready(north);
  await north.fill('#import-text', rec);
  await north.click('#import-open');
  await waitMoves(north, 2);
  assert.equal(await north.isVisible('#record-case'), true, 'a record opened says it too');
  noProblems();
});

// Issue 28, Polish: the hint shows that it is thinking, and its mark is
// not the gold glow of the playable pits (a solid ring and a "?").
test('polish: Hint says it is thinking, and its mark is its own', async () => {
  const p = await player({ locale: 'es-ES', viewport: PHONE, mobile: true, name: 'hint' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#local-play');
  await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await p.click('#act-hint');
  // Read while it thinks (in one go: a quick hint may end just after).
  const busy = await (await p.waitForFunction(() => {
    const b = document.querySelector('#act-hint');
    return b.classList.contains('busy') && b.getAttribute('aria-busy') === 'true' &&
      { text: b.textContent, spin: getComputedStyle(b, '::before').width };
  })).jsonValue();
  assert.equal(busy.text, 'Pensando…');
  assert.equal(busy.spin, '12px', 'a spinner beside the words');
  await p.waitForSelector('#board .pit.hint', { timeout: 20000 });
  assert.equal(await p.$eval('#act-hint', (b) => b.classList.contains('busy') || b.hasAttribute('aria-busy')), false);
  const mark = await p.$eval('#board .pit.hint', (el) => ({
    badge: getComputedStyle(el, '::after').content,
    ring: getComputedStyle(el.querySelector('.mark')).borderTopStyle,
  }));
  assert.deepEqual(mark, { badge: '"?"', ring: 'solid' });
  await shot(p, 'screen-hint-phone-es');
  noProblems();
});

// Issue 28, Polish: on a 360-390 px phone, a Togyz hole's count stays
// clear of the next hole.
test('polish: Togyz counts stay clear of the next hole on 360 and 390 px phones', async () => {
  for (const [width, locale] of [[360, 'en-US'], [390, 'es-ES']]) {
    const p = await player({ locale, viewport: { width, height: 800 }, mobile: true, name: `togyz-${width}` });
    await p.goto(suite.server.url);
    await ready(p);
    await p.check('input[name="kind"][value="togyz"]');
    await p.click('#local-play');
    await p.waitForSelector('#game:not([hidden]) #board .pit.legal');
    const gaps = await p.$$eval('#board .row', (rows) => rows.flatMap((row) => {
      const pits = [...row.querySelectorAll('.pit')].map((el) => ({ box: el.getBoundingClientRect(), count: el.querySelector('.count').getBoundingClientRect() }))
        .sort((a, b) => a.box.left - b.box.left);
      return pits.slice(0, -1).map((x, i) => Math.round((pits[i + 1].box.left - x.count.right) * 10) / 10);
    }));
    assert.equal(gaps.length, 16);
    assert.ok(gaps.every((g) => g >= 2), `${width} px: room between each count and the next hole: ${gaps}`);
    await shot(p, `screen-togyz-phone-${width}-${locale.slice(0, 2)}`);
  }
  noProblems();
});

// Issue 28, Polish: the header and the tab name the game chosen, and both
// games' subtitles say where they are played.
test('polish: the header names the game chosen; both subtitles say this screen or a room', async () => {
  const p = await player({ locale: 'es-ES', name: 'header' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="kind"][value="oware"]');
  assert.equal(await p.textContent('#home-link'), 'Oware');
  assert.equal(await p.textContent('#start-title'), 'Oware Abapa para dos, en esta pantalla o en una sala privada');
  await p.check('input[name="kind"][value="togyz"]');
  assert.equal(await p.textContent('#home-link'), 'Togyz Kumalak');
  assert.equal(await p.title(), 'Togyz Kumalak');
  assert.equal(await p.textContent('#start-title'), 'Togyz Kumalak para dos, en esta pantalla o en una sala privada');
  await shot(p, 'screen-header-togyz-desktop-es');
  await p.check('input[name="kind"][value="oware"]');
  noProblems();
});

// Issue 43, minor 13: the start page's cards apart as its columns are,
// and the game's name clear of the language switch on a phone.
test('polish: the Learn and Puzzles cards 16 px apart; Togyz Kumalak\'s title clear of the language switch at 360 px', async () => {
  for (const [locale, lang] of [['en-US', 'en'], ['es-ES', 'es']]) {
    const p = await player({ locale, viewport: DESKTOP, name: `cards-${lang}` });
    await p.goto(suite.server.url);
    await ready(p);
    const box = (sel) => p.$eval(sel, (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
    const cols = await box('#start .cards');
    const form = await box('#event-form');
    const learn = await box('#learn-entry');
    const puzzles = await box('#puzzles-entry');
    // The club event's form (issue 41) comes between the columns and Learn.
    assert.ok(Math.abs(form.top - cols.bottom - 16) < 1, `${lang}: the event's form 16 px under the columns (${form.top - cols.bottom})`);
    assert.ok(Math.abs(learn.top - form.bottom - 16) < 1, `${lang}: Learn 16 px under the event's form (${learn.top - form.bottom})`);
    assert.ok(Math.abs(puzzles.top - learn.bottom - 16) < 1, `${lang}: Puzzles 16 px under Learn (${puzzles.top - learn.bottom})`);
    await p.check('input[name="kind"][value="togyz"]');
    await p.setViewportSize({ width: 360, height: 740 });
    const brand = await box('.brand');
    const sw = await box('#lang');
    assert.ok(sw.left - brand.right >= 10, `${lang}: the title ${sw.left - brand.right} px from the language switch`);
    assert.ok(brand.right <= 360 && sw.right <= 360);
    await saveShot(p, `screen-togyz-top-phone-${lang}`);
    await p.context().close();
  }
  noProblems();
});
