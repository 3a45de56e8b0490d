// wasm.test.mjs: web/engine.wasm (through web/engine.js) agrees with the
// native engine behind `oware play` / `oware perft`.
// Run: OWARE=build/oware node --test tests/wasm/   (make test-wasm)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, Game, EngineError, replay } from '../../web/engine.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWARE = path.resolve(root, process.env.OWARE || 'build/oware');
const WASM = path.resolve(root, process.env.ENGINE_WASM || 'web/engine.wasm');

await loadEngine(fs.readFileSync(WASM));

// A small deterministic PRNG (mulberry32) so a failure can be replayed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (rand, list) => list[Math.floor(rand() * list.length)];

function native(args) {
  return JSON.parse(execFileSync(OWARE, args, { encoding: 'utf8' }));
}

// A random valid position: 48 seeds spread over the pits and two scores.
function randomPosition(rand) {
  const south = Math.floor(rand() * 20), north = Math.floor(rand() * 20);
  const pits = new Array(12).fill(0);
  for (let left = 48 - south - north; left > 0; left--) pits[Math.floor(rand() * 12)]++;
  return { pits, captured: { south, north }, turn: rand() < 0.5 ? 'south' : 'north' };
}

// Plays random legal moves until the end (or maxPlies); returns the letters.
function randomGame(g, rand, maxPlies = 1000) {
  const moves = [];
  while (!g.over && moves.length < maxPlies) {
    const m = pick(rand, g.legal());
    g.play(m);
    moves.push(m);
  }
  return moves;
}

test('perft 1..7 from the start matches docs/rules-oware.md', () => {
  const want = [1, 6, 36, 190, 1014, 5219, 27332, 139157];
  const g = Game.start();
  for (let d = 0; d <= 7; d++) assert.equal(g.perft(d), want[d], `perft ${d}`);
});

test('perft from random positions matches oware perft', () => {
  const rand = rng(7);
  for (let i = 0; i < 6; i++) {
    const pos = randomPosition(rand);
    const g = Game.fromPosition(pos);
    const d = 1 + (i % 5);
    const out = execFileSync(OWARE, ['perft', String(d), '--position', JSON.stringify(pos)],
      { encoding: 'utf8' });
    assert.equal(g.perft(d), Number(out.trim()), `perft ${d} of ${JSON.stringify(pos)}`);
  }
});

test('worked example: opening a', () => {
  const g = Game.start();
  const info = g.play('a');
  assert.deepEqual(info, { pit: 'a', sown: ['b', 'c', 'd', 'e'], captured: [], seeds: 0, grand_slam: false });
  assert.deepEqual(g.state(), native(['play', 'a']));
});

test('300 random games end in the same state as oware play', () => {
  const rand = rng(2026);
  const reasons = {};
  let plies = 0;
  for (let i = 0; i < 300; i++) {
    const g = Game.start();
    const moves = randomGame(g, rand);
    plies += moves.length;
    const want = native(['play', ...moves]);
    assert.deepEqual(g.state(), want, `game ${i}: ${moves.join(' ')}`);
    assert.equal(g.over, true);
    reasons[want.reason] = (reasons[want.reason] || 0) + 1;
  }
  // The sample must reach more than one kind of ending to mean something.
  assert.ok(Object.keys(reasons).length >= 2, JSON.stringify(reasons));
  assert.ok(plies > 300 * 20);
});

test('every prefix of a few games matches oware play', () => {
  const rand = rng(11);
  for (let i = 0; i < 3; i++) {
    const g = Game.start();
    const moves = randomGame(g, rand);
    const h = Game.start();
    for (let k = 0; k < moves.length; k += 1 + Math.floor(rand() * 6)) {
      while (h.moves.length < k) h.play(moves[h.moves.length]);
      assert.deepEqual(h.state(), native(['play', ...moves.slice(0, k)]), `prefix ${k} of ${moves.join(' ')}`);
    }
  }
});

test('random games from random positions match oware play --position', () => {
  const rand = rng(99);
  for (let i = 0; i < 60; i++) {
    const pos = randomPosition(rand);
    const g = Game.fromPosition(pos);
    const moves = randomGame(g, rand, 1 + Math.floor(rand() * 80));
    const want = native(['play', '--position', JSON.stringify(pos), ...moves]);
    assert.deepEqual(g.state(), want, `${JSON.stringify(pos)} ${moves.join(' ')}`);
  }
});

test('an illegal move is refused by both at the same ply', () => {
  const rand = rng(5);
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const g = Game.start();
    const moves = randomGame(g.clone(), rand, Math.floor(rand() * 60));
    const h = replay(moves);
    const bad = 'abcdefABCDEF'.split('').filter((m) => !h.legal().includes(m));
    if (bad.length === 0) continue;
    const m = pick(rand, bad);
    assert.throws(() => h.play(m), EngineError);
    assert.deepEqual(h.moves, moves, 'a refused move leaves the game unchanged');
    const r = spawnSync(OWARE, ['play', ...moves, m], { encoding: 'utf8' });
    assert.equal(r.status, 2, `oware accepted ${moves.join(' ')} ${m}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`ply ${moves.length + 1}\\b`));
    refused++;
  }
  assert.ok(refused > 20);
});

test('invalid positions are refused with the field named', () => {
  const start = { pits: new Array(12).fill(4), captured: { south: 0, north: 0 }, turn: 'south' };
  const bad = (change) => { const p = structuredClone(start); change(p); return p; };
  assert.throws(() => Game.fromPosition(bad((p) => { p.pits[3] = -1; p.pits[4] = 9; })),
    (e) => e.code === 'negative' && e.field === 'pits[3]');
  assert.throws(() => Game.fromPosition(bad((p) => { p.pits[0] = 5; })), (e) => e.code === 'sum');
  assert.throws(() => Game.fromPosition(bad((p) => { p.turn = 'east'; })), (e) => e.code === 'turn');
  assert.throws(() => Game.fromPosition(bad((p) => { p.pits.pop(); })), (e) => e.code === 'bad_position');
  assert.throws(() => Game.fromPosition(bad((p) => { p.captured.north = 'x'; })), (e) => e.code === 'bad_position');
});

test('preview leaves the game unchanged and agrees with play', () => {
  const rand = rng(3);
  for (let i = 0; i < 50; i++) {
    const g = Game.start();
    randomGame(g, rand, Math.floor(rand() * 40));
    if (g.over) continue;
    const before = g.state();
    for (const m of before.legal) {
      const p = g.preview(m);
      assert.deepEqual(g.state(), before);
      const c = g.clone();
      assert.deepEqual(c.play(m), p.move);
      assert.deepEqual(c.state(), p.state);
    }
    for (const m of 'abcdefABCDEF') {
      if (!before.legal.includes(m)) assert.equal(typeof g.preview(m).error, 'string', m);
    }
  }
});

test('games interleave: each keeps its own state', () => {
  const a = Game.start(), b = Game.start();
  a.play('c');
  b.play('f');
  a.play('A');
  assert.deepEqual(a.state(), native(['play', 'c', 'A']));
  assert.deepEqual(b.state(), native(['play', 'f']));
  const c = a.clone();
  c.play('d');
  assert.deepEqual(a.state(), native(['play', 'c', 'A']));
  assert.deepEqual(c.state(), native(['play', 'c', 'A', 'd']));
});
