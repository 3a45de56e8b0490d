// ai-worker.js: the computer player in a Web Worker, so that the page never
// freezes while it thinks. Runs web/ai.wasm (the engine and its search,
// engine/search.h, through web/wasm/search_exports.c). Talk to it through
// web/ai.js, which documents the messages:
//   in:  {id, type: 'best', position: null | {pits, captured, turn},
//         moves: ['a', 'F', ...], level: 'easy'|'medium'|'hard', seed,
//         timeMs, depth}
//        {id, type: 'clear'}   (a new game: forget the table)
//   out: {id, move: 'c', score, depth, nodes, pv: ['c', ...], ms}
//        or {id, error: 'text'}
'use strict';

const LETTERS = 'abcdefABCDEF';
const LEVELS = { easy: 0, medium: 1, hard: 2 };
const SIDES = { south: 0, north: 1 };
const HARD_MS = 1000;  // hard's budget (and the hint's): about a second

let ready = null;  // Promise of the module's exports
// The endgame database (web/oware.egdb, about 1.3 MB) is fetched once the
// module is ready, in the background: searches before it arrives run
// without it. egdb: null (not asked yet), 'loading', 'on', or 'off' (missing
// or refused: the search goes on without it).
let egdb = null;

function loadEgdb(x) {
  if (egdb) return;
  egdb = 'loading';
  (async () => {
    const resp = await fetch(new URL('oware.egdb', self.location.href));
    if (!resp.ok) throw new Error(`oware.egdb: HTTP ${resp.status}`);
    const bytes = new Uint8Array(await resp.arrayBuffer());
    const at = x.w_egdb_buffer(bytes.length);
    if (!at) throw new Error('oware.egdb: too big');
    new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    if (x.w_egdb_open(bytes.length) !== 0) throw new Error('oware.egdb: refused');
    egdb = 'on';
  })().catch(() => { egdb = 'off'; });
}

function now() { return Math.floor(performance.now()) >>> 0; }

function load() {
  if (!ready) {
    ready = (async () => {
      const url = new URL('ai.wasm', self.location.href);
      const resp = await fetch(url);
      if (!resp.ok) throw new Error(`ai.wasm: HTTP ${resp.status}`);
      const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(),
        { env: { now_ms: now } });
      return instance.exports;
    })();
  }
  return ready;
}

// Sets the module's game from position and moves; returns an error text or null.
function setGame(x, position, moves) {
  if (position) {
    const input = new Int32Array(x.memory.buffer, x.w_ai_input(), 15);
    const p = position;
    if (!Array.isArray(p.pits) || p.pits.length !== 12 || !p.captured || !(p.turn in SIDES)) {
      return 'bad position';
    }
    for (let i = 0; i < 12; i++) input[i] = p.pits[i] | 0;
    input[12] = p.captured.south | 0;
    input[13] = p.captured.north | 0;
    input[14] = SIDES[p.turn];
    if (x.w_ai_from_input() !== 0) return 'bad position';
  } else {
    x.w_ai_start();
  }
  for (let i = 0; i < moves.length; i++) {
    const pit = LETTERS.indexOf(moves[i]);
    if (pit < 0 || moves[i].length !== 1 || x.w_ai_play(pit) !== 0) {
      return `move ${i + 1} (${moves[i]}) is not legal`;
    }
  }
  return null;
}

async function handle(msg) {
  const x = await load();
  loadEgdb(x);
  if (msg.type === 'clear') {
    x.w_search_clear();
    return { id: msg.id, cleared: true };
  }
  const err = setGame(x, msg.position || null, msg.moves || []);
  if (err) return { id: msg.id, error: err };
  const level = LEVELS[msg.level] ?? 2;
  const timeMs = level === 2 ? (msg.timeMs || HARD_MS) : 0;
  const t0 = performance.now();
  const pit = x.w_search(x.w_ai_game(), level, (msg.seed >>> 0) || 1, timeMs,
    msg.depth | 0, 0);
  const ms = Math.round(performance.now() - t0);
  if (pit < 0) return { id: msg.id, error: pit === -5 ? 'the game is over' : `search failed (${pit})` };
  const pv = [];
  for (let i = 0; i < x.w_search_npv(); i++) pv.push(LETTERS[x.w_search_pv(i)]);
  return {
    id: msg.id, move: LETTERS[pit], score: x.w_search_score(), depth: x.w_search_depth(),
    nodes: x.w_search_nodes(), pv, ms,
  };
}

self.onmessage = (e) => {
  const msg = e.data || {};
  handle(msg).then((reply) => self.postMessage(reply),
    (error) => self.postMessage({ id: msg.id, error: String(error && error.message || error) }));
};
