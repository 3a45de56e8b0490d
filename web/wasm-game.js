// wasm-game.js: the Game class that engine.js (Oware) and togyz.js (Togyz
// Kumalak) share. Each wasm module has one working game (w_game, of
// w_game_size() bytes) that its exports act on; the module's Games take
// turns in it, each keeping its bytes while another one holds it.

// @ts-check
const MESSAGES = {
  not_pit: 'not a pit', not_yours: 'not a pit of the side to move',
  empty: 'the pit is empty', must_feed: 'the move does not feed the opponent',
  over: 'the game is over', negative: 'a negative count',
  sum: 'the counts do not add up to 48', turn: 'turn is neither south nor north',
  bad_position: 'malformed position',
};

// An engine's refusal, with a stable `code` (and the position's `field`
// at fault, when the engine names it).
export class EngineError extends Error {
  constructor(code, field) {
    super((MESSAGES[code] || code) + (field ? ` (${field})` : ''));
    this.name = 'EngineError';
    this.code = code;
    this.field = field || null;
  }
}

// A Game class over one module. eng: wasm() (its exports; throws when not
// loaded), readState(addr, legalMask) and readInfo() (the game's shapes),
// pitIndex(id) (a pit's index, -1 for none), code(err) (the name of a
// negative w_play code), and the byte offsets G_PLY and G_END in the game.
// Returns {Game, freeSlot, bytes}: a module extends Game with its
// fromPosition (through _fromInput) and what else is its own.
export function gameClass(eng) {
  let owner = null;  // the Game whose bytes are in the working slot now
  const bytes = (addr, len) => new Uint8Array(eng.wasm().memory.buffer, addr, len);
  const slot = () => bytes(eng.wasm().w_game(), eng.wasm().w_game_size());

  // Frees the slot for a game about to be read into it (its owner's bytes
  // saved). Returns take(g): g (a Game) now owns what the slot holds, and
  // giveBack(): the previous owner has the slot again (a failed read).
  function freeSlot() {
    const saved = owner;
    if (saved) saved._bytes = slot().slice();
    owner = null;
    return {
      take(g) { owner = g; return g; },
      giveBack() { if (saved) { owner = saved; slot().set(saved._bytes); } },
    };
  }

  class Game {
    constructor() {
      eng.wasm();
      this._bytes = null;  // this game's bytes while another game holds the slot
      this.moves = [];     // pit names played since the start position
      this.history = [];   // what each move did (readInfo's shape)
    }

    // Puts this game's bytes into the slot, saving the previous owner's.
    _use() {
      if (owner === this) return;
      if (owner) owner._bytes = slot().slice();
      slot().set(this._bytes);
      owner = this;
    }

    static start() {
      const g = freeSlot().take(new this());
      eng.wasm().w_start();
      return g;
    }

    // The game read by w_from_input from what fill() put in the module's
    // input, or an EngineError made by refused(err) (the slot unchanged).
    static _fromInput(fill, refused) {
      const w = eng.wasm();
      fill(w);
      const s = freeSlot();
      const err = w.w_from_input();
      if (err !== 0) {
        s.giveBack();
        throw refused(err);
      }
      return s.take(new this());
    }

    clone() {
      this._use();
      const g = new /** @type {any} */ (this.constructor)();
      g._bytes = slot().slice();
      g.moves = this.moves.slice();
      g.history = this.history.slice();
      return g;
    }

    legal() { return this.state().legal; }
    isLegal(id) { return this.legal().includes(id); }

    state() {
      this._use();
      return eng.readState(eng.wasm().w_game(), eng.wasm().w_legal());
    }

    get ply() { this._use(); return new Uint16Array(eng.wasm().memory.buffer, eng.wasm().w_game() + eng.G_PLY, 1)[0]; }
    get over() { this._use(); return bytes(eng.wasm().w_game(), eng.G_END + 1)[eng.G_END] !== 0; }

    // Plays a pit; returns what it did, or throws EngineError (the game
    // unchanged).
    play(id) {
      this._use();
      const err = eng.wasm().w_play(eng.pitIndex(id));
      if (err !== 0) throw new EngineError(eng.code(err));
      const info = eng.readInfo();
      this.moves.push(id);
      this.history.push(info);
      return info;
    }

    // What playing id would do, without playing it: {move, state} or
    // {error: code} for a move that is not legal.
    preview(id) {
      this._use();
      const w = eng.wasm();
      const err = w.w_preview(eng.pitIndex(id));
      if (err !== 0) return { error: eng.code(err) };
      const move = eng.readInfo();
      const scratch = w.w_scratch();
      const over = bytes(scratch, eng.G_END + 1)[eng.G_END] !== 0;
      let mask = 0;
      if (!over) {  // the legal moves after the preview: ask the engine on the scratch copy
        const keep = slot().slice();
        slot().set(bytes(scratch, w.w_game_size()));
        mask = w.w_legal();
        slot().set(keep);
      }
      return { move, state: eng.readState(scratch, mask) };
    }

    // Number of legal move sequences of exactly depth plies.
    perft(depth) {
      this._use();
      return eng.wasm().w_perft(depth);
    }

    // Replays pit names from the start (or from pos); returns the game or
    // throws EngineError with `ply` (1-based) set on the move that failed.
    static replay(moves, pos) {
      const g = pos ? /** @type {any} */ (this).fromPosition(pos) : this.start();
      moves.forEach((m, i) => {
        try {
          g.play(m);
        } catch (e) {
          if (e instanceof EngineError) /** @type {any} */ (e).ply = i + 1;
          throw e;
        }
      });
      return g;
    }
  }

  return { Game, freeSlot, bytes };
}
