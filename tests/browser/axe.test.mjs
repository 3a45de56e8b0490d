// axe.test.mjs: axe-core (tests/package.json; docs/testing.md says why)
// run on every game screen, in Chromium against the real server: a room
// while playing (both players and a spectator), the same room once the game
// is over with its analysis, a Togyz room, a game on this device (two
// players, the computer) and a record opened for study. No serious or
// critical violation may be found. Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ready, waitMoves, browserSuite } from './lib.mjs';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const suite = browserSuite();
const { player, noProblems } = suite;

// axe's serious and critical violations on the page as it is now. The
// script is evaluated by the driver (the page's own policy allows no
// script but its own files).
async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).slice(0, 3) }));
  });
  // And the analysis table's empty header, which axe rates minor (issue 28).
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'empty-table-header');
}

async function clean(page, label) {
  const bad = await violations(page);
  assert.deepEqual(bad, [], `${label}: ${JSON.stringify(bad, null, 1)}`);
}

async function createRoom(page, kind = 'oware') {
  await page.goto(suite.server.url);
  await ready(page);
  await page.check(`input[name="kind"][value="${kind}"]`);
  await page.click('#create');
  await page.waitForSelector('#share:not([hidden])');
  return page.inputValue('#share-link');
}

async function join(page, link) {
  await page.goto(link);
  await ready(page);
  await page.waitForFunction(() => !!document.body.dataset.seat);
}

test('a room: playing, over, analysed; for both players and a spectator, in both languages', async () => {
  const south = await player({ locale: 'es-ES', name: 'south' });
  const north = await player({ locale: 'en-US', name: 'north', viewport: { width: 390, height: 844 }, mobile: true });
  const watcher = await player({ locale: 'en-US', name: 'spectator' });
  const link = await createRoom(south);
  await clean(south, 'waiting for the opponent');
  await join(north, link);
  await join(watcher, link);
  await south.waitForSelector('#share', { state: 'hidden' });
  await south.click('#board .pit.legal[data-pit="c"]');
  for (const p of [north, watcher]) await waitMoves(p, 1);
  for (const [p, label] of [[south, 'south playing'], [north, 'north playing'], [watcher, 'spectator playing']]) await clean(p, label);
  await north.click('#board .pit.legal[data-pit="A"]');
  for (const p of [south, watcher]) await waitMoves(p, 2);
  await north.click('#act-resign');
  await north.click('#confirm-ok');
  for (const p of [south, north, watcher]) await p.waitForSelector('#over:not([hidden])');
  for (const [p, label] of [[south, 'south over'], [north, 'north over'], [watcher, 'spectator over']]) await clean(p, label);
  await south.click('#an-start');
  await south.waitForSelector('#an-result:not([hidden])', { timeout: 60000 });
  await clean(south, 'analysed');
  noProblems();
});

test('a Togyz room, a game on this device, against the computer, and a record studied', async () => {
  const a = await player({ locale: 'en-US', name: 'togyz-a' });
  const b = await player({ locale: 'es-ES', name: 'togyz-b' });
  await join(b, await createRoom(a, 'togyz'));
  await a.waitForSelector('#share', { state: 'hidden' });
  await clean(a, 'togyz room');
  // The name starts with what the hole shows, and names the side right.
  assert.equal(await b.getAttribute('#board .pit[data-pit="a"]', 'aria-label'), '1: 9 semillas, hoyo de las Blancas');
  assert.equal(await a.getAttribute('#board .pit[data-pit="A"]', 'aria-label'), "1: 9 seeds, Black's hole");
  await clean(b, 'togyz room, es');

  const l = await player({ locale: 'es-ES', name: 'local' });
  await l.goto(suite.server.url);
  await ready(l);
  await l.click('#local-play');
  await l.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await clean(l, 'two players on this device');
  await l.click('#home-link');
  await ready(l);
  await l.click('#ai-play');
  await l.waitForSelector('#game:not([hidden]) #board .pit.legal');
  await clean(l, 'against the computer');

  await l.goto(suite.server.url);
  await ready(l);
  await l.fill('#import-text', '1. c F 2. a B');
  await l.click('#import-open');
  await l.waitForSelector('#game:not([hidden]) #review:not([hidden])');
  await clean(l, 'a record studied');
  noProblems();
});

test('the page for an unknown path (HTTP 404)', async () => {
  const p = await player({ locale: 'es-ES', name: 'not-found' });
  const res = await p.goto(`${suite.server.url}no/such/page`);
  assert.equal(res.status(), 404);
  await clean(p, 'the 404 page');
  p.problems.splice(0);  // the browser's own report of the 404
  noProblems();
});
