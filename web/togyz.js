// togyz.js: the Togyz Kumalak rules engine (web/togyz.wasm, built from
// engine/togyz.c with web/wasm/togyz_exports.c) as an ES module, with the
// API of engine.js (Oware's), so that the timeline, the board and the
// local game drive either game:
//
//   await loadTogyz();                  // browser: fetches togyz.wasm; node: loadTogyz(bytes)
//   const g = Game.start();             // or Game.fromPosition({pits, captured, tuzdyk, turn})
//   g.legal();                          // pit names: ['a', ..., 'i'] or ['A', ..., 'I']
//   g.preview('c');                     // {move, state}, the game unchanged
//   g.play('c');                        // {pit, sown, captured, seeds, tuzdyk, to_tuzdyk, notation}
//   g.state();                          // the shape of `oware play --game togyz`,
//                                       // legal as pit names
//
// Pit names (kind.js): 'a'..'i' White's (South's) holes 1..9, 'A'..'I'
// Black's (North's). A move's notation is Kazakh: the hole sown, the hole
// where the last seed landed, 'X' after a tuzdyk ("76", "58X").

// @ts-check
import { PIT_IDS } from './kind.js';
import { EngineError, gameClass } from './wasm-game.js';

const PITS = 18;
const IDS = PIT_IDS.togyz;
const SIDES = ['south', 'north'];
const REASONS = { 0: null, 1: 'score', 4: 'no_moves' };
const WINNERS = { '-1': null, 0: 'south', 1: 'north', 2: 'draw' };
// TG_E_* codes of engine/togyz.h, by their negated value.
const CODES = {
  1: 'not_pit', 2: 'not_yours', 3: 'empty', 4: 'tuzdyk', 5: 'over',
  6: 'negative', 7: 'sum', 8: 'turn', 9: 'tuzdyk_hole', 10: 'tuzdyk_twin', 11: 'tuzdyk_seeds',
};
// Offsets pinned by web/wasm/togyz_exports.c.
const G_CAPTURED = 18, G_TUZDYK = 20, G_TURN = 22, G_PLY = 24, G_END = 26, G_WINNER = 27;
const I_PIT = 0, I_NSOWN = 1, I_SOWN = 2, I_LAST = 164, I_CAPT = 165, I_SEEDS = 166, I_TUZ = 167, I_TO = 168;
const NONE = 255;

let wasm = null;

export async function loadTogyz(source) {
  if (wasm) return;
  let bytes = source;
  if (!(source instanceof ArrayBuffer || ArrayBuffer.isView(source))) {
    const resp = await fetch(source || new URL('togyz.wasm', import.meta.url));
    if (!resp.ok) throw new Error(`togyz.wasm: HTTP ${resp.status}`);
    bytes = await resp.arrayBuffer();
  }
  ({ exports: wasm } = (await WebAssembly.instantiate(bytes, {})).instance);
}

function need() {
  if (!wasm) throw new Error('togyz.js: call loadTogyz() first');
  return wasm;
}
const pitIndex = (id) => (typeof id === 'string' && id.length === 1 ? IDS.indexOf(id) : -1);

function readInfo() {
  const b = bytes(wasm.w_info(), I_TO + 2);
  const sown = [];
  for (let i = 0; i < b[I_NSOWN]; i++) sown.push(IDS[b[I_SOWN + i]]);
  const dec = new TextDecoder();
  const at = wasm.w_notation();
  const m = new Uint8Array(wasm.memory.buffer, at, 4);
  const notation = dec.decode(m.subarray(0, m.indexOf(0)));
  return {
    pit: IDS[b[I_PIT]], sown, captured: b[I_CAPT] === NONE ? [] : [IDS[b[I_CAPT]]],
    seeds: b[I_CAPT] === NONE ? 0 : b[I_SEEDS], tuzdyk: b[I_TUZ] === 1,
    to_tuzdyk: { south: b[I_TO], north: b[I_TO + 1] }, notation, grand_slam: false,
  };
}

// A side's tuzdyk as the hole number of the opponent's row, or null.
function tuzHole(pit) { return pit === NONE ? null : (pit % 9) + 1; }

function readState(addr, legalMask) {
  const b = bytes(addr, G_WINNER + 1);
  const end = b[G_END];
  const legal = [];
  for (let i = 0; i < PITS; i++) if (legalMask & (1 << i)) legal.push(IDS[i]);
  return {
    pits: Array.from(b.subarray(0, PITS)),
    captured: { south: b[G_CAPTURED], north: b[G_CAPTURED + 1] },
    tuzdyk: { south: tuzHole(b[G_TUZDYK]), north: tuzHole(b[G_TUZDYK + 1]) },
    turn: SIDES[b[G_TURN]],
    legal,
    over: end !== 0,
    winner: WINNERS[(b[G_WINNER] << 24) >> 24],
    reason: REASONS[end] ?? null,
  };
}

const base = gameClass({
  wasm: need, readState, readInfo, pitIndex, code: (err) => CODES[-err] || 'not_pit', G_PLY, G_END,
});
const { bytes } = base;

export class Game extends base.Game {
  // pos: {pits: [18], captured: {south, north}, tuzdyk: {south, north}
  // (hole numbers or null), turn}; throws EngineError.
  static fromPosition(pos) {
    need();
    const tz = (pos && pos.tuzdyk) || {};
    const ok = pos && typeof pos === 'object' && Array.isArray(pos.pits) && pos.pits.length === PITS &&
      pos.captured && [...pos.pits, pos.captured.south, pos.captured.north].every(Number.isInteger) &&
      [tz.south, tz.north].every((v) => v === null || v === undefined || Number.isInteger(v));
    if (!ok) throw new EngineError('bad_position');
    const clamp = (v) => Math.max(-1, Math.min(1000, v));
    return this._fromInput((w) => {
      const input = new Int32Array(w.memory.buffer, w.w_input(), PITS + 5);
      pos.pits.forEach((v, i) => { input[i] = clamp(v); });
      input[PITS] = clamp(pos.captured.south);
      input[PITS + 1] = clamp(pos.captured.north);
      input[PITS + 2] = clamp(tz.south || 0);
      input[PITS + 3] = clamp(tz.north || 0);
      input[PITS + 4] = SIDES.indexOf(pos.turn);
    }, (err) => new EngineError(CODES[-err] || 'bad_position'));
  }
}

export function replay(moves, pos) {
  return Game.replay(moves, pos);
}

// The record of a game in Kazakh notation: numbered pairs of moves, one
// move pair a line ("1. 76+10 58X+3": "+N" the seeds a move captured, as
// the move list shows them), then the result when it is over ("1-0",
// "0-1", "1/2-1/2") with the final score.
export function togyzRecord(history, state) {
  const lines = [];
  for (let i = 0; i < history.length; i += 2) {
    const pair = history.slice(i, i + 2).map((h) => h.notation + (h.seeds ? `+${h.seeds}` : '')).join(' ');
    lines.push(`${i / 2 + 1}. ${pair}`);
  }
  if (state && state.over) {
    const r = state.winner === 'south' ? '1-0' : state.winner === 'north' ? '0-1' : '1/2-1/2';
    lines.push(`${r} (${state.captured.south}-${state.captured.north})`);
  }
  return lines.join('\n');
}
