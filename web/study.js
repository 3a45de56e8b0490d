// study.js: records in and out (Aualé's OGN, through engine.wasm), a game
// opened from a record for review (recordGame(opts, redraw), the record
// screen's controller, tested in node by tests/web/study.test.mjs), and
// play from here. What it reads of a game screen it is handed (the state
// shown, for the buttons wired here).
// @ts-check
import { ognWrite, ognRead, EngineError, RecordError } from './engine.js';
import { kindRec } from './kinds.js';
import { t, has, loadPart } from './i18n.js';
import { $, show, store, load, copyText } from './ui.js';
import { setModel, newModel, other, shownPly } from './model.js';
import { Timeline } from './timeline.js';
import { engineText } from './texts.js';
import { requestRedraw } from './redraw.js';
import { setHidden } from './dom.js';
import { newLocal } from './local.js';

const RECORD_KEY = 'oware.record';

// Our own move lists: "c F a B", maybe with move numbers ("1.") and
// capture marks ("c+3", checked), and a result last ("25-18" or "*").
const OUR_MOVE = /^(?:\d+\.+)?([a-fA-F])(?:\+(\d+))?$/;
const NUMBER = /^\d+\.+$/;
const RESULT = /^(?:\*|\d+-\d+)$/;

// Reads our letters; throws RecordError (line, reason) like the OGN reader.
function readOurs(text) {
  const moves = [], lines = [], marks = [];
  const rows = text.split(/\r\n|\r|\n/);
  let result = null;
  rows.forEach((row, i) => {
    for (const tok of row.trim().split(/\s+/).filter(Boolean)) {
      if (result) throw new RecordError(result.line, t('import.after.result', { token: tok }));
      if (NUMBER.test(tok)) continue;
      const m = OUR_MOVE.exec(tok);
      if (m) {
        moves.push(m[1]);
        lines.push(i + 1);
        marks.push(m[2] === undefined ? null : Number(m[2]));
      } else if (RESULT.test(tok)) {
        result = { line: i + 1 };
      } else {
        throw new RecordError(i + 1, t('import.token', { token: tok }));
      }
    }
  });
  const line = new Timeline('oware');  // records are Oware's
  moves.forEach((mv, k) => {
    let info;
    try { info = line.play(mv); } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      // The engine's sentence ("That pit is empty.") inside ours.
      const why = engineText(e.code, line.kind).replace(/\.$/, '');
      throw new RecordError(lines[k], t('import.move', { n: k + 1, move: mv, why: why.charAt(0).toLowerCase() + why.slice(1) }));
    }
    if (marks[k] !== null && marks[k] !== info.seeds) {
      throw new RecordError(lines[k], t('import.mark', { at: k + 1, move: mv, mark: marks[k], n: info.seeds }));
    }
  });
  return { start: null, moves, tags: {} };
}

// The first move letter of a text without tags, or null.
function firstMove(text) {
  for (const tok of text.split(/\s+/)) {
    const m = OUR_MOVE.exec(tok);
    if (m) return m[1];
  }
  return null;
}

// The OGN reader's reasons (engine/ogn.c, in English) in the page's words
// and language: each pattern's groups fill {1}, {2}… of its sentence, and
// the letters are said to be OGN's where they are the opposite of the
// page's. A reason matched by none stays as it is.
const OGN_REASONS = [
  [/^more than (\d+) tags$/, 'ogn.tags'],
  [/^tag name longer than 31 bytes$/, 'ogn.tagname'],
  [/^a tag needs a name: \[Name "value"\]$/, 'ogn.noname'],
  [/^malformed tag (".*"): \[Name "value"\]$/, 'ogn.malformed'],
  [/^tag (".*"): the value must be in double quotes$/, 'ogn.quotes'],
  [/^tag (".*"): the value has no closing quote$/, 'ogn.unclosed'],
  [/^tag (".*"): value longer than 255 bytes$/, 'ogn.long'],
  [/^tag (\".*\"): ']' expected after the value$/, 'ogn.bracket'],
  [/^tag (".*"): the value must be UTF-8 text without control characters$/, 'ogn.utf8'],
  [/^tag (".*") given twice$/, 'ogn.twice'],
  [/^Variant (".*") is not "Oware Abapa"$/, 'ogn.variant'],
  [/^FEN (\".*\"): 14 counts/, 'ogn.fen'],
  [/^FEN (".*"): pits and scores must add up to 48$/, 'ogn.fensum'],
  [/^FEN (".*"): invalid$/, 'ogn.fenbad'],
  [/^comment '\{' never closed$/, 'ogn.comment'],
  [/^variation '\(' never closed$/, 'ogn.variation'],
  [/^(".*") after the moves of "\{Continued:" \(only the result may follow\)$/, 'ogn.continued'],
  [/^move (\d+) (".*"): it captures (\d+) (seeds?)$/, 'ogn.mark'],
  [/^not a move: (".*") \(a letter A-F for South, a-f for North, maybe \+N\)$/, 'ogn.notmove'],
  [/^more than (\d+) moves$/, 'ogn.plies'],
  [/^move (\d+) (".*"): a pit of North \(lower case\); South \(upper case\) is to move$/, 'ogn.notyours.s'],
  [/^move (\d+) (".*"): a pit of South \(upper case\); North \(lower case\) is to move$/, 'ogn.notyours.n'],
  [/^move (\d+) (".*"): the pit is empty$/, 'ogn.empty'],
  [/^move (\d+) (".*"): North has no seeds and this move does not feed them$/, 'ogn.feed.n'],
  [/^move (\d+) (".*"): South has no seeds and this move does not feed them$/, 'ogn.feed.s'],
  [/^move (\d+) (".*"): the game is over$/, 'ogn.over'],
  [/^(".*") after the result$/, 'ogn.afterresult'],
  [/^unexpected (".*") \(a move number "N\." or a result "S-N"\)$/, 'ogn.number'],
  [/^unexpected (".*") \(moves are A-F for South, a-f for North\)$/, 'ogn.unexpected.move'],
  [/^unexpected (".*")$/, 'ogn.unexpected'],
  [/^the result (".*") inside "\{Continued:" \(it goes after its \'\}\'\)$/, 'ogn.resultin'],
  [/^"\{Continued:" never closed$/, 'ogn.contopen'],
  [/^the result (".*") differs from the Result tag$/, 'ogn.resulttag'],
  [/^Result (".*") but the game ends (\S+)$/, 'ogn.resultend.tag'],
  [/^the result (".*") but the game ends (\S+)$/, 'ogn.resultend'],
  [/^the record is longer than 128 KB$/, 'ogn.size'],
];

// Their words are a part of their own (web/i18n/ogn/, loadPart('ogn')),
// fetched when a record is opened: without it a reason stays in English.
export function ognReason(reason) {
  for (const [re, key] of OGN_REASONS) {
    const m = /** @type {RegExp} */ (re).exec(reason);
    if (m && has(key)) return t(key, Object.fromEntries(m.slice(1).map((v, i) => [String(i + 1), v])));
  }
  return reason;
}

// Reads a pasted or opened record: OGN (tags, or moves whose first is
// upper case: South in OGN), else our letters (South's first move lower
// case). Returns {start, moves, tags}; throws RecordError.
export function parseRecord(text) {
  const s = String(text || '').replace(/^\uFEFF/, '');
  if (!s.trim()) throw new RecordError(1, t('import.empty'));
  const tagged = /^\s*\[/m.test(s);
  const first = tagged ? null : firstMove(s);
  // Text with no tag and no move at all is read as ours, so its error
  // speaks of the page's letters (a-f South), not OGN's.
  if (!tagged && (!first || first === first.toLowerCase())) return readOurs(s);
  try {
    return ognRead(s);
  } catch (e) {
    if (e instanceof RecordError) throw new RecordError(e.line, ognReason(e.reason));
    throw e;
  }
}

// A record's tag, unless unknown ("?" or absent).
function tag(tags, name) {
  const v = tags[name];
  return v && v !== '?' ? v : null;
}

// Opens a record read by parseRecord in review (it is kept for a reload).
export function openRecord(rec) {
  const saved = {
    start: rec.start, moves: rec.moves,
    names: { south: tag(rec.tags, 'South'), north: tag(rec.tags, 'North') },
    date: tag(rec.tags, 'Date'),
  };
  store(RECORD_KEY, JSON.stringify(saved));
  const u = new URL(window.location.href);
  u.search = '?record=1';
  window.history.replaceState(null, '', u.href);
  startRecord();
}

/**
 * A record kept by openRecord (localStorage's oware.record).
 * @typedef {{start?: any, moves: string[], names?: {south?: string | null, north?: string | null}, date?: string | null}} SavedRecord
 */

/**
 * The record screen's controller: its state (model.js's, mode 'record')
 * made from a saved record, and its intent open(). Nothing at
 * construction touches the page; a record the engine refuses (or no
 * record) makes none: null.
 * @param {{saved: SavedRecord | null, effects?: {show: () => void}}} opts
 * @param {() => void} redraw
 */
export function recordGame(opts, redraw) {
  const fx = opts.effects || { show: () => show('game') };
  const saved = opts.saved;
  let line;
  try {
    // Records are Oware's.
    line = new Timeline('oware', saved.moves, saved.start || null);
  } catch { return null; }
  const model = newModel('record');
  model.timeline = line;
  model.start = line.start;
  model.study.date = saved.date || null;
  const n = line.moves.length;
  model.state = {
    game_number: 1, game: line.state(), moves: line.moves.slice(),
    last: n ? line.history[n - 1] : null, seats: null, draw_offer: null, rematch_offer: null,
    names: { south: saved.names && saved.names.south || null, north: saved.names && saved.names.north || null },
    start: line.start,
  };
  // The game screen shows the record.
  function open() {
    fx.show();
    redraw();
  }
  return Object.freeze({ state: model, open });
}

// Shows the record kept by openRecord; false when there is none (or the
// engine refuses it).
export function startRecord() {
  let saved;
  try { saved = JSON.parse(load(RECORD_KEY) || 'null'); } catch { return false; }
  const screen = saved ? recordGame({ saved }, requestRedraw) : null;
  if (!screen) return false;
  setModel(screen.state);
  screen.open();
  return true;
}

// Today as OGN writes a date: "2026.11.30".
function today() {
  const d = new Date();
  const p = (v) => String(v).padStart(2, '0');
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}

// The OGN record of the game of state m (a game screen's): its start,
// moves, the players' names where known, the date, the result of a game
// over by the rules.
/** @param {import('./model.js').GameState} model */
export function recordOgn(model) {
  const st = model.state;
  const names = st.names || {};
  const text = ognWrite({
    start: model.timeline ? model.timeline.start : (st.start || null),
    moves: st.moves,
    south: names.south || '',
    north: names.north || '',
    date: model.mode === 'record' ? (model.study.date || '') : today(),
  });
  // A game that ended off the board (a resignation, a timeout, an
  // agreement, an abort) keeps Result "*": in OGN a result is the final
  // scores of a game the rules ended, and Aualé would read "1-0" as seeds.
  // How it ended is said twice, the same on every page: in a Termination
  // tag (PGN's name for it; Aualé and this reader keep a tag they do not
  // know) and in a comment on the last move, which Aualé shows with it.
  const how = endComment(model, st.game);
  if (!how) return text;
  const tag = `[Termination "${how}"]\n`;
  const cut = text.indexOf('\n\n');  // the tags end; the moves follow
  const tagged = cut < 0 ? text + tag : text.slice(0, cut + 1) + tag + text.slice(cut + 1);
  return `${tagged}{${how}}\n`;
}

// How a game ended that the rules did not end, in English (a record is the
// same whatever the page's language), or ''.
const ENDS = {
  resign: (w, l) => `${l} resigned; ${w} won`,
  abandoned: (w, l) => `${l} left the game and did not come back; ${w} won`,
  timeout: (w, l) => `${l} ran out of time; ${w} won`,
  agreement: () => 'Drawn by agreement',
};
/** @param {import('./model.js').GameState} model @param {any} g */
function endComment(model, g) {
  if (!g || !g.over || model.mode === 'record') return '';
  if (g.reason === 'aborted') return 'Game aborted';
  const end = ENDS[g.reason];
  if (!end) return '';
  const side = (s) => (s === 'south' ? 'South' : 'North');
  const loser = g.winner === 'south' ? 'north' : 'south';
  return end(side(g.winner), side(loser));
}

// The record of the game shown (the buttons of record.js: model, the
// state shown) copied: OGN, or the game's own notation.
/** @param {import('./model.js').GameState} model */
export function copyRecord(model) {
  // Togyz Kumalak: the Kazakh two-digit notation (togyz.js).
  const own = model.timeline && kindRec(model.timeline.kind).record;
  const text = own ? own(model.timeline.history, model.timeline.state()) : recordOgn(model);
  copyText(text, t('record.copied'), $('record-text'));
}

// Saves the record of the game shown as a .ogn file.
/** @param {import('./model.js').GameState} model */
export function downloadRecord(model) {
  const blob = new Blob([recordOgn(model)], { type: 'text/plain;charset=utf-8' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `oware-${today().replace(/\./g, '-')}.ogn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// Play from here: a local game from the shown position, with the moves up
// to it kept (so Undo goes back through them): two players (ai null), or
// against the computer, which takes the side not to move.
/** @param {import('./model.js').GameState} model the state shown */
function playFromHere(model, vsComputer) {
  const ply = shownPly(model);
  const line = model.timeline;
  if (!line) return;
  const g = line.at(ply).game;
  if (g.over) return;
  const ai = vsComputer ? { level: 'medium', side: other(g.turn) } : null;
  // The game shown's (a Togyz room's too).
  newLocal(ai, { start: line.start, moves: line.moves.slice(0, ply), kind: line.kind });
}

// Whether play from here is possible at the ply state m shows (pure).
/** @param {import('./model.js').GameState | null} m */
export function canPlayHere(m) {
  if (!m || !m.timeline || m.mode === 'online' && !m.state.game.over) return false;
  const g = m.timeline.at(shownPly(m)).game;
  return !!g && !g.over;
}

/** @param {import('./model.js').Facts} f */
export function drawPlayHere(f) {
  const on = f.reviewable && canPlayHere(f.model);
  setHidden($('play-here'), !on);
}

// The start page's import card.
async function importText(text) {
  const err = $('import-error');
  let rec;
  await loadPart('ogn');
  try {
    rec = parseRecord(text);
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    err.textContent = t('import.bad', { line: e.line, why: e.reason });
    err.hidden = false;
    return;
  }
  err.hidden = true;
  openRecord(rec);
}

// The buttons of play from here act on the game screen shown (shown():
// its state), the import card's open a record.
/** @param {() => import('./model.js').GameState} shown */
export function wireStudy(shown) {
  $('here-two').addEventListener('click', () => playFromHere(shown(), false));
  $('here-ai').addEventListener('click', () => playFromHere(shown(), true));
  $('import-open').addEventListener('click', () => importText($('import-text').value));
  $('import-file').addEventListener('change', async (ev) => {
    const file = ev.target.files && ev.target.files[0];
    ev.target.value = '';
    if (!file) return;
    if (file.size > 1 << 20) {
      $('import-error').textContent = t('import.big');
      $('import-error').hidden = false;
      return;
    }
    const text = await file.text();
    $('import-text').value = text;
    importText(text);
  });
}
