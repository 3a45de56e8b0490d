// timeline.js: a game's moves with the position after every ply, so review looks a ply up, never replays.
// @ts-check
import { KIND } from './kinds.js';

export class Timeline {
  // Plays moves from start (a position {pits, captured, turn}; null: the
  // standard start); throws EngineError on a position or move the engine
  // refuses. kind: the game, 'oware' or 'togyz' (the caller says which).
  constructor(kind, moves = [], start = null) {
    if (!Object.hasOwn(KIND, kind)) throw new TypeError(`Timeline: no game ${kind}`);
    const G = KIND[kind].Game;
    this.kind = kind;
    this.start = start || null;
    this._game = start ? G.fromPosition(start) : G.start();
    this._positions = [this._game.state()];  // the position after each ply (0: the start)
    moves.forEach((m) => this.play(m));
  }

  get moves() { return this._game.moves; }      // letters played
  get history() { return this._game.history; }  // the engine's record of each move
  get over() { return this.state().over; }

  // The position now (the JSON shape of `oware play`).
  state() { return this._positions[this._positions.length - 1]; }

  // The position after ply plies (0 to moves.length) and the move that led
  // there (null at the start).
  at(ply) {
    return { game: this._positions[ply], last: ply > 0 ? this._game.history[ply - 1] : null };
  }

  // Plays a letter; returns its record, or throws EngineError (nothing changed).
  play(letter) {
    const info = this._game.play(letter);
    this._positions.push(this._game.state());
    return info;
  }

  // What letter would do from the position now: {move, state} or {error}.
  preview(letter) { return this._game.preview(letter); }
}
