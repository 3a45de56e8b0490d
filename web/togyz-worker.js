// togyz-worker.js: the Togyz Kumalak computer player in a Web Worker (the
// page never freezes while it thinks). Runs web/togyz-ai.wasm (the engine
// and its search, engine/togyz_search.h, through
// web/wasm/togyz_search_exports.c). web/ai.js talks to it as to
// web/ai-worker.js (new Computer(new URL('togyz-worker.js', ...))), with
// the same messages, in Togyz's terms:
//   in:  {id, type: 'best', position: null | {pits: [18], captured,
//         tuzdyk: {south: HOLE|null, north: HOLE|null}, turn},
//         moves: ['a', 'I', ...], level: 'easy'|'medium'|'hard' or a
//         ladder code 10 + n (web/ai.js, LADDER), seed,
//         timeMs, depth}
//        {id, type: 'clear'}   (a new game: forget the table)
//   out: {id, move: 'c', score, depth, nodes, pv: ['c', ...], ms}
//        or {id, error: 'text'}
// Moves are the page's pit names: 'a'..'i' White's (South's) holes 1..9,
// 'A'..'I' Black's (North's) holes 1..9.
'use strict';

const PITS = 'abcdefghiABCDEFGHI';
const LEVELS = { easy: 0, medium: 1, hard: 2 };
const SIDES = { south: 0, north: 1 };
const HARD_MS = 1000;  // hard's budget (and the hint's): about a second

let ready = null;

function now() { return Math.floor(performance.now()) >>> 0; }

function load() {
  if (!ready) {
    ready = (async () => {
      const resp = await fetch(new URL('togyz-ai.wasm', self.location.href));
      if (!resp.ok) throw new Error(`togyz-ai.wasm: HTTP ${resp.status}`);
      const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(),
        { env: { now_ms: now } });
      return instance.exports;
    })();
  }
  return ready;
}

// Sets the module's game from position and moves; an error text or null.
function setGame(x, position, moves) {
  if (position) {
    const p = position;
    if (!Array.isArray(p.pits) || p.pits.length !== 18 || !p.captured || !(p.turn in SIDES)) return 'bad position';
    const input = new Int32Array(x.memory.buffer, x.w_tg_input(), 23);
    for (let i = 0; i < 18; i++) input[i] = p.pits[i] | 0;
    input[18] = p.captured.south | 0;
    input[19] = p.captured.north | 0;
    input[20] = (p.tuzdyk && p.tuzdyk.south) | 0;
    input[21] = (p.tuzdyk && p.tuzdyk.north) | 0;
    input[22] = SIDES[p.turn];
    if (x.w_tg_from_input() !== 0) return 'bad position';
  } else {
    x.w_tg_start();
  }
  for (let i = 0; i < moves.length; i++) {
    const pit = PITS.indexOf(moves[i]);
    if (pit < 0 || moves[i].length !== 1 || x.w_tg_play(pit) !== 0) return `move ${i + 1} (${moves[i]}) is not legal`;
  }
  return null;
}

async function handle(msg) {
  const x = await load();
  if (msg.type === 'clear') {
    x.w_tg_clear();
    return { id: msg.id, cleared: true };
  }
  if (msg.type !== 'best') return { id: msg.id, error: `unknown request ${msg.type}` };
  const err = setGame(x, msg.position || null, msg.moves || []);
  if (err) return { id: msg.id, error: err };
  // A ladder step is asked for by its code (the engine refuses one it
  // has not: -9); hard (2) alone is timed.
  const level = Number.isInteger(msg.level) ? msg.level : LEVELS[msg.level] ?? 2;
  const timeMs = level === 2 ? (msg.timeMs || HARD_MS) : 0;
  const t0 = performance.now();
  const pit = x.w_tg_search(level, (msg.seed >>> 0) || 1, timeMs, msg.depth | 0, 0);
  const ms = Math.round(performance.now() - t0);
  if (pit < 0) return { id: msg.id, error: pit === -5 ? 'the game is over' : `search failed (${pit})` };
  const pv = [];
  for (let i = 0; i < x.w_tg_npv(); i++) pv.push(PITS[x.w_tg_pv(i)]);
  return { id: msg.id, move: PITS[pit], score: x.w_tg_score(), depth: x.w_tg_depth(), nodes: x.w_tg_nodes(), pv, ms };
}

self.onmessage = (e) => {
  const msg = e.data || {};
  handle(msg).then((reply) => self.postMessage(reply),
    (error) => self.postMessage({ id: msg.id, error: String(error && error.message || error) }));
};
