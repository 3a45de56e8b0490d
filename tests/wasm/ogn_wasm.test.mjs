// ogn_wasm.test.mjs: the records of web/engine.wasm (w_ogn_*, w_fen_*,
// engine/ogn.h) are the same as the native `oware ogn`, both ways.
// Run: OWARE=build/oware node --test tests/wasm/   (make test-wasm)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWARE = path.resolve(root, process.env.OWARE || 'build/oware');
const WASM = path.resolve(root, process.env.ENGINE_WASM || 'web/engine.wasm');
const { instance } = await WebAssembly.instantiate(fs.readFileSync(WASM), {});
const x = instance.exports;
const LETTERS = 'abcdefABCDEF';
const enc = new TextEncoder(), dec = new TextDecoder();

function cstr(addr) {
  const m = new Uint8Array(x.memory.buffer);
  let end = addr;
  while (m[end]) end++;
  return dec.decode(m.subarray(addr, end));
}

function putText(s) {
  const b = enc.encode(s);
  assert.ok(b.length <= x.w_ogn_text_size());
  new Uint8Array(x.memory.buffer, x.w_ogn_text(), b.length).set(b);
  return b.length;
}

// Writes a record in wasm: moves in our letters, tags, maybe a position.
function writeWasm(moves, { south = '', north = '', date = '', position = null } = {}) {
  new Uint8Array(x.memory.buffer, x.w_ogn_moves(), moves.length)
    .set(moves.map((m) => LETTERS.indexOf(m)));
  [south, north, date, ''].forEach((v, i) => {
    const b = enc.encode(v);
    const dst = new Uint8Array(x.memory.buffer, x.w_ogn_tag(i), 256);
    dst.fill(0);
    dst.set(b);
  });
  if (position) {
    new Int32Array(x.memory.buffer, x.w_input(), 15).set([...position.pits,
      position.captured.south, position.captured.north, position.turn === 'south' ? 0 : 1]);
  }
  const n = x.w_ogn_write(moves.length, position ? 1 : 0);
  assert.ok(n > 0, `w_ogn_write: ${n}`);
  return dec.decode(new Uint8Array(x.memory.buffer, x.w_ogn_text(), n));
}

function readWasm(text) {
  const rc = x.w_ogn_read(putText(text));
  if (rc) return { line: x.w_ogn_line(), err: cstr(x.w_ogn_err()) };
  const moves = [];
  for (let i = 0; i < x.w_ogn_nmoves(); i++) moves.push(LETTERS[x.w_ogn_move(i)]);
  const tags = {};
  for (let i = 0; i < x.w_ogn_ntags(); i++) tags[cstr(x.w_ogn_tag_name(i))] = cstr(x.w_ogn_tag_value(i));
  const g = new Uint8Array(x.memory.buffer, x.w_ogn_game(), 22);
  return { moves, tags, pits: [...g.slice(0, 12)], captured: [g[12], g[13]], end: g[20] };
}

const games = [
  { moves: 'c F a B d A'.split(' '), south: 'Aualé "Ama"', north: 'Kofi \\ K', date: '2026.11.30' },
  { moves: [], position: null },
  { moves: ['f'], position: { pits: [0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 0, 0],
    captured: { south: 23, north: 18 }, turn: 'south' } },
  { moves: 'A b B'.split(' '), position: { pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    captured: { south: 0, north: 0 }, turn: 'north' } },
];

test('wasm writes what oware ogn writes, and reads it back', () => {
  for (const g of games) {
    const args = ['ogn'];
    if (g.position) args.push('--position', JSON.stringify(g.position));
    if (g.south) args.push('--south', g.south);
    if (g.north) args.push('--north', g.north);
    if (g.date) args.push('--date', g.date);
    const native = execFileSync(OWARE, [...args, ...g.moves], { encoding: 'utf8' });
    const text = writeWasm(g.moves, g);
    assert.equal(text, native);
    const r = readWasm(text);
    assert.deepEqual(r.moves, g.moves);
    const nat = JSON.parse(execFileSync(OWARE, ['ogn', '--read', '-'], { input: text, encoding: 'utf8' }));
    assert.deepEqual(r.tags, nat.tags);
    assert.deepEqual(r.pits, nat.pits);
    assert.deepEqual(r.captured, [nat.captured.south, nat.captured.north]);
    assert.equal(r.end !== 0, nat.over);
  }
});

test('a refused record names its line and reason, as oware ogn --read does', () => {
  const text = '[Variant "Oware Abapa"]\n\n1. A a 2. A\n';
  assert.deepEqual(readWasm(text), { line: 3, err: 'move 3 "A": the pit is empty' });
  const out = (() => {
    try { execFileSync(OWARE, ['ogn', '--read', '-'], { input: text, stdio: 'pipe' }); } catch (e) {
      return { status: e.status, stdout: String(e.stdout), stderr: String(e.stderr) };
    }
    return null;
  })();
  assert.deepEqual(out, { status: 2, stdout: '',
    stderr: 'oware: ogn: -: line 3: move 3 "A": the pit is empty\n' });
});

test('FEN in and out of the working game', () => {
  x.w_start();
  let n = x.w_fen_write();
  assert.equal(dec.decode(new Uint8Array(x.memory.buffer, x.w_ogn_text(), n)),
    '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S');
  assert.equal(x.w_fen_read(putText('0-0-0-0-0-1-1-5-0-0-0-0-23-18-S')), 0);
  assert.equal(x.w_legal(), 1 << 5);
  assert.equal(x.w_fen_read(putText('0-0-0-0-0-1-1-5-0-0-0-0-23-19-S')), -7); // OW_E_SUM
  assert.equal(x.w_fen_read(putText('0-0-0-0-0-1-1-5-0-0-0-S')), -1);
  n = x.w_fen_write();
  assert.equal(dec.decode(new Uint8Array(x.memory.buffer, x.w_ogn_text(), n)),
    '0-0-0-0-0-1-1-5-0-0-0-0-23-18-S');
});
