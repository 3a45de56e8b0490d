// engine.js: the Oware rules engine (web/engine.wasm) as an ES module.
//
//   import { loadEngine, Game } from './engine.js';
//   await loadEngine();                 // browser: fetches engine.wasm next to this file
//   await loadEngine(bytes);            // node: the bytes of engine.wasm
//   const g = Game.start();             // or Game.fromPosition({pits, captured, turn})
//   g.legal();                          // ['a', 'b', ...]
//   g.preview('c');                     // what 'c' would do, the game unchanged
//   g.play('c');                        // {pit, sown, captured, seeds, grand_slam}
//   g.state();                          // the JSON shape of `oware play`
//
// Errors are thrown as EngineError with a stable `code` (see CODES).

// @ts-check
import { EngineError, gameClass } from './wasm-game.js';

export { EngineError };

const PITS = 12;
const LETTERS = 'abcdefABCDEF';
const SIDES = ['south', 'north'];
const REASONS = [null, 'score', 'repetition', 'move_limit', 'no_moves'];
const WINNERS = { '-1': null, 0: 'south', 1: 'north', 2: 'draw' };
// OW_E_* codes of engine/oware.h, by their negated value.
const CODES = {
  1: 'not_pit', 2: 'not_yours', 3: 'empty', 4: 'must_feed', 5: 'over',
  6: 'negative', 7: 'sum', 8: 'turn',
};
// ow_pos_set's culprit field numbers (see engine/oware.h).
const FIELDS = ['total', ...Array.from({ length: 12 }, (_, i) => `pits[${i}]`),
  'captured.south', 'captured.north', 'turn'];

// Byte offsets inside ow_game and ow_move_info, checked at compile time by
// web/wasm/exports.c.
const G_CAPTURED = 12, G_TURN = 14, G_PLY = 16, G_QUIET = 18, G_END = 20, G_WINNER = 21;
const I_PIT = 0, I_NSOWN = 1, I_SOWN = 2, I_NCAPT = 50, I_CAPT = 51, I_SEEDS = 57, I_SLAM = 58;

let wasm = null;   // the instance's exports

export async function loadEngine(source) {
  if (wasm) return;
  let instance;
  /** @type {WebAssembly.Imports} */
  const imports = {};
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    ({ instance } = await WebAssembly.instantiate(/** @type {BufferSource} */ (source), imports));
  } else {
    const url = source || new URL('engine.wasm', import.meta.url);
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(`engine.wasm: HTTP ${resp.status}`);
    // A server without the application/wasm type still works, a bit slower.
    ({ instance } = await WebAssembly.instantiate(/** @type {BufferSource} */ (await resp.arrayBuffer()), imports));
  }
  wasm = instance.exports;
}

function pitIndex(letter) {
  return typeof letter === 'string' && letter.length === 1 ? LETTERS.indexOf(letter) : -1;
}

function need() {
  if (!wasm) throw new Error('engine.js: call loadEngine() first');
  return wasm;
}

function readInfo() {
  const b = bytes(wasm.w_info(), I_SLAM + 1);
  const sown = [], captured = [];
  for (let i = 0; i < b[I_NSOWN]; i++) sown.push(LETTERS[b[I_SOWN + i]]);
  for (let i = 0; i < b[I_NCAPT]; i++) captured.push(LETTERS[b[I_CAPT + i]]);
  return { pit: LETTERS[b[I_PIT]], sown, captured, seeds: b[I_SEEDS], grand_slam: b[I_SLAM] === 1 };
}

function readState(addr, legalMask) {
  const b = bytes(addr, G_WINNER + 1);
  const end = b[G_END];
  const legal = [];
  for (let i = 0; i < PITS; i++) if (legalMask & (1 << i)) legal.push(LETTERS[i]);
  return {
    pits: Array.from(b.subarray(0, PITS)),
    captured: { south: b[G_CAPTURED], north: b[G_CAPTURED + 1] },
    turn: SIDES[b[G_TURN]],
    legal,
    over: end !== 0,
    winner: WINNERS[(b[G_WINNER] << 24) >> 24],
    reason: REASONS[end],
  };
}

const base = gameClass({
  wasm: need, readState, readInfo, pitIndex, code: (err) => CODES[-err] || 'not_pit', G_PLY, G_END,
});
const { freeSlot, bytes } = base;

export class Game extends base.Game {
  // pos: {pits:[12 ints], captured:{south,north}, turn:'south'|'north'};
  // throws EngineError (code 'bad_position', 'negative', 'sum' or 'turn').
  static fromPosition(pos) {
    need();
    const ok = pos && typeof pos === 'object' && Array.isArray(pos.pits) && pos.pits.length === PITS &&
      pos.captured && typeof pos.captured === 'object' &&
      [...pos.pits, pos.captured.south, pos.captured.north].every(Number.isInteger);
    if (!ok) throw new EngineError('bad_position');
    // Clamp into int32 so a huge number still fails as a count above 48.
    const clamp = (v) => Math.max(-1, Math.min(1000, v));
    return this._fromInput((w) => {
      const input = new Int32Array(w.memory.buffer, w.w_input(), PITS + 3);
      pos.pits.forEach((v, i) => { input[i] = clamp(v); });
      input[PITS] = clamp(pos.captured.south);
      input[PITS + 1] = clamp(pos.captured.north);
      input[PITS + 2] = SIDES.indexOf(pos.turn);
    }, (err) => new EngineError(CODES[-err] || 'bad_position', FIELDS[wasm.w_input_field() + 1]));
  }

  get quiet() { this._use(); return new Uint16Array(wasm.memory.buffer, wasm.w_game() + G_QUIET, 1)[0]; }
}

// Replays a list of letters from the start (or from pos); returns the game
// or throws EngineError with `ply` (1-based) set on the move that failed.
export function replay(moves, pos) {
  return Game.replay(moves, pos);
}

// ---- Records (engine/ogn.h): Aualé's OGN and FEN, through the same wasm ----

const enc = new TextEncoder();
const dec = new TextDecoder();

function cstr(addr) {
  const m = new Uint8Array(need().memory.buffer);
  let end = addr;
  while (m[end]) end++;
  return dec.decode(m.subarray(addr, end));
}

// Puts text into the record buffer; returns its length in bytes, or -1
// when it does not fit.
function putText(text) {
  const b = enc.encode(text);
  if (b.length > wasm.w_ogn_text_size()) return -1;
  new Uint8Array(wasm.memory.buffer, wasm.w_ogn_text(), b.length).set(b);
  return b.length;
}

// The bytes of s cut to at most max bytes at a character boundary.
function utf8Cut(s, max) {
  let b = enc.encode(s);
  if (b.length <= max) return b;
  b = b.slice(0, max);
  while (b.length && (b[b.length - 1] & 0xc0) === 0x80) b = b.slice(0, -1);  // continuation bytes
  if (b.length && b[b.length - 1] >= 0xc0) b = b.slice(0, -1);               // a lead byte cut off
  return b;
}

function putPosition(pos) {
  const input = new Int32Array(wasm.memory.buffer, wasm.w_input(), PITS + 3);
  pos.pits.forEach((v, i) => { input[i] = v; });
  input[PITS] = pos.captured.south;
  input[PITS + 1] = pos.captured.north;
  input[PITS + 2] = SIDES.indexOf(pos.turn);
}

// The OGN text of a game: start (null: the standard start), moves (our
// letters), and the tags south, north, date ("2026.11.30"), result (""
// or absent: the engine's, the final scores of a game over by the rules,
// else "*"). Names that are empty or absent are written "?". Throws
// EngineError on a move or position the engine refuses.
export function ognWrite({ start = null, moves = [], south = '', north = '', date = '', result = '' } = {}) {
  need();
  const pits = moves.map(pitIndex);
  if (pits.some((p) => p < 0)) throw new EngineError('not_pit');
  new Uint8Array(wasm.memory.buffer, wasm.w_ogn_moves(), pits.length).set(pits);
  [south, north, date, result].forEach((v, i) => {
    const dst = new Uint8Array(wasm.memory.buffer, wasm.w_ogn_tag(i), 256);
    dst.fill(0);
    // Control characters are not allowed in a tag: spaces instead.
    dst.set(utf8Cut(String(v || '').replace(/[\u0000-\u001f\u007f]/g, ' '), 255));
  });
  if (start) putPosition(start);
  const n = wasm.w_ogn_write(pits.length, start ? 1 : 0);
  if (n < 0) throw new EngineError(CODES[-n] || 'bad_record');
  return dec.decode(new Uint8Array(wasm.memory.buffer, wasm.w_ogn_text(), n));
}

// Reads an OGN record. Returns {start (null: the standard start), moves
// (our letters), tags: {Name: value}, over}; throws RecordError with
// `line` and the engine's reason (English) for a record it refuses.
export class RecordError extends Error {
  constructor(line, reason) {
    super(`line ${line}: ${reason}`);
    this.name = 'RecordError';
    this.line = line;
    this.reason = reason;
  }
}

export function ognRead(text) {
  need();
  const len = putText(text);
  if (len < 0) throw new RecordError(1, 'the record is longer than 128 KB');
  if (wasm.w_ogn_read(len) !== 0) throw new RecordError(wasm.w_ogn_line(), cstr(wasm.w_ogn_err()));
  const moves = [];
  for (let i = 0; i < wasm.w_ogn_nmoves(); i++) moves.push(LETTERS[wasm.w_ogn_move(i)]);
  const tags = {};
  for (let i = 0; i < wasm.w_ogn_ntags(); i++) tags[cstr(wasm.w_ogn_tag_name(i))] = cstr(wasm.w_ogn_tag_value(i));
  let start = null;
  if (wasm.w_ogn_has_fen()) {
    const b = bytes(wasm.w_ogn_start(), PITS + 3);
    start = { pits: Array.from(b.subarray(0, PITS)), captured: { south: b[PITS], north: b[PITS + 1] }, turn: SIDES[b[PITS + 2]] };
  }
  return { start, moves, tags };
}

// The FEN text of a position ("4-4-...-0-0-S"); throws EngineError if it
// is not valid.
export function fenWrite(pos) {
  const g = Game.fromPosition(pos);
  g._use();
  const n = wasm.w_fen_write();
  return dec.decode(new Uint8Array(wasm.memory.buffer, wasm.w_ogn_text(), n));
}

// The position of a FEN text; throws EngineError ('bad_position' when it
// is malformed, else ow_pos_set's code).
export function fenRead(text) {
  need();
  const len = putText(String(text).trim());
  if (len < 0) throw new EngineError('bad_position');
  const s = freeSlot();
  const rc = wasm.w_fen_read(len);
  let pos = null;
  if (rc === 0) {
    const b = bytes(wasm.w_game(), G_TURN + 1);
    pos = { pits: Array.from(b.subarray(0, PITS)), captured: { south: b[G_CAPTURED], north: b[G_CAPTURED + 1] }, turn: SIDES[b[G_TURN]] };
  }
  s.giveBack();
  if (rc !== 0) throw new EngineError(rc === -1 ? 'bad_position' : (CODES[-rc] || 'bad_position'));
  return pos;
}
