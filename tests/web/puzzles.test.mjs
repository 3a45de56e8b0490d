// puzzles.test.mjs: the puzzles' controller (web/puzzles.js's puzzlePanel)
// in node, on the real puzzles of web/puzzles-oware.json, a fake board and
// a fake engine: a wrong move scored, a line played with the page's
// replies to its end and judged, the hint, the keys, and the rating.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngines } from './fakes.mjs';
import { puzzlePanel, rated, dailyIndex } from '../../web/puzzles.js';

await loadEngines();
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const PUZZLES = JSON.parse(fs.readFileSync(path.join(WEB, 'puzzles-oware.json'), 'utf8'));
// After the promise steps that set the page's own timers (local.test.mjs).
const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 5)));

function fakeBoard(kind) {
  return {
    kind, anim: null, sown: [], hint: null, legal: new Set(),
    finish() {}, show() {}, markLast() {}, relabel() {}, markHint(p) { this.hint = p; },
    animate(before, info) { this.sown.push(info.pit); return Promise.resolve(); },
  };
}

function panel() {
  const kept = new Map();
  let board = null;
  const asked = [];
  const p = puzzlePanel({ effects: {
    board: (kind) => (board && board.kind === kind ? board : (board = fakeBoard(kind))),
    record: (kind) => structuredClone(kept.get(kind) || { rating: 1200, streak: 0, best: 0, done: {} }),
    keep: (kind, r) => kept.set(kind, structuredClone(r)),
    computer: () => ({ atDepth: (req) => { asked.push(req); return Promise.resolve({ move: 'b', score: 32, depth: req.depth, pv: ['b'] }); } }),
    today: () => '2026-12-05',
    replyMs: 0,
  } }, () => {});
  p.loaded('oware', PUZZLES);
  return { p, st: p.state, board: () => board, kept, asked };
}

const find = (n) => PUZZLES.findIndex((x) => x.moves.length === n);

test('a wrong move: said, scored once as failed, the rating down', () => {
  const { p, st, kept } = panel();
  p.openPuzzle(find(3));
  const right = p.puzzle().moves[0];
  const wrong = st.game.state().legal.find((m) => m !== right);
  p.tryMove(wrong);
  assert.equal(st.feedback.kind, 'wrong');
  assert.equal(st.result, 'failed');
  const r = kept.get('oware');
  assert.equal(r.rating, rated(1200, p.puzzle().difficulty, 0));
  assert.equal(r.done[p.puzzle().id], 'failed');
  assert.ok(st.change < 0);
  // Still to solve; a second wrong move is not scored again.
  p.tryMove(wrong);
  assert.equal(kept.get('oware').rating, r.rating);
});

test('the line played to its end with the replies, solved, then judged by the engine', async () => {
  const { p, st, board, kept, asked } = panel();
  const i = find(3);
  p.openPuzzle(i);
  const { moves } = p.puzzle();
  p.tryMove(moves[0]);
  assert.equal(st.phase, 'reply');
  await tick();
  assert.equal(st.phase, 'solve', 'the reply played');
  assert.deepEqual(board().sown, moves.slice(0, 2));
  p.tryMove(moves[2]);
  assert.equal(st.phase, 'done');
  assert.equal(st.result, 'solved');
  assert.equal(kept.get('oware').streak, 1);
  await tick();
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0].moves, moves);
  assert.deepEqual(st.view.pv, ['b']);
  assert.ok(p.viewText().length > 0);
});

test('the hint marks the pit and counts as a miss; the keys play a pit that may be played', () => {
  const { p, st, board } = panel();
  p.openPuzzle(find(1));
  const m = p.puzzle().moves[0];
  p.showHint();
  assert.equal(board().hint, m);
  assert.equal(st.result, 'failed');
  board().legal = new Set(st.game.state().legal);
  const key = st.game.state().turn === 'south' ? m : m.toLowerCase();
  assert.equal(p.key('7'), false);
  assert.equal(p.key(key), true);
  assert.equal(st.phase, 'done');
  assert.equal(st.feedback.kind, 'done');
});

test('the puzzle of the day is the same for everyone that day', () => {
  const { p, st } = panel();
  p.openFor(true);
  assert.equal(st.daily, true);
  assert.equal(st.at, dailyIndex('2026-12-05', PUZZLES.length));
});
