// local.test.mjs: the local game's controller (web/local.js's localGame)
// in node, with a fake computer: how many moves Undo takes back, a hint
// dropped once the position it was about is gone, the computer's turn
// (its move played after the sowing; a search stopped by undo; a failed
// one said). No browser, no worker.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeEffects, loadEngines } from './fakes.mjs';
import { localGame } from '../../web/local.js';
import { setModel, undoCount, facts } from '../../web/model.js';

await loadEngines();

// A computer whose answers the test gives: each search waits in asked.
function fakeComputer() {
  const asked = [];
  const cpu = {
    asked,
    cancelled: 0,
    best: (req) => new Promise((resolve, reject) => asked.push({ type: 'best', req, resolve, reject })),
    hint: (req) => new Promise((resolve, reject) => asked.push({ type: 'hint', req, resolve, reject })),
    newGame: () => Promise.resolve(),
    cancel() {
      cpu.cancelled++;
      for (const a of asked.splice(0)) a.reject({ cancelled: true });
    },
  };
  return cpu;
}

// The game's own timer (its pause after the sowing, 0 ms here) is set a
// few promise steps after an answer: the test's is set after those steps
// (setImmediate runs once they are done), so it never fires first, however
// late a loaded machine runs the timers.
const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 5)));

function game(saved = null) {
  const { fx, said } = fakeEffects();
  const cpu = fakeComputer();
  const g = localGame({ saved, computer: () => /** @type {any} */ (cpu), pauseMs: 0, effects: fx }, () => {});
  setModel(g.state);
  return { g, st: g.state, said, cpu };
}

const vsComputer = (side, moves = []) => ({ kind: 'oware', moves, ai: { level: 'easy', side }, flipped: false, start: null });

test('two players: undo takes back one move at a time, and is saved', () => {
  const { g, st, said } = game();
  g.begin();
  assert.equal(undoCount(st), 0);
  g.play('c');
  g.play('A');
  assert.equal(undoCount(st), 1);
  g.undo();
  assert.deepEqual(st.timeline.moves, ['c']);
  assert.deepEqual(st.state.moves, ['c']);
  assert.deepEqual(JSON.parse(said.stored.get('oware.local')).moves, ['c']);
  assert.equal(said.finished, 1, 'a sowing running ends first');
  g.undo();
  assert.deepEqual(st.timeline.moves, []);
  g.undo();  // nothing left
  assert.deepEqual(st.timeline.moves, []);
});

test("the computer's turn: its search starts when the game reaches it, its move is played after", async () => {
  const { g, st, cpu } = game(vsComputer('north'));
  g.begin();
  assert.equal(cpu.asked.length, 0, 'South (the player) moves first');
  g.play('c');
  assert.equal(cpu.asked.length, 1);
  assert.deepEqual(cpu.asked[0].req.moves, ['c']);
  assert.equal(cpu.asked[0].req.level, 'easy');
  assert.ok(st.local.thinking);
  assert.equal(facts(st).canMove, false, "the pits wait for the computer's move");
  cpu.asked.shift().resolve({ move: 'B' });
  await tick();
  assert.deepEqual(st.timeline.moves, ['c', 'B']);
  assert.equal(st.local.thinking, null);
  // Undo takes back the reply and the player's move.
  assert.equal(undoCount(st), 2);
  g.undo();
  assert.deepEqual(st.timeline.moves, []);
});

test('the computer moving first starts at once; undo during its search stops it', async () => {
  const { g, st, cpu, said } = game(vsComputer('south'));
  g.begin();
  assert.equal(cpu.asked.length, 1);
  cpu.asked.shift().resolve({ move: 'd' });
  await tick();
  g.play('A');
  assert.equal(cpu.asked.length, 1, 'its next search');
  // The player takes back their move while the computer thinks.
  assert.equal(undoCount(st), 1);
  g.undo();
  assert.equal(cpu.cancelled, 1);
  assert.deepEqual(st.timeline.moves, ['d']);
  await tick();
  assert.deepEqual(said.toasts, [], 'a search stopped is not an error');
});

test("a search that fails is said, and the computer's turn can come again", async () => {
  const { g, st, cpu, said } = game(vsComputer('south'));
  g.begin();
  cpu.asked.shift().reject(new Error('worker failed'));
  await tick();
  assert.equal(said.toasts.length, 1);
  assert.equal(st.local.thinking, null);
});

test('a hint: shown for its position, dropped once the position is gone', async () => {
  const { g, st, cpu } = game();
  g.begin();
  g.askHint();
  assert.deepEqual(st.local.hint, { ply: 0 });
  cpu.asked.shift().resolve({ move: 'e' });
  await tick();
  assert.deepEqual(st.local.hint, { ply: 0, move: 'e' });
  assert.equal(facts(st).hint, 'e');
  // A move played: the hint is about another position.
  g.play('c');
  assert.equal(facts(st).hint, null);
  // Asked again, then a move before the answer: the answer is dropped.
  g.askHint();
  g.play('A');
  cpu.asked.shift().resolve({ move: 'b' });
  await tick();
  assert.equal(st.local.hint.move, undefined);
  assert.equal(facts(st).hint, null);
});

test('undo while a hint is searched stops the search and forgets the hint', () => {
  const { g, st, cpu } = game();
  g.begin();
  g.play('c');
  g.askHint();
  g.undo();
  assert.equal(cpu.cancelled, 1);
  assert.equal(st.local.hint, null);
});

test('a new game starts from the same position when the player says so', async () => {
  const { g, st, said } = game();
  g.begin();
  g.play('c');
  await g.newGame();
  assert.equal(said.confirms.length, 1);
  assert.deepEqual(st.timeline.moves, []);
  assert.equal(st.local.game, 2);
  assert.equal(st.state.game_number, 2);
});

test('a saved game the engine refuses part of opens at its start', () => {
  const { st } = game({ kind: 'oware', moves: ['c', 'c'], ai: null, flipped: true, start: null });
  assert.deepEqual(st.timeline.moves, []);
  assert.equal(st.flipped, true);
});
