// local.js: the game on this device (two players or the computer): moves, saving, undo, hint, new game, flip.
import { EngineError } from './engine.js';
import { getKind, setKind, kindOf, pitLabel } from './kind.js';
import { kindRec } from './kinds.js';
import { levelOn, nextLevel, saveLevel } from './ai.js';
import { t, applyStatic } from './i18n.js';
import { toast, announce, confirmDialog, show, store, load, setGameHeading } from './ui.js';
import { model, setModel, newModel, moverOf, undoCount, mySide } from './model.js';
import { Timeline } from './timeline.js';
import { sideName, lastText, resultSentence, engineText } from './texts.js';
import { requestRedraw } from './redraw.js';
import { animateMove, finishMove, moveSettled } from './table.js';
import { stopStale } from './analysis.js';

const LOCAL_KEY = 'oware.local';

function saveLocal() {
  store(LOCAL_KEY, JSON.stringify({ kind: model.timeline.kind, moves: model.timeline.moves, ai: model.local.ai, flipped: model.flipped, start: model.start }));
}

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
  const n = saved.moves.length + 1;  // the move to make next
  return saved.ai ? t('start.local.resume.ai', { game, n, level: t(`ai.level.${saved.ai.level}`).toLowerCase() })
    : t('start.local.resume.two', { game, n });
}

// Starts a new local game: ai null (two players) or {level, side}; from
// {start, moves}: a start position (null: the standard one) and the moves
// already played from it (play from here); kind: the game (default: the
// page's, kind.js). A saved game not finished is only given up once the
// player says so.
export async function newLocal(ai, { start = null, moves = [], kind = getKind() } = {}) {
  if (unfinishedLocal() && !(await confirmDialog(t('local.replace.confirm'), t('local.replace.yes')))) return;
  store(LOCAL_KEY, JSON.stringify({ kind, moves, ai, start }));
  window.location.href = '?local=1';
}

// Opens the saved local game (or a new one).
export function startLocal() {
  setModel(newModel('local'));
  const saved = readLocal();
  setKind(saved ? saved.kind : 'oware');
  applyStatic();  // the page's words follow the game (the draw pass marks the body)
  let line = new Timeline(getKind());
  if (saved) {
    try { line = new Timeline(saved.kind, saved.moves, saved.start); } catch { line = new Timeline(saved.kind, [], saved.start); }
    model.local.ai = saved.ai;
    model.flipped = saved.flipped;
  }
  model.timeline = line;
  model.start = line.start;
  localState();
  setGameHeading(model.local.ai ? 'screen.ai' : 'screen.local');
  show('game');
  requestRedraw();
  aiTurn();
}

// The computer's turn: web/ai.js searches in a worker while the page lives
// (Oware's web/ai-worker.js, or Togyz's web/togyz-worker.js).
let computer = null;
function cpu() {
  if (!computer) {
    computer = kindRec(getKind()).computer();
  }
  return computer;
}
let aiSeq = 0;
// Called where the game changes: when it is the computer's turn, its search
// starts; its move is played once the sowing shown has ended.
function aiTurn() {
  if (!model || model.mode !== 'local' || !model.local.ai || model.local.thinking) return;
  const line = model.timeline;
  // (It plays on while the player looks back at an earlier position.)
  if (line.over || line.state().turn !== model.local.ai.side) return;
  const id = ++aiSeq;
  model.local.thinking = id;
  const moves = line.moves.slice();
  // Easy's slips vary from game to game and move to move.
  const seed = (model.local.aiSeed = model.local.aiSeed || (Date.now() >>> 0)) + moves.length;
  const search = cpu().best({ position: model.start, moves, level: model.local.ai.level, seed });
  search.catch(() => {});  // a search cancelled during the sowing is answered below
  moveSettled().then(() => {
    const started = Date.now();
    return search.then((r) => ({ r, started }));
  }).then(({ r, started }) => {
    // A short pause after the sowing, so a quick reply still reads as a move.
    setTimeout(() => {
      if (!model || model.local.thinking !== id) return;
      model.local.thinking = null;
      if (model.timeline.moves.length === moves.length) playLocal(r.move);
    }, Math.max(0, 500 - (Date.now() - started)));
  }, (e) => {
    if (!model || model.local.thinking !== id) return;
    model.local.thinking = null;
    if (!(e && e.cancelled)) toast(t('error.unknown', { code: 'ai' }));
  });
}

// model.state in the protocol's shape, from the timeline.
function localState() {
  const line = model.timeline;
  const n = line.moves.length;
  model.state = {
    game_number: model.local.game,
    game: line.state(),
    moves: line.moves.slice(),
    last: n ? line.history[n - 1] : null,
    seats: null,
    start: line.start,
    draw_offer: null,
    rematch_offer: null,
  };
}

export function playLocal(letter) {
  const before = model.state.game;
  let info;
  try { info = model.timeline.play(letter); } catch (e) {
    if (e instanceof EngineError) toast(engineText(e.code));
    return;
  }
  localState();
  model.preview = null;
  saveLocal();
  announce(lastText(info, moverOf(letter)) + (model.state.game.over ? ` ${resultSentence(model.state, mySide())}` : ''));
  animateMove(before, info, model.state.game);
  requestRedraw();
  aiTurn();
}

// Takes back undoCount() moves (model.js).
export function undo() {
  if (!model || model.mode !== 'local') return;
  const k = undoCount();
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
  finishMove();
  // The engine cannot step back: play the moves kept again (once, here).
  model.timeline = new Timeline(model.timeline.kind, moves.slice(0, moves.length - k), model.start);
  localState();
  stopStale();
  saveLocal();
  const said = k === 1 ? t('undo.one', { move: pitLabel(gone[0]) }) : t('undo.two', { first: pitLabel(gone[0]), second: pitLabel(gone[1]) });
  const turn = model.local.ai ? t('announce.turn') : t('turn.local', { side: sideName(model.state.game.turn) });
  announce(`${said} ${turn}`);
  requestRedraw();
  aiTurn();
}

// Starts the next game from the same position (asks first if this one is on).
export async function newGame() {
  const line = model.timeline;
  if (line.moves.length && !line.over && !(await confirmDialog(t('action.newgame.confirm'), t('action.newgame')))) return;
  model.timeline = new Timeline(line.kind, [], model.start);  // from the same start position
  model.local.game += 1;
  model.review = null;
  model.local.thinking = null;
  model.local.aiSeed = 0;
  if (computer) { computer.cancel(); computer.newGame().catch(() => {}); }
  localState();
  stopStale();
  saveLocal();
  announce(t('announce.start'));
  requestRedraw();
  aiTurn();
}

// After a game won against the computer: the next game, one level up
// (the same side and start), and that level kept as this game's choice.
export function playNextLevel() {
  const ai = model && model.mode === 'local' ? model.local.ai : null;
  const next = ai && model.timeline.over ? nextLevel(ai.level, model.timeline.kind) : null;
  if (!next) return;
  model.local.ai = { ...ai, level: next };
  saveLevel(model.timeline.kind, next);
  newGame();
}

// Asks the computer for the move it would play here.
export function askHint() {
  const moves = model.timeline.moves.slice();
  model.local.hint = { ply: moves.length };
  requestRedraw();
  cpu().hint({ position: model.start, moves }).then((r) => {
    if (!model || !model.local.hint || model.local.hint.ply !== moves.length || model.timeline.moves.length !== moves.length) return;
    model.local.hint = { ply: moves.length, move: r.move };
    announce(t('hint.note', { pit: pitLabel(r.move) }));
    requestRedraw();
  }, () => { if (model) { model.local.hint = null; requestRedraw(); } });
}

// Turns the board by hand (also a spectator's, online: only a local game
// is saved).
export function flip() {
  model.flipped = !model.flipped;
  if (model.mode === 'local') saveLocal();
  requestRedraw();
}
