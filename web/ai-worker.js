// ai-worker.js: the computer player in a Web Worker, so that the page never
// freezes while it thinks, for either game: Oware's web/ai.wasm (the
// engine and its search, engine/search.h, through
// web/wasm/search_exports.c) or Togyz Kumalak's web/togyz-ai.wasm
// (engine/togyz_search.h, through web/wasm/togyz_search_exports.c); GAMES
// below says how each module's exports are called. Talk to it through
// web/ai.js, which documents the messages:
//   in:  {id, game: 'oware' (the default) | 'togyz', type: 'best',
//         position: null | {pits, captured, turn} (Togyz: 18 pits and
//         tuzdyk: {south: HOLE|null, north: HOLE|null}),
//         moves: ['a', 'F', ...], level: 'easy'|'medium'|'hard' or a
//         ladder code 10 + n (web/ai.js, LADDERS), seed,
//         timeMs, depth}
//        {id, game, type: 'clear'}   (a new game: forget the table)
//        {id, type: 'analyse', position, moves, nodes}   (Oware: a whole game)
//   out: {id, move: 'c', score, depth, nodes, pv: ['c', ...], ms}
//        or {id, error: 'text'}
//        analyse: one {id, progress: k, ply: {...}} per ply (k from 1; the
//        ply as `oware analyse` prints it), then {id, done: n, ms}
// Moves are the page's pit names (web/kind.js): Oware 'a'..'f' South's,
// 'A'..'F' North's; Togyz 'a'..'i' White's (South's) holes 1..9, 'A'..'I'
// Black's (North's).
'use strict';

const LEVELS = { easy: 0, medium: 1, hard: 2 };
const SIDES = { south: 0, north: 1 };
const HARD_MS = 1000;  // hard's budget (and the hint's): about a second

// Each game's module and how its exports (named and shaped by its shim in
// web/wasm/) are called: the same steps, other names. The two searches
// stay apart in C (their pruning differs); here only the calls differ.
const GAMES = {
  oware: {
    wasm: 'ai.wasm',
    pits: 'abcdefABCDEF',
    egdb: true,  // the endgame database (web/oware.egdb) helps its search
    // Reads position into the module; false when it refuses it.
    position(x, p) {
      const input = new Int32Array(x.memory.buffer, x.w_ai_input(), 15);
      if (!Array.isArray(p.pits) || p.pits.length !== 12 || !p.captured || !(p.turn in SIDES)) return false;
      for (let i = 0; i < 12; i++) input[i] = p.pits[i] | 0;
      input[12] = p.captured.south | 0;
      input[13] = p.captured.north | 0;
      input[14] = SIDES[p.turn];
      return x.w_ai_from_input() === 0;
    },
    start: (x) => x.w_ai_start(),
    play: (x, pit) => x.w_ai_play(pit),
    clear: (x) => x.w_search_clear(),
    search: (x, level, seed, timeMs, depth) => x.w_search(x.w_ai_game(), level, seed, timeMs, depth, 0),
    npv: (x) => x.w_search_npv(),
    pv: (x, i) => x.w_search_pv(i),
    score: (x) => x.w_search_score(),
    depth: (x) => x.w_search_depth(),
    nodes: (x) => x.w_search_nodes(),
  },
  togyz: {
    wasm: 'togyz-ai.wasm',
    pits: 'abcdefghiABCDEFGHI',
    egdb: false,
    position(x, p) {
      if (!Array.isArray(p.pits) || p.pits.length !== 18 || !p.captured || !(p.turn in SIDES)) return false;
      const input = new Int32Array(x.memory.buffer, x.w_tg_input(), 23);
      for (let i = 0; i < 18; i++) input[i] = p.pits[i] | 0;
      input[18] = p.captured.south | 0;
      input[19] = p.captured.north | 0;
      input[20] = (p.tuzdyk && p.tuzdyk.south) | 0;
      input[21] = (p.tuzdyk && p.tuzdyk.north) | 0;
      input[22] = SIDES[p.turn];
      return x.w_tg_from_input() === 0;
    },
    start: (x) => x.w_tg_start(),
    play: (x, pit) => x.w_tg_play(pit),
    clear: (x) => x.w_tg_clear(),
    search: (x, level, seed, timeMs, depth) => x.w_tg_search(level, seed, timeMs, depth, 0),
    npv: (x) => x.w_tg_npv(),
    pv: (x, i) => x.w_tg_pv(i),
    score: (x) => x.w_tg_score(),
    depth: (x) => x.w_tg_depth(),
    nodes: (x) => x.w_tg_nodes(),
  },
};

const ready = {};  // game -> Promise of its module's exports
// The endgame database (web/oware.egdb, about 1.3 MB) is fetched once the
// module is ready, in the background: searches before it arrives run
// without it. egdb: null (not asked yet), 'loading', 'on', or 'off' (missing
// or refused: the search goes on without it).
let egdb = null;
let egdbDone = null;  // Promise settled once egdb is 'on' or 'off'

function loadEgdb(x) {
  if (egdb) return egdbDone;
  egdb = 'loading';
  egdbDone = (async () => {
    const resp = await fetch(new URL('oware.egdb', self.location.href));
    if (!resp.ok) throw new Error(`oware.egdb: HTTP ${resp.status}`);
    const bytes = new Uint8Array(await resp.arrayBuffer());
    const at = x.w_egdb_buffer(bytes.length);
    if (!at) throw new Error('oware.egdb: too big');
    new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    if (x.w_egdb_open(bytes.length) !== 0) throw new Error('oware.egdb: refused');
    egdb = 'on';
    // The page asks the service worker to keep it (ai.js, sw.js).
    self.postMessage({ fetched: 'oware.egdb' });
  })().catch(() => { egdb = 'off'; });
  return egdbDone;
}

function now() { return Math.floor(performance.now()) >>> 0; }

function load(name) {
  if (!ready[name]) {
    ready[name] = (async () => {
      const file = GAMES[name].wasm;
      const resp = await fetch(new URL(file, self.location.href));
      if (!resp.ok) throw new Error(`${file}: HTTP ${resp.status}`);
      const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(),
        { env: { now_ms: now } });
      return instance.exports;
    })();
  }
  return ready[name];
}

// Sets the module's game from position and moves; returns an error text or null.
function setGame(G, x, position, moves) {
  if (position) {
    if (!G.position(x, position)) return 'bad position';
  } else {
    G.start(x);
  }
  for (let i = 0; i < moves.length; i++) {
    const pit = G.pits.indexOf(moves[i]);
    if (pit < 0 || moves[i].length !== 1 || G.play(x, pit) !== 0) {
      return `move ${i + 1} (${moves[i]}) is not legal`;
    }
  }
  return null;
}

// ---- Oware's analysis of a whole game (engine/analysis.h) ----

const LETTERS = GAMES.oware.pits;
const CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const SEED = 16;  // eval units a seed (OW_SEARCH_SEED)

// The report of the last w_analyse (layout pinned in web/wasm/search_exports.c).
function report(x) {
  const b = x.w_analysis();
  const i32 = new Int32Array(x.memory.buffer, b, 11);
  const u32 = new Uint32Array(x.memory.buffer, b + 32, 2);
  const pv = [...new Uint8Array(x.memory.buffer, b + 44, i32[10])].map((p) => LETTERS[p]);
  return { side: i32[0], move: LETTERS[i32[1]], best: LETTERS[i32[2]], before: i32[3], after: i32[4],
    loss: i32[5], cls: i32[6], depth: i32[7], nodes: u32[0] + u32[1] * 2 ** 32, pv };
}

// A proven end in a score of side's view: {winner, plies} or null; skip 1
// counts from the position after the move.
function proven(x, score, side, skip) {
  const n = x.w_analysis_proven(score);
  if (!n) return null;
  const mover = side === 0 ? 'south' : 'north', other = side === 0 ? 'north' : 'south';
  return { winner: n > 0 ? mover : other, plies: Math.abs(n) - skip };
}

const GAME_END = 20, GAME_WINNER = 21;  // offsets in ow_game (exports.c pins them)
const WINNERS = { 0: 'south', 1: 'north', 2: 'draw' };

// Analyses the game ply by ply, posting each ply as it is judged (the
// same fields as `oware analyse`, and the same values for the same node
// budget: the table is cleared first).
function analyse(x, msg) {
  const moves = msg.moves || [];
  const err = setGame(GAMES.oware, x, msg.position || null, []);
  if (err) return { id: msg.id, error: err };
  const nodes = Math.max(1, msg.nodes | 0);
  x.w_search_clear();
  const t0 = performance.now();
  for (let k = 0; k < moves.length; k++) {
    const pit = LETTERS.indexOf(moves[k]);
    if (pit < 0 || moves[k].length !== 1) return { id: msg.id, error: `move ${k + 1} (${moves[k]}) is not legal` };
    const rc = x.w_analyse(x.w_ai_game(), pit, nodes, 0);
    if (rc !== 0) return { id: msg.id, error: `move ${k + 1} (${moves[k]}) is not legal` };
    const r = report(x);
    x.w_ai_play(pit);
    const g = new Int8Array(x.memory.buffer, x.w_ai_game(), GAME_WINNER + 1);
    const over = g[GAME_END] !== 0;
    const side = r.side === 0 ? 'south' : 'north';
    const ply = {
      ply: k + 1, side, move: r.move, best: r.best, pv: r.pv,
      eval_before: x.w_analysis_south(r.before, r.side) / SEED,
      eval_after: x.w_analysis_south(r.after, r.side) / SEED,
      proven_before: proven(x, r.before, r.side, 0),
      proven_after: proven(x, r.after, r.side, 1),
      loss: r.loss / SEED, class: CLASSES[r.cls], depth: r.depth, nodes: r.nodes,
    };
    if (over) {  // the real end, as `oware analyse` gives it
      const w = WINNERS[g[GAME_WINNER]];
      ply.proven_after = { winner: w || 'draw', plies: 0 };
      ply.eval_after = w === 'south' ? 24 : w === 'north' ? -24 : 0;
    }
    self.postMessage({ id: msg.id, progress: k + 1, total: moves.length, ply });
  }
  return { id: msg.id, done: moves.length, ms: Math.round(performance.now() - t0) };
}

async function handle(msg) {
  const name = Object.hasOwn(GAMES, msg.game) ? msg.game : 'oware';
  const G = GAMES[name];
  const x = await load(name);
  const egdbReady = G.egdb ? loadEgdb(x) : null;
  if (msg.type === 'analyse' && G.egdb) {
    await egdbReady;  // the same marks whether or not the file had arrived
    return analyse(x, msg);
  }
  if (msg.type === 'clear') {
    G.clear(x);
    return { id: msg.id, cleared: true };
  }
  if (msg.type !== 'best') return { id: msg.id, error: `unknown request ${msg.type}` };
  const err = setGame(G, x, msg.position || null, msg.moves || []);
  if (err) return { id: msg.id, error: err };
  // A ladder step is asked for by its code (the engine refuses one it
  // has not: -9); hard (2) alone is timed.
  const level = Number.isInteger(msg.level) ? msg.level : LEVELS[msg.level] ?? 2;
  const timeMs = level === 2 ? (msg.timeMs || HARD_MS) : 0;
  const t0 = performance.now();
  const pit = G.search(x, level, (msg.seed >>> 0) || 1, timeMs, msg.depth | 0);
  const ms = Math.round(performance.now() - t0);
  if (pit < 0) return { id: msg.id, error: pit === -5 ? 'the game is over' : `search failed (${pit})` };
  const pv = [];
  for (let i = 0; i < G.npv(x); i++) pv.push(G.pits[G.pv(x, i)]);
  return {
    id: msg.id, move: G.pits[pit], score: G.score(x), depth: G.depth(x),
    nodes: G.nodes(x), pv, ms,
  };
}

self.onmessage = (e) => {
  const msg = e.data || {};
  handle(msg).then((reply) => self.postMessage(reply),
    (error) => self.postMessage({ id: msg.id, error: String(error && error.message || error) }));
};
