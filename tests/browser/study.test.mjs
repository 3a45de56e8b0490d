// study.test.mjs: studying a game in Chromium against the real server
// (issue 15): a record imported (our letters, and OGN) and analysed in the
// worker (graph, marks, best move, summary; the same classes as `oware
// analyse`), bad records refused with their line and nothing loaded, the
// record downloaded as OGN (as `oware ogn` writes it), play from here (with
// undo), the board editor (valid, invalid, pasted JSON and FEN) and games
// from its position, locally and in a room. Screenshots desktop and phone,
// English and Spanish. Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ready, readBoard, waitMoves, shot, root, browserSuite } from './lib.mjs';

const OWARE = path.resolve(root, process.env.OWARE || 'build/oware');
const games = JSON.parse(fs.readFileSync(new URL('../server/games.json', import.meta.url)));
// A 16-ply game North wins 25-5 (games.json).
const GAME = games[0].moves.split('');

const suite = browserSuite([]);
const { player, noProblems } = suite;

async function startPage(p) {
  await p.goto(suite.server.url);
  await ready(p);
}

// Opens the editor's card and waits until editor.js, loaded on that
// first opening, has wired and checked it.
async function openEditor(p) {
  await p.click('#editor summary');
  await p.waitForSelector('#ed-check:not(:empty)');
}

async function importText(p, text) {
  await p.fill('#import-text', text);
  await p.click('#import-open');
}

// Runs the analysis and waits for its end.
async function analyse(p) {
  await p.click('#an-start');
  await p.waitForSelector('#an-result:not([hidden])');
  await p.waitForSelector('#an-progress', { state: 'hidden', timeout: 120000 });
}

const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

test('an imported game analysed: graph, marks, best move, summary, as oware analyse judges it', async () => {
  const p = await player({ name: 'analyse-en' });
  await startPage(p);
  await importText(p, GAME.join(' '));
  await waitMoves(p, GAME.length);
  assert.equal(await p.isVisible('#review'), true, 'opens in review');
  assert.equal(await p.isVisible('#act-new'), false);
  assert.equal(await p.isVisible('#an-start'), true);
  await p.click('#rv-first');
  await analyse(p);
  // The same classes as the native analysis at the page's budget.
  const native = JSON.parse(execFileSync(OWARE, ['analyse', '--nodes', '300000', '--egdb', path.join(root, 'web/oware.egdb'), ...GAME], { encoding: 'utf8' }));
  const marks = await p.$$eval('#moves .mv', (bs) => bs.map((b) => (b.querySelector('.an-mark') || {}).textContent || ''));
  assert.deepEqual(marks, native.plies.map((x) => MARKS[x.class] || ''));
  assert.ok(marks.some((m) => m === '??'), 'this game has blunders');
  // The graph: one dot per mistake and blunder.
  const dots = await p.$$eval('#an-graph circle', (c) => c.length);
  assert.equal(dots, native.plies.filter((x) => x.class === 'mistake' || x.class === 'blunder').length);
  // At the start: the engine's first move is marked on the board and named.
  assert.deepEqual(await p.$$eval('#board .pit.best', (b) => b.map((x) => x.dataset.pit)), [native.plies[0].best]);
  // The line: its first 6 moves, the whole of it on demand (issue 28).
  const pv = native.plies[0].pv;
  const short = pv.length > 6 ? `${pv.slice(0, 6).join(' ')} …` : pv.join(' ');
  assert.match(await p.textContent('#an-best'), new RegExp(`Best move here: ${native.plies[0].best} \\(line: ${short}\\)`));
  if (pv.length > 6) {
    assert.equal(await p.textContent('#an-line'), `Show the whole line (${pv.length} moves)`);
    await p.click('#an-line');
    assert.match(await p.textContent('#an-best'), new RegExp(`\\(line: ${pv.join(' ')}\\)`));
    await p.click('#an-line');
  }
  // The summary: per side, as the native summary counts.
  const rows = await p.$$eval('#an-summary tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  for (const [i, side] of ['south', 'north'].entries()) {
    const s = native.summary[side];
    assert.deepEqual(rows[i].slice(1, 4).map(Number), [s.inaccuracy, s.mistake, s.blunder], side);
    assert.equal(Number(rows[i][4]).toFixed(1), s.average_loss.toFixed(1), side);
  }
  // A click on the graph's right half shows a later position.
  const box = await p.$eval('#an-graph svg', (s) => { const r = s.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  await p.mouse.click(box.x + box.w * 0.75, box.y + box.h / 2);
  const at = Number(/after move (\d+) of/.exec(await p.textContent('#review-pos'))[1]);
  assert.ok(at >= 11 && at <= 13, `ply ${at}`);
  assert.match(await p.textContent('#an-move'), new RegExp(`^Move ${at}, ${GAME[at - 1]}`));
  await p.click('#rv-first');
  for (let k = 0; k < 3; k++) await p.click('#rv-next');
  await shot(p, 'study-analysed-en');
  noProblems();
});

test('the record downloaded is OGN as oware ogn writes it, and reads back; bad records are refused with their line', async () => {
  const p = await player({ name: 'records' });
  await startPage(p);
  await importText(p, GAME.join(' '));
  await waitMoves(p, GAME.length);
  const [dl] = await Promise.all([p.waitForEvent('download'), p.click('#record-download')]);
  assert.match(dl.suggestedFilename(), /^oware-\d{4}-\d\d-\d\d\.ogn$/);
  const text = fs.readFileSync(await dl.path(), 'utf8');
  // A record keeps its own date (none here: "?").
  assert.equal(text, execFileSync(OWARE, ['ogn', ...GAME], { encoding: 'utf8' }));
  assert.match(text, /\[Result "5-25"\]/);
  // Copied: the same text.
  await p.click('#record-copy');
  assert.equal(await p.evaluate(() => navigator.clipboard.readText()), text);

  // Back on the start page: the OGN opens in review with the same moves;
  // named players (tags) are shown.
  await startPage(p);
  await importText(p, text.replace('[South "?"]', '[South "Ama"]'));
  await waitMoves(p, GAME.length);
  assert.deepEqual(await p.$$eval('#moves .mv', (bs) => bs.map((b) => b.textContent.split(' ')[0])), GAME);
  assert.match(await p.textContent('#record-players'), /Ama \(South\)/);

  // Bad records: the line and the reason; nothing loaded.
  const bad = [
    [text.replace('1. D c', '1. D C'), /\(line 10\): move 2 "C": a pit of South/],
    ['[Variant "Oware Abapa"]\n[Date "x"\n\n1. A', /\(line 2\): /],
    ['f F\nf', /\(line 2\): move 3 “f”: that pit is empty/],
    ['c F x', /\(line 1\): “x” is not a move/],
    ['c+2 F', /\(line 1\): move 1 “c\+2”: it captures 0 seeds/],
    ['', /nothing to read/],
  ];
  for (const [rec, why] of bad) {
    await startPage(p);
    await importText(p, rec);
    await p.waitForSelector('#import-error:not([hidden])');
    assert.match(await p.textContent('#import-error'), why, rec);
    assert.equal(await p.isVisible('#start'), true, 'still the start page');
    assert.equal(await p.isVisible('#game'), false);
  }
  await shot(p, 'study-import-error-en');
  noProblems();
});

test('a game Aualé would end early (a position seen twice) keeps its moves in {Continued:}, in and out', async () => {
  const p = await player({ name: 'continued' });
  const text = fs.readFileSync(path.join(root, 'tests/data/repetition.ogn'), 'utf8');
  const game = JSON.parse(execFileSync(OWARE, ['ogn', '--read', path.join(root, 'tests/data/repetition.ogn')],
    { encoding: 'utf8' }));
  assert.equal(game.reason, 'repetition');
  await startPage(p);
  await importText(p, text);
  await waitMoves(p, game.moves.length);
  assert.deepEqual(await p.$$eval('#moves .mv', (bs) => bs.map((b) => b.textContent.split(' ')[0])), game.moves);
  const [dl] = await Promise.all([p.waitForEvent('download'), p.click('#record-download')]);
  assert.equal(fs.readFileSync(await dl.path(), 'utf8'), text);
  assert.match(text, /\{Continued: 60\. D d /);
  noProblems();
});

test('play from here: a local game from a reviewed ply, the moves kept, undo works', async () => {
  const p = await player({ name: 'here' });
  await startPage(p);
  await importText(p, GAME.join(' '));
  await waitMoves(p, GAME.length);
  await p.click('#rv-first');
  for (let k = 0; k < 4; k++) await p.click('#rv-next');
  const want = await readBoard(p);
  await p.click('#here-two');
  await p.waitForURL(/\?local=1/);
  await ready(p);
  await waitMoves(p, 4);
  const got = await readBoard(p);
  assert.deepEqual(got.pits, want.pits);
  assert.deepEqual(got.captured, want.captured);
  assert.equal(await p.isVisible('#act-undo'), true);
  await p.click('#act-undo');
  await waitMoves(p, 3);
  // Against the computer: it takes the side not to move.
  await startPage(p);
  await importText(p, GAME.join(' '));
  await waitMoves(p, GAME.length);
  await p.click('#rv-first');
  for (let k = 0; k < 5; k++) await p.click('#rv-next');
  await p.click('#here-ai');
  // The local game from the first part is not over: replacing it is asked first.
  await p.click('#confirm-ok');
  await p.waitForURL(/\?local=1/);
  await ready(p);
  await waitMoves(p, 5);
  const saved = await p.evaluate(() => JSON.parse(localStorage.getItem('oware.local')));
  assert.deepEqual(saved.ai, { level: 'medium', side: 'south' });  // North was to move
  assert.deepEqual(saved.moves, GAME.slice(0, 5));
  noProblems();
});

async function editorPits(p) {
  return p.$$eval('.ed-pit', (xs) => Object.fromEntries(xs.map((x) => [x.dataset.pit, Number(x.value)])));
}

test('the board editor: checked by the engine, presets, pasted JSON and FEN, local and online games from it', async () => {
  const p = await player({ name: 'editor-en' });
  await startPage(p);
  await openEditor(p);
  assert.match(await p.textContent('#ed-check'), /A valid position: 48 seeds\. FEN: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S/);
  // Invalid: 49 seeds; a negative count; a game over at once.
  await p.fill('.ed-pit[data-pit="a"]', '5');
  assert.match(await p.textContent('#ed-check'), /There are 49 seeds: there must be 48\./);
  assert.equal(await p.isDisabled('#ed-two'), true);
  await p.fill('.ed-pit[data-pit="a"]', '-1');
  await p.fill('.ed-pit[data-pit="b"]', '9');
  assert.match(await p.textContent('#ed-check'), /A negative number in pit a\./);
  await p.fill('#ed-text', '{"pits":[0,0,0,0,0,1,1,0,0,0,0,0],"captured":{"south":25,"north":21},"turn":"south"}');
  await p.click('#ed-read');
  assert.match(await p.textContent('#ed-check'), /would already be over/);
  assert.equal(await p.isDisabled('#ed-online'), true);
  await shot(p, 'study-editor-invalid-en');
  // A bad paste changes nothing.
  await p.fill('#ed-text', '4-4-4-x');
  await p.click('#ed-read');
  assert.match(await p.textContent('#ed-error'), /not a position/);
  assert.equal((await editorPits(p)).a, 0);
  // FEN pasted.
  await p.fill('#ed-text', '3-4-4-4-4-4-4-4-4-4-4-0-5-0-N');
  await p.click('#ed-read');
  assert.equal(await p.isVisible('#ed-error'), false);
  assert.deepEqual(await editorPits(p), { a: 3, b: 4, c: 4, d: 4, e: 4, f: 4, A: 4, B: 4, C: 4, D: 4, E: 4, F: 0 });
  assert.equal(await p.inputValue('#ed-cap-south'), '5');
  assert.equal(await p.isChecked('input[name="ed-turn"][value="north"]'), true);
  // A preset, then a local game from it: the board shows it; undo goes back to it.
  await p.click('[data-preset="give4"]');
  assert.match(await p.textContent('#ed-check'), /FEN: 4-4-4-4-4-0-4-4-4-4-4-4-0-4-S/);
  await p.click('#ed-two');
  await p.waitForURL(/\?local=1/);
  await ready(p);
  let b = await readBoard(p);
  assert.deepEqual(b.pits, [4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4]);
  assert.deepEqual(b.captured, { south: 0, north: 4 });
  assert.deepEqual(b.legal, ['a', 'b', 'c', 'd', 'e']);
  await p.click('#board .pit[data-pit="a"]');
  await waitMoves(p, 1);
  await p.click('#act-undo');
  await waitMoves(p, 0);
  b = await readBoard(p);
  assert.deepEqual(b.pits, [4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4]);
  // The record of a game from a position carries its FEN.
  await p.click('#board .pit[data-pit="a"]');
  await waitMoves(p, 1);
  await p.click('#record-copy');
  assert.match(await p.evaluate(() => navigator.clipboard.readText()), /\[FEN "4-4-4-4-4-0-4-4-4-4-4-4-0-4-S"\]/);

  // An online room from a position: the server starts the game there.
  await startPage(p);
  await openEditor(p);
  await p.click('[data-preset="give4n"]');
  await p.click('#ed-online');
  await p.waitForSelector('#share:not([hidden])');
  b = await readBoard(p);
  assert.deepEqual(b.pits, [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0]);
  assert.deepEqual(b.captured, { south: 4, north: 0 });
  noProblems();
});

test('screenshots: the start page with the editor, an analysed game on a phone, in Spanish', async () => {
  const p = await player({ name: 'es-phone', locale: 'es-ES', viewport: { width: 390, height: 844 }, mobile: true });
  await startPage(p);
  await openEditor(p);
  await p.click('[data-preset="give8"]');
  assert.match(await p.textContent('#ed-check'), /Posición válida: 48 semillas/);
  await shot(p, 'study-start-es-phone');
  await importText(p, GAME.join(' '));
  await waitMoves(p, GAME.length);
  await p.click('#rv-first');
  await analyse(p);
  await p.click('#rv-next');
  await p.click('#rv-next');
  assert.match(await p.textContent('#an-move'), /^Jugada 2, /);
  assert.match(await p.textContent('#an-best'), /^Mejor jugada aquí: /);
  await shot(p, 'study-analysed-es-phone');
  const d = await player({ name: 'en-desktop' });
  await startPage(d);
  await openEditor(d);
  await shot(d, 'study-start-en');
  noProblems();
});
