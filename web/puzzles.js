// puzzles.js: the puzzles (web/puzzles-<game>.json, docs/cli.md
// "Puzzles") in a panel over the start page, on a board of their own: find
// the best move; each solver's move is checked against the puzzle's
// `moves`, the replies are played by the page after a short pause; a hint
// marks the first move's pit, the solution plays the line, and once done
// the engine (web/ai.js, in a worker: Oware's or Togyz Kumalak's) says what
// it makes of the position, searched to the puzzle's depth, and the
// position is open to try moves (analysis, judged again after each) or
// the next puzzle. A streak
// and a rating (Elo-like against the puzzle's difficulty) are kept in this
// browser, and a puzzle of the day is chosen by the date. The panel is a
// controller, puzzlePanel(opts, redraw), over a Board and the keys of the
// kind's record (kinds.js); its state is its own; every intent changes it,
// then draws the panel. tests/web/puzzles.test.mjs drives it in node.
// @ts-check
import { kindRec } from './kinds.js';
import { tIn, wordsIn } from './i18n.js';
import { Board } from './board.js';
import { $, load, store } from './ui.js';
import { setText, setHidden, setAttr, setDisabled } from './dom.js';
import { openRecord } from './study.js';

const REPLY_MS = 700;   // the pause before the page plays a reply
const START_RATING = 1200;
const K = 32;

const WON = 20000;     // a search score beyond this is a forced result
const KEY = (kind) => `oware.puzzles.${kind}`;

// A record with nothing played yet.
const freshRecord = () => ({ rating: START_RATING, streak: 0, best: 0, done: {} });

// What this browser keeps of a game's puzzles: {rating, streak, best, done: {id: 'solved'|'failed'}}.
export function record(kind) {
  let r = null;
  try { r = JSON.parse(load(KEY(kind)) || 'null'); } catch { r = null; }
  if (!r || typeof r.rating !== 'number') r = freshRecord();
  return r;
}

// A puzzle's rating: difficulty 1..5 as 1000..1800.
export const puzzleRating = (difficulty) => 800 + 200 * difficulty;

// The player's rating after a puzzle of difficulty, won (1) or lost (0).
export function rated(rating, difficulty, score) {
  const expected = 1 / (1 + 10 ** ((puzzleRating(difficulty) - rating) / 400));
  return Math.round(rating + K * (score - expected));
}

// The puzzle of the day (a date's 'YYYY-MM-DD', UTC): the same for everyone that day.
export function dailyIndex(date, n) {
  const days = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86400000);
  return ((days * 7919) % n + n) % n;
}
const today = () => new Date().toISOString().slice(0, 10);

/**
 * What the panel does besides its state: the page's own (pageEffects) in
 * the browser; the node tests hand fakes.
 * @typedef {object} PuzzleEffects
 * @property {(kind: string) => any} board      the panel's Board for kind
 * @property {(kind: string) => any} record     what this browser keeps of kind's puzzles
 * @property {(kind: string, r: any) => void} keep  kept again
 * @property {(kind: string) => any} computer   the engine's player of kind (ai.js's Computer)
 * @property {() => string} today               the date, 'YYYY-MM-DD' (UTC)
 * @property {number} replyMs                   the pause before the page plays a reply
 */

/**
 * The puzzles' controller: the panel's state and its intents. Nothing at
 * construction touches the page.
 * @param {{effects?: PuzzleEffects}} opts
 * @param {() => void} redraw
 */
export function puzzlePanel(opts, redraw) {
  const fx = opts.effects || pageEffects;
  const pz = Object.seal({
    kind: 'oware',
    // the file's puzzles (null: not loaded)
    list: null,
    failedLoad: false,
    // the puzzle open: its index in list (-1: none)
    at: -1,
    // it is the puzzle of the day
    daily: false,
    // the engine Game of the board shown
    game: null,
    // the next move of `moves` to play
    ply: 0,
    // 'solve' | 'reply' (the page's reply pending) | 'done' | 'analysis'
    phase: 'solve',
    // null until scored: 'solved' | 'failed'
    result: null,
    // the hint shown
    hint: false,
    // {kind: 'wrong' | 'done' | 'info', text}
    feedback: null,
    // the rating's change for this puzzle
    change: null,
    // the moves played from the puzzle's position
    played: [],
    // the engine's view once done: null | {thinking} | {over} | {turn, move, score, depth, pv}
    view: null,
    // What this browser keeps of kind's puzzles (fx.record's), read when the
    // panel opens or loads a kind and kept in step when a puzzle is scored:
    // the draw reads no storage.
    record: null,
  });
  let board = null;
  let replyTimer = null;
  // The words of the puzzles' game (its Togyz Kumalak variants).
  const t = (key, params) => tIn(pz.kind, key, params);
  let viewSeq = 0;       // the engine's answer to an older position is dropped

  const puzzle = () => pz.list[pz.at];
  const pitName = (p) => kindRec(pz.kind).holeName(p);

  // The first puzzle not yet played whose difficulty is nearest the rating.
  function nextIndex(r) {
    const want = Math.max(1, Math.min(5, Math.round((r.rating - 800) / 200)));
    let best = -1, dist = 9;
    pz.list.forEach((p, i) => {
      if (r.done[p.id] || i === pz.at) return;
      const d = Math.abs(p.difficulty - want);
      if (d < dist) { dist = d; best = i; }
    });
    return best < 0 ? (pz.at + 1) % pz.list.length : best;
  }

  function score(won) {
    if (pz.result) return;
    const p = puzzle();
    const r = fx.record(pz.kind);
    const before = r.rating;
    r.rating = rated(r.rating, p.difficulty, won ? 1 : 0);
    r.streak = won ? r.streak + 1 : 0;
    r.best = Math.max(r.best, r.streak);
    r.done[p.id] = won ? 'solved' : 'failed';
    fx.keep(pz.kind, r);
    pz.record = r;
    pz.result = won ? 'solved' : 'failed';
    pz.change = r.rating - before;
  }

  // The puzzles of kind asked for (their file is being fetched).
  function loading(kind) {
    pz.kind = kind;
    pz.list = null;
    pz.failedLoad = false;
    pz.record = fx.record(kind);
  }

  // The puzzles of kind (list: the file's, or null when it could not be loaded).
  function loaded(kind, list) {
    pz.kind = kind;
    pz.list = list;
    pz.failedLoad = !list;
    pz.record = fx.record(kind);
  }

  // The panel opened: drawn with what this browser keeps (before the
  // puzzles of the page's game are there).
  function opened() {
    pz.record = fx.record(pz.kind);
    redraw();
  }

  // Opens a puzzle of the kind loaded: the puzzle of the day (daily) or
  // the next one for the player's rating.
  function openFor(daily) {
    if (pz.list) openPuzzle(daily ? dailyIndex(fx.today(), pz.list.length) : nextIndex(fx.record(pz.kind)), daily);
    else redraw();
  }

  function openPuzzle(i, daily = false) {
    clearTimeout(replyTimer);
    pz.at = i;
    pz.daily = daily;
    pz.ply = 0;
    pz.phase = 'solve';
    pz.result = null;
    pz.hint = false;
    pz.feedback = null;
    pz.change = null;
    pz.played = [];
    pz.view = null;
    viewSeq++;
    pz.game = kindRec(pz.kind).Game.fromPosition(puzzle().position);
    board = fx.board(pz.kind);
    board.finish();
    board.show(pz.game.state());
    board.markLast(null);
    board.markHint(null);
    redraw();
  }

  // Plays pit on the board shown, sowing it; resolves once sown.
  function sow(pit) {
    const before = pz.game.state();
    const info = pz.game.play(pit);
    pz.played.push(pit);
    // Once sown, the pits' names say their new counts (as their text does).
    const shown = board;
    return board.animate(before, info, pz.game.state()).then(() => { shown.relabel(); shown.markLast(info); });
  }

  function tryMove(pit) {
    if (pz.at < 0 || !pz.game || board.anim) return;
    if (pz.phase === 'analysis') {
      if (!pz.game.isLegal(pit)) return;
      viewSeq++;
      pz.view = null;
      sow(pit).then(judge);
      redraw();
      return;
    }
    if (pz.phase !== 'solve') return;
    const p = puzzle();
    if (pit !== p.moves[pz.ply]) {
      score(false);
      pz.feedback = { kind: 'wrong', text: t('puzzle.wrong', { pit: pitName(pit) }) };
      redraw();
      return;
    }
    board.markHint(null);
    pz.hint = false;
    pz.ply++;
    const last = pz.ply >= p.moves.length;
    if (last) {
      score(true);
      pz.phase = 'done';
      pz.feedback = { kind: 'done', text: t(pz.result === 'solved' ? 'puzzle.solved' : 'puzzle.solved.late') };
      sow(pit).then(judge);
    } else {
      pz.phase = 'reply';
      pz.feedback = { kind: 'info', text: t('puzzle.good') };
      sow(pit).then(() => { replyTimer = setTimeout(reply, fx.replyMs); });
    }
    redraw();
  }

  // A key typed on the panel: a pit of the side to move (the kind's keys)
  // that may be played; true when it was one.
  function key(k) {
    if (!pz.game || pz.at < 0) return false;
    const pit = kindRec(pz.kind).pitForKey(k, pz.game.state().turn);
    if (!pit || !board.legal.has(pit)) return false;
    tryMove(pit);
    return true;
  }

  // The page plays the opponent's reply of the line.
  function reply() {
    const p = puzzle();
    const m = p.moves[pz.ply++];
    pz.feedback = { kind: 'info', text: t('puzzle.reply', { pit: pitName(m) }) };
    sow(m).then(() => {
      pz.phase = 'solve';
      redraw();
    });
    redraw();
  }

  function showHint() {
    if (pz.phase !== 'solve') return;
    pz.hint = true;
    score(false);
    board.markHint(puzzle().moves[pz.ply]);
    pz.feedback = { kind: 'info', text: t('puzzle.hint.note', { pit: pitName(puzzle().moves[pz.ply]) }) };
    redraw();
  }

  // The solution: the rest of the line, one move after another.
  async function showSolution() {
    if (pz.phase !== 'solve') return;
    score(false);
    pz.phase = 'reply';
    board.markHint(null);
    const p = puzzle();
    pz.feedback = { kind: 'info', text: t('puzzle.solution', { line: p.moves.map(pitName).join(', ') }) };
    redraw();
    while (pz.ply < p.moves.length) {
      const at = pz.at;
      await sow(p.moves[pz.ply++]);
      if (pz.at !== at) return;
      if (pz.ply < p.moves.length) await new Promise((res) => { replyTimer = setTimeout(res, fx.replyMs); });
    }
    pz.phase = 'done';
    judge();
  }

  // The engine's view of the position on the board, searched to the
  // puzzle's depth from its position and the moves played since.
  function judge() {
    const seq = ++viewSeq;
    const st = pz.game.state();
    if (st.over) {
      pz.view = { over: true };
    } else {
      pz.view = { thinking: true };
      fx.computer(pz.kind).atDepth({ position: puzzle().position, moves: pz.played, depth: puzzle().depth }).then((r) => {
        if (seq !== viewSeq) return;
        pz.view = { turn: st.turn, move: r.move, score: r.score, depth: r.depth, pv: r.pv };
        redraw();
      }, () => {
        if (seq !== viewSeq) return;
        pz.view = null;
        redraw();
      });
    }
    redraw();
  }

  function analyse() {
    pz.phase = 'analysis';
    pz.feedback = { kind: 'info', text: t('puzzle.analysis.note') };
    redraw();
  }

  // The analysis's position back to the puzzle's.
  function reset() {
    pz.game = kindRec(pz.kind).Game.fromPosition(puzzle().position);
    pz.played = [];
    board.finish();
    board.show(pz.game.state());
    board.markLast(null);
    judge();
  }

  // The panel closed: its timers and the engine's answer dropped.
  function closed() {
    clearTimeout(replyTimer);
    viewSeq++;
    if (board) board.finish();
    pz.at = -1;
  }

  return Object.freeze({ state: pz, puzzle, loading, loaded, opened, openFor, openPuzzle, next: () => openPuzzle(nextIndex(fx.record(pz.kind))),
    tryMove, key, showHint, showSolution, analyse, reset, closed, viewText: () => viewText(pz, pitName) });
}

// The engine's view in words.
function viewText(pz, pitName) {
  const t = wordsIn(pz.kind);
  const v = pz.view;
  if (!v) return '';
  if (v.thinking) return t('puzzle.engine.thinking');
  if (v.over) return t('puzzle.engine.over');
  const other = v.turn === 'south' ? 'north' : 'south';
  const leader = t(`side.${v.score >= 0 ? v.turn : other}`);
  const n = Math.round(Math.abs(v.score) / 16);
  const view = Math.abs(v.score) >= WON ? t('puzzle.engine.win', { side: leader })
    : n === 0 ? t('puzzle.engine.even')
      : t(n === 1 ? 'puzzle.engine.ahead.one' : 'puzzle.engine.ahead', { side: leader, n });
  return t('puzzle.engine', { depth: v.depth, side: t(`side.${v.turn}`), pit: pitName(v.move),
    line: v.pv.slice(0, 3).map(pitName).join(', '), view });
}

// ---- the page's binding: the Puzzles panel ----

let board = null;  // the panel's Board (made again for another kind)
const computers = {};
/** @type {PuzzleEffects} */
const pageEffects = {
  board: (kind) => {
    if (!board || board.kind !== kind) {
      board = new Board($('puzzles-board'), { south: $('puzzles-store-south'), north: $('puzzles-store-north') },
        { onPlay: (pit) => panel.tryMove(pit) }, kind);
    }
    return board;
  },
  record,
  keep: (kind, r) => store(KEY(kind), JSON.stringify(r)),
  computer: (kind) => (computers[kind] ||= kindRec(kind).computer()),
  today,
  replyMs: REPLY_MS,
};
// Each intent draws the panel, then the focus follows the pits that
// respond (Board.keepFocus: after the draw, not in it).
const panel = puzzlePanel({}, () => {
  drawPuzzles();
  if (board) board.keepFocus();
});
const pz = panel.state;
const puzzle = () => panel.puzzle();

async function loadPuzzles(kind) {
  if (pz.list && pz.kind === kind) return;
  panel.loading(kind);
  let list = null;
  try {
    const res = await fetch(new URL(`puzzles-${kind}.json`, import.meta.url));
    if (!res.ok) throw new Error(String(res.status));
    list = await res.json();
  } catch {
    list = null;
  }
  if (pz.kind === kind) panel.loaded(kind, list);
}

// The game of the screen under the panel (app.js's: the start page's).
let kindNow = () => 'oware';

// Opens the panel on a puzzle of the page's game: the puzzle of the day
// (daily) or the next one for the player's rating.
export async function openPuzzles(daily = false) {
  const dlg = $('puzzles');
  if (!dlg.open) {
    if (typeof dlg.showModal === 'function') dlg.showModal();
    else dlg.setAttribute('open', '');
  }
  const kind = kindNow();
  // Another game's puzzles: its words and record at once, its list once loaded.
  if (!(pz.list && pz.kind === kind)) panel.loading(kind);
  panel.opened();
  await loadPuzzles(kind);
  panel.openFor(daily);
  $('puzzles-title').focus();
}

export function drawPuzzles() {
  const dlg = $('puzzles');
  if (!dlg.open) return;
  const t = wordsIn(pz.kind);
  setText($('puzzles-title'), t('puzzle.title'));
  const r = pz.record || freshRecord();
  setText($('puzzles-stats'), t('puzzle.stats', { rating: r.rating, streak: r.streak, best: r.best }));
  setText($('puzzles-status'), pz.failedLoad ? t('puzzle.failed') : !pz.list ? t('learn.loading') : '');
  const open = !!pz.list && pz.at >= 0;
  setHidden($('puzzles-player'), !open);
  if (!open) return;
  const p = puzzle();
  // The date's hyphens do not break (a phone's narrow heading broke it in two).
  // Named by its place in the list (its id, for the tests and the data,
  // is an attribute: "o-r30" means nothing to a player).
  setText($('puzzles-name'), pz.daily ? t('puzzle.daily.name', { date: today().replace(/-/g, '\u2011') }) : t('puzzle.name', { num: pz.at + 1 }));
  setAttr($('puzzles-name'), 'data-id', p.id);
  setText($('puzzles-difficulty'), t('puzzle.difficulty', { n: p.difficulty }));
  const mover = p.position.turn;
  // The side bare, or with its article after the verb ("Juega el Sur").
  setText($('puzzles-task'), pz.phase === 'analysis' || pz.phase === 'done' ? '' : t('puzzle.task', { side: t(`side.${mover}`), the: t(`side.the.${mover}`) }));
  board.setView(mover);
  board.me = mover;
  const st = pz.game.state();
  board.setLegal(pz.phase === 'solve' ? st.legal : pz.phase === 'analysis' && !st.over ? st.legal : []);
  const fb = $('puzzles-feedback');
  // A sentence opens with a capital, also where a hole's name opens it
  // (Spanish "El hoyo 2 de las Blancas no es…").
  const said = pz.feedback ? pz.feedback.text : '';
  setText(fb, said.charAt(0).toUpperCase() + said.slice(1));
  setAttr(fb, 'data-kind', pz.feedback ? pz.feedback.kind : null);
  setText($('puzzles-engine'), pz.phase === 'done' || pz.phase === 'analysis' ? panel.viewText() : '');
  setText($('puzzles-change'), pz.change === null ? '' : t('puzzle.change', { d: (pz.change >= 0 ? '+' : '') + pz.change, rating: r.rating }));
  const solving = pz.phase === 'solve';
  setHidden($('puzzles-hint'), !solving);
  setDisabled($('puzzles-hint'), pz.hint);
  setHidden($('puzzles-solution'), !solving);
  setHidden($('puzzles-analyse'), pz.phase !== 'done');
  setHidden($('puzzles-reset'), pz.phase !== 'analysis');
  // Oware's record screen (review, the engine's analysis, play from here) takes the line.
  setHidden($('puzzles-study'), !kindRec(pz.kind).studied || (pz.phase !== 'done' && pz.phase !== 'analysis'));
  setHidden($('puzzles-next'), pz.phase === 'reply');
}

// The panel's buttons; kind(): the game of the screen under the panel.
/** @param {() => string} kind */
export function wirePuzzles(kind) {
  kindNow = kind;
  $('puzzles-open').addEventListener('click', () => openPuzzles(false));
  $('puzzles-daily').addEventListener('click', () => openPuzzles(true));
  $('puzzles-close').addEventListener('click', () => $('puzzles').close());
  $('puzzles').addEventListener('close', () => panel.closed());
  $('puzzles-hint').addEventListener('click', () => panel.showHint());
  $('puzzles-solution').addEventListener('click', () => panel.showSolution());
  $('puzzles-analyse').addEventListener('click', () => panel.analyse());
  $('puzzles-reset').addEventListener('click', () => panel.reset());
  // Oware's letters (Togyz's digits 1-9) play a pit of the side to move, as on the game screen.
  $('puzzles').addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (panel.key(ev.key)) {
      ev.preventDefault();
      ev.stopPropagation();
    } else if (board && /^[rostwl?]$/i.test(ev.key)) {
      // The reading keys and ? (ear.js, loaded then).
      const b = board;
      import('./ear.js').then((ear) => ear.readBoard(b, ev));
    }
  });
  $('puzzles-study').addEventListener('click', () => {
    const p = puzzle();
    $('puzzles').close();
    openRecord({ start: p.position, moves: p.moves.slice(), tags: {} });
  });
  $('puzzles-next').addEventListener('click', () => {
    panel.next();
    $('puzzles-task').focus();
  });
}
