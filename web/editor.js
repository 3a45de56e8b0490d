// editor.js: the start page's board editor: a position (seeds per pit, scores, side to move) checked by the engine's own validation, handicap presets, JSON or FEN pasted; a local game or a room started from it.
// start.js loads it when its card is first opened: a first visit does not carry it.
// @ts-check
import { Game, EngineError, fenRead, fenWrite } from './engine.js';
import { t, tIn } from './i18n.js';
import { $ } from './ui.js';
import { newLocal } from './local.js';
import { PRESETS } from './kinds.js';

const LETTERS = 'abcdefABCDEF';
const STANDARD = PRESETS.start;

// The 12 pits' inputs, a..F.
const inputs = [];

function num(input) {
  const v = input.value.trim();
  return /^-?\d+$/.test(v) ? Number(v) : NaN;
}

// The position the editor holds (counts maybe invalid).
function read() {
  const turn = document.querySelector('input[name="ed-turn"]:checked');
  return {
    pits: inputs.map(num),
    captured: { south: num($('ed-cap-south')), north: num($('ed-cap-north')) },
    turn: turn ? /** @type {HTMLInputElement} */ (turn).value : 'south',
  };
}

function fill(pos) {
  inputs.forEach((inp, i) => { inp.value = String(pos.pits[i]); });
  $('ed-cap-south').value = String(pos.captured.south);
  $('ed-cap-north').value = String(pos.captured.north);
  document.querySelectorAll('input[name="ed-turn"]').forEach((/** @type {HTMLInputElement} */ r) => { r.checked = r.value === pos.turn; });
  check();
}

const FIELD_NAMES = { 'captured.south': 'side.south', 'captured.north': 'side.north' };

// What is wrong with pos, in words, or null: the engine decides
// (Game.fromPosition is ow_pos_set), and a game over at once is refused.
function problem(pos) {
  if (![...pos.pits, pos.captured.south, pos.captured.north].every(Number.isInteger)) return t('editor.bad.number');
  let g;
  try {
    g = Game.fromPosition(pos);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    const total = pos.pits.reduce((s, v) => s + v, 0) + pos.captured.south + pos.captured.north;
    if (e.code === 'sum') return t('editor.bad.sum', { n: total });
    const f = e.field || '';
    const m = /^pits\[(\d+)\]$/.exec(f);
    // The editor is Oware's (kinds.js: studied).
    const where = m ? t('editor.pit', { pit: LETTERS[Number(m[1])] }) : FIELD_NAMES[f] ? t('editor.store', { side: tIn('oware', FIELD_NAMES[f]) }) : f;
    if (e.code === 'negative') return t('editor.bad.negative', { where });
    return t('editor.bad.big', { where });
  }
  if (g.over) return t('editor.bad.over');
  return null;
}

// The editor's position if the engine accepts it, else null (the reason shown).
function check() {
  const pos = read();
  const why = problem(pos);
  const out = $('ed-check');
  out.classList.toggle('bad', !!why);
  out.textContent = why || t('editor.ok', { fen: fenWrite(pos) });
  for (const id of ['ed-two', 'ed-ai', 'ed-online']) $(id).disabled = !!why;
  return why ? null : pos;
}

// The position to start from: null for the standard start.
function startPosition() {
  const pos = check();
  if (!pos) return undefined;
  const same = pos.turn === 'south' && !pos.captured.south && !pos.captured.north && pos.pits.every((v) => v === 4);
  return same ? null : pos;
}

// A pasted position: JSON ({pits, captured, turn}) or FEN.
function readPasted() {
  const text = $('ed-text').value.trim();
  const err = $('ed-error');
  let pos = null, why = null;
  if (!text) why = t('editor.paste.empty');
  else if (text.startsWith('{')) {
    try {
      const j = JSON.parse(text);
      // The engine's check.
      Game.fromPosition(j);
      pos = { pits: j.pits.slice(), captured: { south: j.captured.south, north: j.captured.north }, turn: j.turn };
    } catch (e) {
      why = e instanceof SyntaxError ? t('editor.paste.json') : t('editor.paste.bad', { why: e.message });
    }
  } else {
    try { pos = fenRead(text); } catch (e) { why = t('editor.paste.fen'); }
  }
  err.hidden = !why;
  err.textContent = why || '';
  // The field says it holds no position; the board's line above, about a
  // position the paste did not change, is no longer green meanwhile.
  $('ed-text').setAttribute('aria-invalid', why ? 'true' : 'false');
  $('ed-check').classList.toggle('held', !!why);
  if (pos) fill(pos);
}

// The paste field edited: its error goes.
function pasteEdited() {
  $('ed-error').hidden = true;
  $('ed-text').setAttribute('aria-invalid', 'false');
  $('ed-check').classList.remove('held');
}

// The editor inside the start page; start.js gives it aiChoice() (the
// computer chosen in its form "Against the computer": {level, side}) and
// createRoom(position) (a room with its create form's choices).
export function wireEditor({ aiChoice, createRoom }) {
  const rows = { south: $('ed-row-south'), north: $('ed-row-north') };
  for (let i = 0; i < 12; i++) {
    const inp = document.createElement('input');
    inp.type = 'number';
    inp.min = '0';
    inp.max = '48';
    inp.inputMode = 'numeric';
    inp.className = 'ed-pit';
    inp.dataset.pit = LETTERS[i];
    inp.setAttribute('aria-label', t('editor.pit.label', { pit: LETTERS[i] }));
    inp.addEventListener('input', check);
    const cell = document.createElement('label');
    cell.className = 'ed-cell';
    const letter = document.createElement('span');
    letter.className = 'ed-letter';
    letter.textContent = LETTERS[i];
    letter.setAttribute('aria-hidden', 'true');
    cell.append(inp, letter);
    inputs.push(inp);
    // North's row on top, right to left (as the board shows it to South).
    if (i < 6) rows.south.appendChild(cell); else rows.north.prepend(cell);
  }
  for (const id of ['ed-cap-south', 'ed-cap-north']) $(id).addEventListener('input', check);
  document.querySelectorAll('input[name="ed-turn"]').forEach((r) => r.addEventListener('change', check));
  document.querySelectorAll('[data-preset]').forEach((/** @type {HTMLElement} */ b) => b.addEventListener('click', () => fill(PRESETS[b.dataset.preset])));
  $('ed-read').addEventListener('click', readPasted);
  $('ed-text').addEventListener('input', pasteEdited);
  $('ed-text').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); readPasted(); } });
  $('ed-two').addEventListener('click', () => {
    const start = startPosition();
    if (start !== undefined) newLocal(null, { start, kind: 'oware' });
  });
  $('ed-ai').addEventListener('click', () => {
    const start = startPosition();
    if (start !== undefined) newLocal(aiChoice(), { start, kind: 'oware' });
  });
  $('ed-online').addEventListener('click', () => {
    const start = startPosition();
    if (start !== undefined) createRoom(start);
  });
}

let filled = false;

// The start page is shown (the engine is loaded): the editor holds the
// standard start the first time; its texts follow the language.
export function showEditor() {
  inputs.forEach((inp) => inp.setAttribute('aria-label', t('editor.pit.label', { pit: inp.dataset.pit })));
  if (!filled) { filled = true; fill(STANDARD); } else check();
}
