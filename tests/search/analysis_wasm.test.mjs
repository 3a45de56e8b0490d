// analysis_wasm.test.mjs: the analysis of web/ai.wasm (w_analyse, engine/
// analysis.h) agrees with the native `oware analyse --nodes N` on the same
// node budget, ply by ply: best move, line, scores, loss, class, depth, nodes.
// Env: AI_WASM (default web/ai.wasm), OWARE (default build/oware),
// EGDB (default web/oware.egdb).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const LETTERS = 'abcdefABCDEF';
const CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const wasmPath = process.env.AI_WASM || 'web/ai.wasm';
const oware = process.env.OWARE || 'build/oware';
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath),
  { env: { now_ms: () => 0 } });
const x = instance.exports;

// The report at w_analysis() (layout pinned in web/wasm/search_exports.c).
function report() {
  const b = x.w_analysis();
  const i32 = new Int32Array(x.memory.buffer, b, 11);
  const u32 = new Uint32Array(x.memory.buffer, b + 32, 2);
  const pv = [...new Uint8Array(x.memory.buffer, b + 44, i32[10])].map((p) => LETTERS[p]);
  return { side: i32[0], move: LETTERS[i32[1]], best: LETTERS[i32[2]], before: i32[3],
    after: i32[4], loss: i32[5], cls: i32[6], depth: i32[7], nodes: u32[0] + u32[1] * 2 ** 32, pv };
}

// South's view in seeds and the proven field, as `oware analyse` prints them.
// skip: 1 for the position after the move.
function proven(score, side, skip = 0) {
  const n = x.w_analysis_proven(score);
  if (!n) return null;
  const mover = side === 0 ? 'south' : 'north', other = side === 0 ? 'north' : 'south';
  return { winner: n > 0 ? mover : other, plies: Math.abs(n) - skip };
}

function analyseWasm(position, moves, nodes) {
  x.w_search_clear();
  if (position) {
    const input = new Int32Array(x.memory.buffer, x.w_ai_input(), 15);
    input.set([...position.pits, position.captured.south, position.captured.north,
      position.turn === 'south' ? 0 : 1]);
    assert.equal(x.w_ai_from_input(), 0);
  } else {
    x.w_ai_start();
  }
  const out = [];
  for (const m of moves) {
    const pit = LETTERS.indexOf(m);
    assert.equal(x.w_analyse(x.w_ai_game(), pit, nodes, 0), 0, `analyse ${m}`);
    out.push(report());
    assert.equal(x.w_ai_play(pit), 0);
  }
  return out;
}

function check(position, moves, nodes, egdb = null) {
  const args = ['analyse', '--nodes', String(nodes)];
  if (position) args.push('--position', JSON.stringify(position));
  if (egdb) args.push('--egdb', egdb);
  const native = JSON.parse(execFileSync(oware, [...args, ...moves], { encoding: 'utf8' }));
  const wasm = analyseWasm(position, moves, nodes);
  assert.equal(native.plies.length, moves.length);
  native.plies.forEach((p, k) => {
    const w = wasm[k], last = k === moves.length - 1 && native.end.over;
    const got = {
      move: w.move, best: w.best, pv: w.pv, depth: w.depth, nodes: w.nodes,
      class: CLASSES[w.cls], loss: w.loss / 16,
      eval_before: x.w_analysis_south(w.before, w.side) / 16,
      proven_before: proven(w.before, w.side),
    };
    if (!last) {
      got.eval_after = x.w_analysis_south(w.after, w.side) / 16;
      got.proven_after = proven(w.after, w.side, 1);
    }
    const want = { move: p.move, best: p.best, pv: p.pv, depth: p.depth, nodes: p.nodes,
      class: p.class, loss: p.loss, eval_before: p.eval_before, proven_before: p.proven_before };
    if (!last) { want.eval_after = p.eval_after; want.proven_after = p.proven_after; }
    assert.deepEqual(got, want, `ply ${k + 1}`);
  });
}

test('wasm and native analyses agree on the same node budget', () => {
  // 30 plies of a game between the medium level and itself, from the start.
  check(null, 'c B e D c A b A e D c B a D b C c A b D a B c C d A a F e E'.split(' '), 20000);
});

test('from a position, up to a proven end', () => {
  check({ pits: [2, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 2], captured: { south: 21, north: 19 },
    turn: 'south' }, ['f', 'C', 'd', 'D', 'a', 'F', 'a', 'E', 'b', 'F'], 20000);
  check({ pits: [2, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 2], captured: { south: 21, north: 19 },
    turn: 'south' }, ['a', 'C'], 20000);
});

test('with the endgame database loaded (as the page does), the same as oware analyse --egdb', () => {
  const file = process.env.EGDB || 'web/oware.egdb';
  const bytes = readFileSync(file);
  const at = x.w_egdb_buffer(bytes.length);
  assert.notEqual(at, 0);
  new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
  assert.equal(x.w_egdb_open(bytes.length), 0);
  try {
    // 14 seeds left: the database decides within a ply or two.
    const pos = { pits: [2, 1, 0, 3, 0, 1, 1, 0, 2, 0, 3, 1], captured: { south: 18, north: 16 },
      turn: 'south' };
    const native = JSON.parse(execFileSync(oware, ['analyse', '--nodes', '3000', '--egdb', file,
      '--position', JSON.stringify(pos), 'f', 'C'], { encoding: 'utf8' }));
    const plain = JSON.parse(execFileSync(oware, ['analyse', '--nodes', '3000',
      '--position', JSON.stringify(pos), 'f', 'C'], { encoding: 'utf8' }));
    assert.notDeepEqual(native.plies, plain.plies, 'the database changes the analysis here');
    check(pos, ['f', 'C'], 3000, file);
  } finally {
    x.w_egdb_buffer(0);  // closes it: the other tests run without
  }
});
