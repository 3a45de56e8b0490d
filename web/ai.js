// ai.js: the computer opponent for the page, as an ES module. The search
// runs in web/ai-worker.js (a Web Worker), so the page stays responsive.
//
//   import { Computer } from './ai.js';
//   const cpu = new Computer();   // Oware's; computerFor('togyz') for Togyz Kumalak
//   const r = await cpu.best({ moves: game.moves, level: 'club', seed: 7 });
//   // r = {move: 'c', score, depth, nodes, pv: ['c', ...], ms}
//   const hint = await cpu.hint({ moves: game.moves });   // hard's move
//   const r2 = await cpu.atDepth({ position, moves, depth: 8 });  // exactly 8 plies
//   const a = await cpu.analyse({ position, moves, nodes: 300000,
//     onPly: (ply, k, total) => ... });   // the plies of `oware analyse`
//   cpu.newGame();   // forget what the last game taught the table
//   cpu.cancel();    // after undo / new game while a search runs: the
//                    // pending promises reject with {cancelled: true}
//
// position (optional) is {pits, captured, turn} as in `oware play`; moves
// are the letters played from it (or from the start). level: a name of
// the game's ladder, LADDERS ('hard': about one second). The weaker levels' random slips follow
// seed: pass e.g. a per-game random number plus the ply for varied games.
// Errors (an illegal move list, a finished game) reject with an Error.

// @ts-check
import { kindOf } from './kind.js';

// The ladders of levels (docs/computer.md, "The ladder of levels"), weakest
// first, one a game: step n (1-based) is the engine's level 10 + n
// (OW_LEVEL_LADDER + n, TG_LEVEL_LADDER + n). Togyz Kumalak's climb from
// medium to hard is shorter, so its ladder has eleven steps and names of
// its own. Easy, medium and hard are the engine's levels 0, 1 and 2
// themselves (the same play: the hint is hard's).
export const LADDERS = {
  oware: ['starter', 'easy', 'learner', 'amateur', 'improver', 'steady',
    'medium', 'club', 'advanced', 'strong', 'expert', 'master', 'hard'],
  togyz: ['starter', 'easy', 'learner', 'amateur', 'improver', 'steady',
    'medium', 'advanced', 'strong', 'master', 'hard'],
};
// The ladder of kind ('oware' or 'togyz').
export function ladderOf(kind) {
  return LADDERS[kindOf(kind)];
}
// Togyz Kumalak's steps that an older page had (its ladder once had
// Oware's twelve names), kept in a browser: the step that took their place.
const RENAMED = { oware: {}, togyz: { club: 'advanced', expert: 'master' } };
// level as a step of kind's ladder: itself, the step that replaced it, or
// null.
export function levelOn(kind, level) {
  const ladder = ladderOf(kind);
  if (ladder.includes(level)) return level;
  const now = RENAMED[kindOf(kind)][level];
  return ladder.includes(now) ? now : null;
}
// The level the start page offers before one is chosen.
export const DEFAULT_LEVEL = 'medium';
const ENGINE_LEVELS = { easy: 'easy', medium: 'medium', hard: 'hard' };

// The engine's level for a name of kind's ladder: 'easy', 'medium', 'hard'
// (as the workers name them), else the ladder's code 10 + n.
export function levelCode(level, kind) {
  if (ENGINE_LEVELS[level]) return ENGINE_LEVELS[level];
  const n = ladderOf(kind).indexOf(level);
  return n < 0 ? 'hard' : 10 + n + 1;
}

// The level above level on kind's ladder, or null at the top (or for a
// name not on it).
export function nextLevel(level, kind) {
  const ladder = ladderOf(kind);
  const n = ladder.indexOf(level);
  return n < 0 || n + 1 >= ladder.length ? null : ladder[n + 1];
}

// The level this browser chose last for kind (each game keeps its own),
// or DEFAULT_LEVEL.
const LEVEL_KEY = 'oware.level.';
export function savedLevel(kind) {
  let v = null;
  try { v = localStorage.getItem(LEVEL_KEY + kindOf(kind)); } catch { /* storage off */ }
  return levelOn(kind, v) || DEFAULT_LEVEL;
}
export function saveLevel(kind, level) {
  if (!ladderOf(kind).includes(level)) return;
  try { localStorage.setItem(LEVEL_KEY + kindOf(kind), level); } catch { /* private mode */ }
}
// The analysis's node budget per ply in the page (docs/study.md, "For the
// browser"): a 100-ply game in about a minute on a phone-class device.
export const ANALYSIS_NODES = 300000;

// The computer of kind (kinds.js's records ask here): web/ai-worker.js
// runs either game's search, told which by each message.
export function computerFor(kind) {
  return new Computer(undefined, kindOf(kind));
}

// The worker fetched path (the endgame database): the service worker keeps
// it for the next visit without the network, also when it fetched it
// before the service worker controlled the page (a first visit; sw.js).
// ready waits for a worker that is still being installed.
function keepFetched(path) {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((r) => r.active && r.active.postMessage({ keep: path }), () => {});
}

export class Computer {
  constructor(workerUrl = new URL('ai-worker.js', import.meta.url), kind = 'oware') {
    this._url = workerUrl;
    this.kind = kind;
    this._worker = null;
    this._pending = new Map();  // id -> {resolve, reject}
    this._next = 1;
  }

  _post(msg, onPly = null) {
    if (!this._worker) {
      this._worker = new Worker(this._url);
      this._worker.onmessage = (e) => {
        if (e.data.fetched) { keepFetched(e.data.fetched); return; }
        const p = this._pending.get(e.data.id);
        if (!p) return;
        if (e.data.progress) {  // one ply of an analysis: more follow
          if (p.onPly) p.onPly(e.data.ply, e.data.progress, e.data.total);
          return;
        }
        this._pending.delete(e.data.id);
        if (e.data.error) p.reject(new Error(e.data.error));
        else p.resolve(e.data);
      };
      this._worker.onerror = (e) => {
        for (const p of this._pending.values()) p.reject(new Error(e.message || 'worker failed'));
        this._pending.clear();
      };
    }
    const id = this._next++;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject, onPly });
      this._worker.postMessage({ ...msg, id, game: this.kind });
    });
  }

  // The computer's move at level (a name of its game's ladder) for the
  // game of position + moves.
  best({ position = null, moves = [], level = 'hard', seed = 1, timeMs = 0 } = {}) {
    return this._post({ type: 'best', position, moves: [...moves], level: levelCode(level, this.kind), seed, timeMs });
  }

  // The hint: hard's move for the side to move (full strength, whatever
  // the level played).
  hint({ position = null, moves = [] } = {}) {
    return this.best({ position, moves, level: 'hard' });
  }

  // A plain search of exactly depth plies from an empty table
  // (reproducible: the move and score of `oware best --depth N` on the
  // same game). It forgets what the table held, as newGame() does.
  /** @param {{position?: object | null, moves?: string[], depth?: number}} [req] */
  atDepth({ position = null, moves = [], depth } = {}) {
    this._post({ type: 'clear' }).catch(() => {});
    return this._post({ type: 'best', position, moves: [...moves], depth });
  }

  // Analyses a whole game (engine/analysis.h), ply by ply, with a node
  // budget per ply: onPly(ply, k, total) gets each ply as it is judged;
  // resolves with {done: n, ms}. Stop it with cancel().
  analyse({ position = null, moves = [], nodes = ANALYSIS_NODES, onPly = null } = {}) {
    return this._post({ type: 'analyse', position, moves: [...moves], nodes }, onPly);
  }

  newGame() {
    return this._post({ type: 'clear' });
  }

  // Stops a running search by ending the worker (a search cannot be
  // interrupted otherwise); the next call starts a new one.
  cancel() {
    if (this._worker) this._worker.terminate();
    this._worker = null;
    for (const p of this._pending.values()) p.reject({ cancelled: true });
    this._pending.clear();
  }
}
