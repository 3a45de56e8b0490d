// togyz.test.mjs: web/togyz.wasm (the Togyz Kumalak engine for the browser,
// web/wasm/togyz_exports.c) agrees with the native engine behind
// `oware play --game togyz` / `oware perft --game togyz`.
// Run: OWARE=build/oware TOGYZ_WASM=web/togyz.wasm node --test tests/wasm/togyz.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWARE = path.resolve(root, process.env.OWARE || 'build/oware');
const WASM = path.resolve(root, process.env.TOGYZ_WASM || 'web/togyz.wasm');
const DATA = path.resolve(root, 'tests/data');

const { instance } = await WebAssembly.instantiate(fs.readFileSync(WASM), {});
const w = instance.exports;

// Offsets pinned by the _Static_asserts of web/wasm/togyz_exports.c.
const PITS = 18, G_CAPTURED = 18, G_TUZDYK = 20, G_TURN = 22, G_PLY = 24, G_END = 26, G_WINNER = 27;
const I_PIT = 0, I_NSOWN = 1, I_SOWN = 2, I_LAST = 164, I_CAPT = 165, I_SEEDS = 166, I_TUZDYK = 167, I_TO_TUZDYK = 168;
const NONE = 255;
const SIDES = ['south', 'north'];
const REASONS = [null, 'score', null, null, 'no_moves'];
const WINNERS = { '-1': null, 0: 'south', 1: 'north', 2: 'draw' };

const bytes = (addr, n) => new Uint8Array(w.memory.buffer, addr, n);

// The working game in the JSON shape of `oware play --game togyz`.
function state(addr = w.w_game()) {
  const b = bytes(addr, w.w_game_size());
  const dv = new DataView(w.memory.buffer, addr, w.w_game_size());
  const end = dv.getInt8(G_END), turn = b[G_TURN];
  const legal = [];
  if (end === 0) for (let i = 0; i < 9; i++) if (b[turn * 9 + i]) legal.push(i + 1);
  const tz = (s) => (b[G_TUZDYK + s] === NONE ? null : (b[G_TUZDYK + s] % 9) + 1);
  return {
    pits: Array.from(b.slice(0, PITS)),
    captured: { south: b[G_CAPTURED], north: b[G_CAPTURED + 1] },
    tuzdyk: { south: tz(0), north: tz(1) },
    turn: SIDES[turn],
    legal,
    over: end !== 0,
    winner: WINNERS[dv.getInt8(G_WINNER)],
    reason: REASONS[end],
  };
}

// Starts the working game from a position object; returns the engine's code.
function fromPosition(pos) {
  const input = new Int32Array(w.memory.buffer, w.w_input(), PITS + 5);
  input.set(pos.pits, 0);
  input[18] = pos.captured.south;
  input[19] = pos.captured.north;
  input[20] = pos.tuzdyk.south ?? 0;
  input[21] = pos.tuzdyk.north ?? 0;
  input[22] = SIDES.indexOf(pos.turn);
  return w.w_from_input();
}

const native = (args) => execFileSync(OWARE, args, { encoding: 'utf8' });
const nativeGame = (args) => JSON.parse(native(['play', '--game', 'togyz', ...args]));

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

// A random valid position: 162 seeds, maybe tuzdyks (their holes empty).
function randomPosition(rand) {
  const south = Math.floor(rand() * 60), north = Math.floor(rand() * 60);
  const pits = new Array(PITS).fill(0);
  const tzs = rand() < 0.5 ? 1 + Math.floor(rand() * 8) : null;
  let tzn = rand() < 0.5 ? 1 + Math.floor(rand() * 8) : null;
  if (tzn === tzs) tzn = null;
  const blocked = new Set([tzs ? 8 + tzs : -1, tzn ? tzn - 1 : -1]);
  for (let left = 162 - south - north; left > 0;) {
    const i = Math.floor(rand() * PITS);
    if (!blocked.has(i)) { pits[i]++; left--; }
  }
  return { pits, captured: { south, north }, tuzdyk: { south: tzs, north: tzn },
    turn: rand() < 0.5 ? 'south' : 'north' };
}

test('perft from the start matches docs/rules-togyz.md', () => {
  const lines = fs.readFileSync(path.join(DATA, 'togyz-perft.txt'), 'utf8').split('\n');
  w.w_start();
  assert.equal(w.w_perft(0), 1);
  let checked = 0;
  for (const line of lines) {
    const [d, n] = line.split(' ').map(Number);
    if (line.startsWith('#') || !d || d > 7) continue;
    assert.equal(w.w_perft(d), n, `perft ${d}`);
    checked++;
  }
  assert.equal(checked, 7);
});

test('perft from random positions matches oware perft --game togyz', () => {
  const rand = rng(9);
  for (let i = 0; i < 8; i++) {
    const pos = randomPosition(rand);
    assert.equal(fromPosition(pos), 0, JSON.stringify(pos));
    const d = 1 + (i % 5);
    const want = Number(native(['perft', '--game', 'togyz', String(d), '--position', JSON.stringify(pos)]).trim());
    assert.equal(w.w_perft(d), want, `perft ${d} of ${JSON.stringify(pos)}`);
    assert.deepEqual(state(), nativeGame(['--position', JSON.stringify(pos)]));
  }
});

test('opening 9: the move record and its notation', () => {
  w.w_start();
  assert.equal(w.w_play(8), 0);
  const info = bytes(w.w_info(), 170);
  assert.equal(info[I_PIT], 8);
  assert.equal(info[I_NSOWN], 9);
  assert.deepEqual(Array.from(info.slice(I_SOWN, I_SOWN + 9)), [8, 9, 10, 11, 12, 13, 14, 15, 16]);
  assert.equal(info[I_LAST], 16);
  assert.equal(info[I_CAPT], 16);
  assert.equal(info[I_SEEDS], 10);
  assert.equal(info[I_TUZDYK], 0);
  assert.deepEqual(Array.from(info.slice(I_TO_TUZDYK, I_TO_TUZDYK + 2)), [0, 0]);
  assert.equal(new TextDecoder().decode(bytes(w.w_notation(), 2)), '98');
  assert.deepEqual(state(), nativeGame(['9']));
});

test('150 random games end in the same state as oware play --game togyz', () => {
  const rand = rng(2026);
  for (let i = 0; i < 150; i++) {
    w.w_start();
    const holes = [];
    while (w.w_legal()) {
      const mask = w.w_legal(), pits = [];
      for (let p = 0; p < PITS; p++) if (mask & (1 << p)) pits.push(p);
      const pit = pits[Math.floor(rand() * pits.length)];
      // A preview leaves the game as it was.
      const before = Array.from(bytes(w.w_game(), w.w_game_size()));
      assert.equal(w.w_preview(pit), 0);
      assert.deepEqual(Array.from(bytes(w.w_game(), w.w_game_size())), before);
      const previewed = state(w.w_scratch());
      assert.equal(w.w_play(pit), 0);
      assert.deepEqual(state(), previewed);
      holes.push(String((pit % 9) + 1));
      if (i % 25 === 0 && holes.length % 20 === 0)
        assert.deepEqual(state(), nativeGame(holes), `after ${holes.join(' ')}`);
    }
    assert.deepEqual(state(), nativeGame(holes), `game ${holes.join(' ')}`);
    assert.equal(new DataView(w.memory.buffer, w.w_game(), 28).getUint16(G_PLY, true), holes.length);
  }
});

test('the Kazakh records replay with their notation', () => {
  const text = fs.readFileSync(path.join(DATA, 'togyz-games.txt'), 'utf8');
  let games = 0;
  for (const block of text.split(/^game /m).slice(1)) {
    if (!/^xmarks yes/m.test(block)) continue;
    const moves = [...block.matchAll(/^moves (.*)$/gm)].flatMap((m) => m[1].trim().split(/\s+/));
    w.w_start();
    for (const [k, t] of moves.entries()) {
      const turn = bytes(w.w_game(), 28)[G_TURN];
      assert.equal(w.w_play(turn * 9 + Number(t[0]) - 1), 0, `ply ${k + 1}`);
      const text2 = new TextDecoder().decode(bytes(w.w_notation(), 3)).replace(/\0.*$/, '');
      assert.equal(text2, t, `ply ${k + 1}`);
    }
    games++;
  }
  assert.equal(games, 2);
});

test('bad moves and positions are refused as natively', () => {
  w.w_start();
  const before = Array.from(bytes(w.w_game(), 28));
  assert.equal(w.w_play(-1), -1);
  assert.equal(w.w_play(18), -1);
  assert.equal(w.w_play(9), -2);
  assert.deepEqual(Array.from(bytes(w.w_game(), 28)), before);
  const start = { pits: new Array(18).fill(9), captured: { south: 0, north: 0 },
    tuzdyk: { south: null, north: null }, turn: 'south' };
  const cases = [
    [{ ...start, pits: [...start.pits.slice(0, 17), 8] }, -7, -1],
    [{ ...start, tuzdyk: { south: 4, north: null } }, -11, 20],
    [{ ...start, tuzdyk: { south: 9, north: null } }, -9, 20],
  ];
  for (const [pos, code, field] of cases) {
    assert.equal(fromPosition(pos), code, JSON.stringify(pos));
    assert.equal(w.w_input_field(), field);
    const r = spawnSync(OWARE, ['play', '--game', 'togyz', '--position', JSON.stringify(pos)], { encoding: 'utf8' });
    assert.equal(r.status, 2);
  }
  assert.deepEqual(Array.from(bytes(w.w_game(), 28)), before);
});
