// local.js: the game on this device (two players or the computer):
// localGame(opts, redraw), the controller that owns its state (model.js's,
// mode 'local'), the computer and the intents (moves, saving, undo, hint,
// new game, flip); and the page's binding of it (startLocal, and the
// intents actions.js and app.js call). tests/web/local.test.mjs drives the
// controller in node with a fake computer.
// @ts-check
import { EngineError } from './engine.js';
import { kindOf, pitLabel } from './kind.js';
import { kindRec } from './kinds.js';
import { levelOn, nextLevel, saveLevel } from './ai.js';
import { t, tIn, applyStatic } from './i18n.js';
import { toast, announce, confirmDialog, show, store, load, setGameHeading } from './ui.js';
import { model as shownModel, setModel, newModel, moverOf, undoCount, mySide } from './model.js';
import { Timeline } from './timeline.js';
import { sideName, moveSaid, resultSentence, engineText } from './texts.js';
import { requestRedraw } from './redraw.js';
import { animateMove, finishMove, moveSettled } from './table.js';
import { stopStale } from './analysis.js';

const LOCAL_KEY = 'oware.local';

// The saved local game: {kind, moves, ai, flipped, start}, or null. kind:
// 'oware' or 'togyz'; start: the position its games start from (null: the
// standard start).
export function readLocal() {
  try {
    const saved = JSON.parse(load(LOCAL_KEY) || 'null');
    if (!saved || !Array.isArray(saved.moves)) return null;
    const kind = kindOf(saved.kind);
    const level = saved.ai && levelOn(kind, saved.ai.level);
    const ai = level && ['south', 'north'].includes(saved.ai.side) ? { level, side: saved.ai.side } : null;
    return { kind, moves: saved.moves.filter((m) => typeof m === 'string'), ai, flipped: !!saved.flipped, start: kindRec(kind).validStart(saved.start) };
  } catch { return null; }
}

// Whether a saved local game has moves and is not over (Resume offers it).
export function unfinishedLocal() {
  const saved = readLocal();
  if (!saved || !saved.moves.length) return false;
  try { return !kindRec(saved.kind).replay(saved.moves, saved.start).over; } catch { return false; }
}

// What the start page's Resume button says: which game is kept and the
// move it is at ("Resume: Oware against the computer (hard), move 13");
// '' without one.
export function resumeText() {
  const saved = unfinishedLocal() ? readLocal() : null;
  if (!saved) return '';
  const game = t(`kind.${saved.kind}`);
  // The move to make next.
  const n = saved.moves.length + 1;
  return saved.ai ? t('start.local.resume.ai', { game, n, level: t(`ai.level.${saved.ai.level}`).toLowerCase() })
    : t('start.local.resume.two', { game, n });
}

// Starts a new local game: ai null (two players) or {level, side}; from
// {start, moves}: a start position (null: the standard one) and the moves
// already played from it (play from here); kind: the game (the caller's:
// the start page's, the record's, the lessons'). A saved game not finished
// is only given up once the player says so.
/** @param {any} ai @param {{start?: any, moves?: string[], kind: string}} from */
export async function newLocal(ai, { start = null, moves = [], kind }) {
  if (unfinishedLocal() && !(await confirmDialog(t('local.replace.confirm'), t('local.replace.yes')))) return;
  store(LOCAL_KEY, JSON.stringify({ kind, moves, ai, start }));
  window.location.href = '?local=1';
}

/**
 * What a local game does to the page besides its state: the page's own
 * (pageEffects) in the browser; the node tests hand fakes.
 * @typedef {object} LocalEffects
 * @property {(text: string) => void} toast
 * @property {(text: string) => void} announce
 * @property {(text: string, ok: string) => Promise<boolean>} confirm
 * @property {(key: string, value: string | null) => void} store
 * @property {() => void} show         the game screen shown, its heading said
 * @property {(kind: string) => void} words  the page's static words follow the game (i18n.js)
 * @property {(before: any, last: any, after: any) => void} animate  a move's sowing
 * @property {() => void} finishMove   a sowing running ends at once
 * @property {() => Promise<void>} settled  resolves once no sowing runs
 * @property {(state: import('./model.js').GameState) => void} stopStale  an analysis of an old game stops
 */

/**
 * @typedef {object} LocalOptions
 * @property {ReturnType<typeof readLocal>} saved   the game kept in this browser (null: a new one, Oware, two players)
 * @property {() => import('./ai.js').Computer} [computer]  the computer player (kinds.js's by default)
 * @property {number} [pauseMs]        the least time between the sowing shown and the computer's move
 * @property {LocalEffects} [effects]
 */

/**
 * The local game's controller: made once per game screen; begin() shows it
 * and starts the computer's turn if it is the computer's (nothing at
 * construction touches the page or starts a worker).
 * @param {LocalOptions} opts
 * @param {() => void} redraw
 */
export function localGame(opts, redraw) {
  const fx = opts.effects || pageEffects;
  const saved = opts.saved;
  const pauseMs = opts.pauseMs === undefined ? 500 : opts.pauseMs;
  const model = newModel('local');
  model.kind = saved ? saved.kind : 'oware';
  let line = new Timeline(model.kind);
  if (saved) {
    try { line = new Timeline(saved.kind, saved.moves, saved.start); } catch { line = new Timeline(saved.kind, [], saved.start); }
    model.local.ai = saved.ai;
    model.flipped = saved.flipped;
  }
  model.timeline = line;
  model.start = line.start;
  localState();
  let closed = false;
  // The game's words (its Togyz Kumalak variants), and whose sides a
  // sentence names (names.js's Who: no names on this device).
  const tk = (key, params) => tIn(model.kind, key, params);
  const who = () => ({ kind: model.kind, names: null });

  // The computer's turn: web/ai.js searches in a worker while the page
  // lives (the kind's, kinds.js), started at its first search.
  /** @type {import('./ai.js').Computer | null} */
  let computer = null;
  const cpu = () => (computer ||= (opts.computer || kindRec(model.kind).computer)());
  let aiSeq = 0;

  function save() {
    fx.store(LOCAL_KEY, JSON.stringify({ kind: model.timeline.kind, moves: model.timeline.moves, ai: model.local.ai, flipped: model.flipped, start: model.start }));
  }

  // model.state in the protocol's shape, from the timeline.
  function localState() {
    const tl = model.timeline;
    const n = tl.moves.length;
    model.state = {
      game_number: model.local.game,
      game: tl.state(),
      moves: tl.moves.slice(),
      last: n ? tl.history[n - 1] : null,
      seats: null,
      start: tl.start,
      draw_offer: null,
      rematch_offer: null,
    };
  }

  // Called where the game changes: when it is the computer's turn, its search
  // starts; its move is played once the sowing shown has ended.
  function aiTurn() {
    if (closed || !model.local.ai || model.local.thinking) return;
    const tl = model.timeline;
    // (It plays on while the player looks back at an earlier position.)
    if (tl.over || tl.state().turn !== model.local.ai.side) return;
    const id = ++aiSeq;
    model.local.thinking = id;
    const moves = tl.moves.slice();
    // Easy's slips vary from game to game and move to move.
    const seed = (model.local.aiSeed = model.local.aiSeed || (Date.now() >>> 0)) + moves.length;
    const search = cpu().best({ position: model.start, moves, level: model.local.ai.level, seed });
    // A search cancelled during the sowing is answered below.
    search.catch(() => {});
    fx.settled().then(() => {
      const started = Date.now();
      return search.then((r) => ({ r, started }));
    }).then(({ r, started }) => {
      // A short pause after the sowing, so a quick reply still reads as a move.
      setTimeout(() => {
        if (closed || model.local.thinking !== id) return;
        model.local.thinking = null;
        if (model.timeline.moves.length === moves.length) play(r.move);
      }, Math.max(0, pauseMs - (Date.now() - started)));
    }, (e) => {
      if (closed || model.local.thinking !== id) return;
      model.local.thinking = null;
      if (!(e && e.cancelled)) fx.toast(t('error.unknown', { code: 'ai' }));
    });
  }

  function play(letter) {
    const before = model.state.game;
    let info;
    try { info = model.timeline.play(letter); } catch (e) {
      if (e instanceof EngineError) fx.toast(engineText(e.code, model.kind));
      return;
    }
    localState();
    model.preview = null;
    save();
    // Each move once, the player's own too ("You sowed c."); then the
    // result, or against the computer the player's turn again.
    const me = mySide(model), g = model.state.game;
    fx.announce(`${moveSaid(info, moverOf(letter), me, who())} ${g.over ? resultSentence(model.state, me, model.kind) : me && g.turn === me ? t('announce.turn') : ''}`.trim());
    // (Not while the player looks back: the board stays on the ply shown.)
    if (model.review === null) fx.animate(before, info, model.state.game);
    redraw();
    aiTurn();
  }

  // Takes back undoCount(model) moves (model.js).
  function undo() {
    const k = undoCount(model);
    if (!k) return;
    const moves = model.timeline.moves;
    const gone = moves.slice(moves.length - k);
    // A search of the computer (its move or a hint) is about a position that
    // goes away: stop it.
    if (computer && (model.local.thinking || (model.local.hint && !model.local.hint.move))) computer.cancel();
    model.local.thinking = null;
    model.local.hint = null;
    model.review = null;
    model.preview = null;
    fx.finishMove();
    // The engine cannot step back: play the moves kept again (once, here).
    model.timeline = new Timeline(model.timeline.kind, moves.slice(0, moves.length - k), model.start);
    localState();
    fx.stopStale(model);
    save();
    const pit = (p) => pitLabel(p, model.kind);
    const said = k === 1 ? tk('undo.one', { move: pit(gone[0]) }) : tk('undo.two', { first: pit(gone[0]), second: pit(gone[1]) });
    const turn = model.local.ai ? t('announce.turn') : tk('turn.local', { side: sideName(model.state.game.turn, model.kind) });
    fx.announce(`${said} ${turn}`);
    redraw();
    aiTurn();
  }

  // Starts the next game from the same position (asks first if this one is on).
  async function newGame() {
    const tl = model.timeline;
    if (tl.moves.length && !tl.over && !(await fx.confirm(t('action.newgame.confirm'), t('action.newgame')))) return;
    // From the same start position.
    model.timeline = new Timeline(tl.kind, [], model.start);
    model.local.game += 1;
    model.review = null;
    model.local.thinking = null;
    model.local.aiSeed = 0;
    if (computer) { computer.cancel(); computer.newGame().catch(() => {}); }
    localState();
    fx.stopStale(model);
    save();
    fx.announce(t('announce.start'));
    redraw();
    aiTurn();
  }

  // After a game won against the computer: the next game, one level up
  // (the same side and start), and that level kept as this game's choice.
  function playNextLevel() {
    const ai = model.local.ai;
    const next = ai && model.timeline.over ? nextLevel(ai.level, model.timeline.kind) : null;
    if (!next) return;
    model.local.ai = { ...ai, level: next };
    saveLevel(model.timeline.kind, next);
    newGame();
  }

  // Asks the computer for the move it would play here.
  function askHint() {
    const moves = model.timeline.moves.slice();
    model.local.hint = { ply: moves.length };
    redraw();
    cpu().hint({ position: model.start, moves }).then((r) => {
      if (closed || !model.local.hint || model.local.hint.ply !== moves.length || model.timeline.moves.length !== moves.length) return;
      model.local.hint = { ply: moves.length, move: r.move };
      fx.announce(tk('hint.note', { pit: pitLabel(r.move, model.kind) }));
      redraw();
    }, () => { if (!closed) { model.local.hint = null; redraw(); } });
  }

  // Turns the board by hand (kept with the game).
  function flip() {
    model.flipped = !model.flipped;
    save();
    redraw();
  }

  // Shows the game (its words follow its kind) and starts the computer's
  // turn if it is the computer's.
  function begin() {
    // The page's static words follow the game (the draw pass marks the body).
    fx.words(model.kind);
    fx.show();
    redraw();
    aiTurn();
  }

  // Nothing of this game runs on (a search answered later is dropped).
  function close() {
    closed = true;
    if (computer) computer.cancel();
  }

  // Frozen: the intents are these (a misspelled one is a type error too).
  return Object.freeze({ state: model, begin, close, play, undo, newGame, playNextLevel, askHint, flip });
}

/** @typedef {ReturnType<typeof localGame>} LocalGame */

// ---- the page's binding: one local game at a time ----

/** @type {LocalEffects} */
const pageEffects = {
  toast,
  announce,
  confirm: confirmDialog,
  store,
  show: () => {
    setGameHeading(shownModel && shownModel.local.ai ? 'screen.ai' : 'screen.local');
    show('game');
  },
  words: (kind) => applyStatic(document, kind),
  animate: animateMove,
  finishMove,
  settled: moveSettled,
  stopStale,
};

/** @type {LocalGame | null} */
let game = null;
const shown = () => !!game && shownModel === game.state;

// Opens the saved local game (or a new one).
// The least pause before the computer's move, in ms: 500, or what
// localStorage's oware.test.pause says (the browser tests' hook,
// docs/testing.md: 0 lets a whole game be played in seconds).
function aiPause() {
  const v = Number(load('oware.test.pause'));
  return load('oware.test.pause') !== null && Number.isInteger(v) && v >= 0 ? v : undefined;
}

export function startLocal() {
  if (game) game.close();
  game = localGame({ saved: readLocal(), pauseMs: aiPause() }, requestRedraw);
  setModel(game.state);
  game.begin();
}

export function playLocal(letter) { if (shown()) game.play(letter); }
export function undo() { if (shown()) game.undo(); }
export function newGame() { if (shown()) return game.newGame(); }
export function playNextLevel() { if (shown()) game.playNextLevel(); }
export function askHint() { if (shown()) game.askHint(); }
// How many moves Undo takes back now (0: none, or no local game shown).
export const undoLeft = () => (shown() ? undoCount(game.state) : 0);

// Turns the board by hand: a local game's (kept with it), or a spectator's
// view of a room.
export function flip() {
  if (shown()) { game.flip(); return; }
  if (!shownModel) return;
  shownModel.flipped = !shownModel.flipped;
  requestRedraw();
}
