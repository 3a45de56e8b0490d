// togyz_ai.test.mjs: web/togyz-ai.wasm (the Togyz Kumalak search of
// web/ai-worker.js) under node agrees with the native engine: perft
// from the start and from random positions, the end of random games, and
// the same move, score, depth, nodes and line as `oware best --game togyz
// --depth N`; whole games at every level play only legal moves.
// Env: TOGYZ_AI_WASM (default web/togyz-ai.wasm), OWARE (default build/oware).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const wasmPath = process.env.TOGYZ_AI_WASM || 'web/togyz-ai.wasm';
const oware = process.env.OWARE || 'build/oware';
let clock = 0;  // a fake clock: 1 ms a read
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath),
  { env: { now_ms: () => (clock++) >>> 0 } });
const x = instance.exports;
const G_END = 26, G_WINNER = 27;

const native = (...args) => execFileSync(oware, args, { encoding: 'utf8' }).trim();
const hole = (pit) => String(pit % 9 + 1);
const turnOf = () => new Uint8Array(x.memory.buffer, x.w_tg_game(), 28)[22];

let seed = 12345;
function rnd(n) { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; }

// Plays random legal moves from the start; returns the holes played.
function randomLine(plies) {
  x.w_tg_start();
  const holes = [];
  for (let k = 0; k < plies; k++) {
    const side = turnOf();
    const legal = [];
    for (let h = 0; h < 9; h++) {
      const g = new Uint8Array(x.memory.buffer, x.w_tg_game(), 28);
      if (g[side * 9 + h] && g[G_END] === 0) legal.push(side * 9 + h);
    }
    if (!legal.length) break;
    const pit = legal[rnd(legal.length)];
    assert.equal(x.w_tg_play(pit), 0);
    holes.push(hole(pit));
    if (new Uint8Array(x.memory.buffer, x.w_tg_game(), 28)[G_END] !== 0) break;
  }
  return holes;
}

function replay(holes) {
  x.w_tg_start();
  for (const h of holes) assert.equal(x.w_tg_play(turnOf() * 9 + Number(h) - 1), 0);
}

test('perft from the start: the values of docs/rules-togyz.md', () => {
  x.w_tg_start();
  assert.deepEqual([1, 2, 3, 4, 5].map((d) => x.w_tg_perft(d)), [9, 73, 613, 5199, 43184]);
});

test('random games: perft and the end agree with oware play/perft --game togyz', () => {
  for (let k = 0; k < 12; k++) {
    const holes = randomLine(20 + rnd(200));
    const g = new Int8Array(x.memory.buffer, x.w_tg_game(), 28);
    const want = JSON.parse(native('play', '--game', 'togyz', ...holes));
    const pits = Array.from(new Uint8Array(x.memory.buffer, x.w_tg_game(), 18));
    assert.deepEqual(pits, want.pits, `pits after ${holes.join(' ')}`);
    assert.equal(g[G_END] !== 0, want.over);
    if (want.over) {
      assert.equal({ 0: 'south', 1: 'north', 2: 'draw' }[g[G_WINNER]], want.winner);
    } else {
      assert.equal(x.w_tg_perft(3), Number(native('perft', '--game', 'togyz', '3', '--position', JSON.stringify(want))));
    }
  }
});

test('the same search as oware best --game togyz --depth N', () => {
  for (let k = 0; k < 8; k++) {
    const holes = randomLine(rnd(60));
    if (new Uint8Array(x.memory.buffer, x.w_tg_game(), 28)[G_END] !== 0) continue;
    const depth = 3 + (k % 5);
    replay(holes);
    x.w_tg_clear();
    const pit = x.w_tg_search(2, 1, 0, depth, 0);
    assert.ok(pit >= 0);
    const pv = [];
    for (let i = 0; i < x.w_tg_npv(); i++) pv.push(Number(hole(x.w_tg_pv(i))));
    const got = { move: Number(hole(pit)), score: x.w_tg_score(), depth: x.w_tg_depth(), nodes: x.w_tg_nodes(), pv };
    const want = JSON.parse(native('best', '--game', 'togyz', '--depth', String(depth), ...holes));
    assert.deepEqual(got, want, `after ${holes.join(' ')}`);
  }
});

test('whole games at every level play only legal moves, to the end', () => {
  for (let game = 0; game < 3; game++) {
    x.w_tg_clear();
    x.w_tg_start();
    let over = false;
    for (let ply = 0; ply < 600 && !over; ply++) {
      const level = (game + ply) % 3;
      const pit = x.w_tg_search(level, game * 1000 + ply, 0, 0, level === 2 ? 5000 : 0);
      if (pit === -5) { over = true; break; }
      assert.ok(pit >= turnOf() * 9 && pit < turnOf() * 9 + 9, `ply ${ply}: ${pit}`);
      assert.equal(x.w_tg_pv(0), pit);
      assert.equal(x.w_tg_play(pit), 0);
    }
    assert.ok(over);
  }
  assert.equal(x.w_tg_search(9, 1, 0, 0, 0), -9);  // an unknown level
});

test('the ladder: levels 10 + n give the move of oware best --game togyz --level n', () => {
  for (let k = 0; k < 10; k++) {
    const holes = randomLine(rnd(40));
    if (new Uint8Array(x.memory.buffer, x.w_tg_game(), 28)[G_END] !== 0) continue;
    const n = 1 + k;  // 1..10 (11, hard, is timed natively)
    replay(holes);
    x.w_tg_clear();
    const pit = x.w_tg_search(10 + n, 40 + k, 0, 0, 0);
    assert.ok(pit >= 0);
    const pv = [];
    for (let i = 0; i < x.w_tg_npv(); i++) pv.push(Number(hole(x.w_tg_pv(i))));
    const got = { move: Number(hole(pit)), score: x.w_tg_score(), depth: x.w_tg_depth(), nodes: x.w_tg_nodes(), pv };
    const want = JSON.parse(native('best', '--game', 'togyz', '--level', String(n),
      '--seed', String(40 + k), ...holes));
    assert.deepEqual(got, want, `level ${n} after ${holes.join(' ')}`);
  }
  x.w_tg_start();
  assert.equal(x.w_tg_search(10, 1, 0, 0, 0), -9);
  assert.equal(x.w_tg_search(22, 1, 0, 0, 0), -9);  // Oware's hard: Togyz Kumalak has 11 steps
  assert.ok(x.w_tg_search(21, 1, 0, 0, 1000) >= 0);  // hard, at a node budget
});
