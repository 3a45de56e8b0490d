// clock.test.mjs: clocks in the web client (PROTOCOL.md "Clocks"): a room
// created with a custom 10 s clock on a desktop (English), joined from a
// phone (Spanish), the clocks beside the player bars, the running one
// marked, tenths under 10 s, the warning and its sound switch, the time
// control on the share card, and the game lost on time by nobody moving.
// Screenshots: clock-desktop-running, clock-phone-running,
// clock-desktop-timeout, clock-phone-timeout.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launchBrowser, openPlayer, ready, waitMoves, shot } from './lib.mjs';

let server, browser;
after(async () => {
  if (browser) await browser.close();
  if (server) { await server.stop(); server.cleanup(); }
});

const clockOf = (page, where) => page.evaluate((w) => {
  const el = document.querySelector(`#player-${w} .player-clock`);
  return { text: el.textContent, hidden: el.hidden, running: el.classList.contains('running'),
    low: el.classList.contains('low'), flagged: el.classList.contains('flagged') };
}, where);

test('a clock game between two browsers, to a timeout', async () => {
  server = await new Server([]).start();
  browser = await launchBrowser();
  const a = await openPlayer(browser, { name: 'desktop' });
  const b = await openPlayer(browser, { name: 'phone', locale: 'es-ES', viewport: { width: 390, height: 844 }, mobile: true });

  await a.goto(server.url);
  await ready(a);
  // Presets and a custom choice; a bad custom value is refused on the page.
  assert.equal(await a.locator('input[name="clock"]').count(), 11);
  await a.check('input[name="side"][value="south"]');
  await a.check('input[name="clock"][value="custom"]');
  await a.fill('#clock-min', '0');
  await a.fill('#clock-sec', '5');
  await a.click('#create');
  assert.match(await a.textContent('#create-error'), /10 seconds to 3 hours/);
  await a.fill('#clock-sec', '10');   // 10 s
  await a.fill('#clock-inc', '1');
  await shot(a, 'clock-start');
  await a.click('#create');
  await a.waitForSelector('#share:not([hidden])');
  assert.equal(await a.textContent('#share-clock'), 'Clock 0:10+1');  // the word said once (issue 28)
  assert.equal(await a.textContent('#clock-control'), 'Clock 0:10+1');
  assert.equal(await a.isHidden('#clock-line'), true, 'the line over the table waits (issue 43)');
  const link = await a.inputValue('#share-link');

  await b.goto(link);
  await ready(b);
  await b.waitForFunction(() => document.body.dataset.seat === 'north');
  // Nothing runs before both have moved.
  assert.deepEqual(await clockOf(b, 'bottom'), { text: '0:10', hidden: false, running: false, low: false, flagged: false });
  assert.equal(await b.textContent('#clock-control'), 'Reloj 0:10+1');

  await a.waitForSelector('#board .pit.legal');
  await a.click('#board .pit.legal >> nth=0');
  await waitMoves(b, 1);
  await b.waitForSelector('#board .pit.legal');
  await b.click('#board .pit.legal >> nth=0');
  await waitMoves(a, 2);
  // South's clock runs, in tenths, marked and low; north's stands.
  await a.waitForFunction(() => document.querySelector('#player-bottom .player-clock').classList.contains('running'));
  // It counts down between states, in tenths.
  const below = (w) => Number(document.querySelector(`#player-${w} .player-clock`).textContent) < 9.5;
  await a.waitForFunction(below, 'bottom', { timeout: 5000 });
  const mine = await clockOf(a, 'bottom');
  assert.ok(mine.running && mine.low, JSON.stringify(mine));
  assert.match(mine.text, /^\d\.\d$/);
  assert.ok(Number(mine.text) > 3, mine.text);
  assert.deepEqual(await clockOf(a, 'top'), { text: '0:10', hidden: false, running: false, low: false, flagged: false });
  await b.waitForFunction(below, 'top', { timeout: 5000 });
  assert.ok((await clockOf(b, 'top')).running);
  // The warning beeped once for south (sound on by default); north mutes
  // the page's sounds with the one switch, which the beep obeys too, and
  // the choice is kept.
  assert.equal(await a.evaluate(() => window.owareTest.beeps), 1);
  assert.equal(await b.$('#clock-sound'), null, 'one sound switch, not two');
  assert.equal(await b.textContent('#act-sound'), 'Sonido: sí');
  await b.click('#act-sound');
  assert.equal(await b.textContent('#act-sound'), 'Sonido: no');
  assert.equal(await b.evaluate(() => localStorage.getItem('oware.muted')), '1');
  const beeps = await b.evaluate(() => window.owareTest.beeps);
  // The page's own clock.js: the one in the folder its modules come from (v/<hash>/).
  await b.evaluate(() => import(performance.getEntriesByType('resource').map((e) => e.name)
    .find((n) => /\/v\/[0-9a-f]{16}\/app\.js$/.test(n)).replace(/app\.js$/, 'clock.js')).then((m) => m.beep()));
  assert.equal(await b.evaluate(() => window.owareTest.beeps), beeps, 'a muted page does not beep');
  await shot(a, 'clock-desktop-running');
  await shot(b, 'clock-phone-running');

  // Nobody moves: the server ends the game on time.
  await a.waitForSelector('#over:not([hidden])', { timeout: 15000 });
  await b.waitForSelector('#over:not([hidden])', { timeout: 5000 });
  assert.equal(await a.textContent('#over-reason'), 'You ran out of time, so your opponent won.');
  assert.equal(await b.textContent('#over-reason'), 'A tu rival se le ha acabado el tiempo, así que has ganado.');
  assert.deepEqual(await clockOf(a, 'bottom'), { text: '0.0', hidden: false, running: false, low: false, flagged: true });
  assert.deepEqual(await clockOf(b, 'bottom'), { text: '0:10', hidden: false, running: false, low: false, flagged: false });
  await shot(a, 'clock-desktop-timeout');
  await shot(b, 'clock-phone-timeout');
  const problems = [...a.problems, ...b.problems];
  assert.deepEqual(problems, [], problems.join('\n'));
});
