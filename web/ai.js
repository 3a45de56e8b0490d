// ai.js: the computer opponent for the page, as an ES module. The search
// runs in web/ai-worker.js (a Web Worker), so the page stays responsive.
//
//   import { Computer } from './ai.js';
//   const cpu = new Computer();
//   const r = await cpu.best({ moves: game.moves, level: 'medium', seed: 7 });
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
// are the letters played from it (or from the start). level: 'easy',
// 'medium' or 'hard' (about one second). Easy's random slips follow seed:
// pass e.g. a per-game random number plus the ply for varied games.
// Errors (an illegal move list, a finished game) reject with an Error.

export const LEVELS = ['easy', 'medium', 'hard'];
// The analysis's node budget per ply in the page (docs/study.md, "For the
// browser"): a 100-ply game in about a minute on a phone-class device.
export const ANALYSIS_NODES = 300000;

export class Computer {
  constructor(workerUrl = new URL('ai-worker.js', import.meta.url)) {
    this._url = workerUrl;
    this._worker = null;
    this._pending = new Map();  // id -> {resolve, reject}
    this._next = 1;
  }

  _post(msg, onPly = null) {
    if (!this._worker) {
      this._worker = new Worker(this._url);
      this._worker.onmessage = (e) => {
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
      this._worker.postMessage({ ...msg, id });
    });
  }

  // The computer's move at level for the game of position + moves.
  best({ position = null, moves = [], level = 'hard', seed = 1, timeMs = 0 } = {}) {
    return this._post({ type: 'best', position, moves: [...moves], level, seed, timeMs });
  }

  // The hint: hard's move for the side to move.
  hint({ position = null, moves = [] } = {}) {
    return this.best({ position, moves, level: 'hard' });
  }

  // A plain search of exactly depth plies from an empty table
  // (reproducible: the move and score of `oware best --depth N` on the
  // same game). It forgets what the table held, as newGame() does.
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
