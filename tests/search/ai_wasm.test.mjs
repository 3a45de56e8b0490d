// ai_wasm.test.mjs: web/ai.wasm (the search for web/ai-worker.js) under
// node: legal moves in whole games at every level, reproducible, and the
// same move, score and line as the native `oware best --depth N`.
// Env: AI_WASM (default web/ai.wasm), OWARE (default build/oware).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const LETTERS = 'abcdefABCDEF';
const wasmPath = process.env.AI_WASM || 'web/ai.wasm';
const oware = process.env.OWARE || 'build/oware';
let clock = 0;  // a fake clock: 1 ms a read, so time budgets are reproducible
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath),
  { env: { now_ms: () => (clock++) >>> 0 } });
const x = instance.exports;

function setGame(moves) {
  x.w_ai_start();
  for (const m of moves) assert.equal(x.w_ai_play(LETTERS.indexOf(m)), 0, `replay ${m}`);
}

function search(level, seed, timeMs, depth, nodes) {
  const pit = x.w_search(x.w_ai_game(), level, seed, timeMs, depth, nodes);
  const pv = [];
  for (let i = 0; i < x.w_search_npv(); i++) pv.push(LETTERS[x.w_search_pv(i)]);
  return { pit, move: LETTERS[pit], score: x.w_search_score(), depth: x.w_search_depth(),
    nodes: x.w_search_nodes(), pv };
}

test('whole games at every level play only legal moves', () => {
  for (let game = 0; game < 6; game++) {
    x.w_search_clear();
    setGame([]);
    const moves = [];
    let over = false;
    for (let ply = 0; ply < 400 && !over; ply++) {
      const level = (game + ply) % 3;
      const r = search(level, game * 1000 + ply, level === 2 ? 20 : 0, 0, level === 2 ? 0 : 0);
      if (r.pit === -5) { over = true; break; }
      assert.ok(r.pit >= 0 && r.pit < 12, `ply ${ply}: ${r.pit}`);
      assert.equal(r.pv[0], r.move);
      assert.equal(x.w_ai_play(r.pit), 0, `ply ${ply}: ${r.move} illegal`);
      moves.push(r.move);
    }
    assert.ok(over, `game ${game} ended`);
    assert.ok(moves.length > 10);
  }
});

test('the same seed and a cleared table give the same result', () => {
  const moves = ['c', 'F', 'a', 'B'];
  for (const level of [0, 1]) {
    setGame(moves);
    x.w_search_clear();
    const a = search(level, 42, 0, 0, 0);
    x.w_search_clear();
    const b = search(level, 42, 0, 0, 0);
    assert.deepEqual(a, b);
  }
  setGame(moves);
  x.w_search_clear();
  const a = search(2, 1, 0, 0, 5000);
  x.w_search_clear();
  const b = search(2, 1, 0, 0, 5000);
  assert.deepEqual(a, b);
  assert.ok(a.nodes <= 5000, `node budget: ${a.nodes}`);
});

test('bad positions and moves are refused', () => {
  const input = new Int32Array(x.memory.buffer, x.w_ai_input(), 15);
  input.fill(4);
  input[12] = 0; input[13] = 1; input[14] = 0;  // 49 seeds
  assert.notEqual(x.w_ai_from_input(), 0);
  x.w_ai_start();
  assert.notEqual(x.w_ai_play(6), 0);  // North's pit, South to move
  assert.equal(x.w_search(x.w_ai_game(), 7, 1, 0, 0, 0), -9);
});

test('wasm and native agree at a fixed depth', () => {
  const lines = [[], ['a'], ['c', 'F'], ['d', 'A', 'f', 'C'], ['b', 'E', 'a', 'F', 'c', 'B']];
  for (const moves of lines) {
    for (const depth of [1, 4, 9, 13]) {
      setGame(moves);
      x.w_search_clear();
      const w = search(0, 1, 0, depth, 0);
      const native = JSON.parse(execFileSync(oware, ['best', '--depth', String(depth), ...moves],
        { encoding: 'utf8' }));
      assert.deepEqual({ move: w.move, score: w.score, depth: w.depth, nodes: w.nodes, pv: w.pv },
        native, `${moves.join(' ')} depth ${depth}`);
    }
  }
});

test('the ladder: levels 10 + n give the move of oware best --level n', () => {
  const lines = [[], ['a'], ['c', 'F'], ['d', 'A', 'f', 'C'], ['b', 'E', 'a', 'F', 'c', 'B']];
  for (let n = 1; n <= 12; n++) {  // 13, hard, is timed natively
    for (const moves of lines) {
      setGame(moves);
      x.w_search_clear();
      const w = search(10 + n, 7 + n, 0, 0, 0);
      const native = JSON.parse(execFileSync(oware, ['best', '--level', String(n), '--seed',
        String(7 + n), ...moves], { encoding: 'utf8' }));
      assert.deepEqual({ move: w.move, score: w.score, depth: w.depth, nodes: w.nodes, pv: w.pv },
        native, `level ${n} after ${moves.join(' ')}`);
    }
  }
  setGame([]);
  assert.equal(x.w_search(x.w_ai_game(), 10, 1, 0, 0, 0), -9);
  assert.equal(x.w_search(x.w_ai_game(), 24, 1, 0, 0, 0), -9);
  const hard = search(23, 1, 0, 0, 3000);  // hard, at a node budget
  assert.ok(hard.pit >= 0 && hard.nodes <= 3000, `hard: ${hard.nodes} nodes`);
});
