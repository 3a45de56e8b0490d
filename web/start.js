// start.js: the start page: a board at rest, the create form, Resume for an unfinished local game.
import { Game } from './engine.js';
import { Game as TogyzGame } from './togyz.js';
import { t, applyStatic } from './i18n.js';
import { setKind, chosenKind, chooseKind, isTogyz } from './kind.js';
import { Board } from './board.js';
import { $, show } from './ui.js';
import { setModel } from './model.js';
import { unfinishedLocal } from './local.js';
import { myName } from './names.js';
import { drawGames } from './games.js';
import { showEditor } from './editor.js';

// error: a sentence to show under the create form (a room not created).
export function showStart(error) {
  setModel(null);
  show('start');
  showKind(chosenKind());
  $('create').disabled = false;
  $('create').textContent = t('start.create');
  $('start-name').value = myName() || '';
  drawGames();
  $('create-error').hidden = !error;
  $('create-error').textContent = error || '';
  $('local-resume').hidden = !unfinishedLocal();
  showEditor();
  if (window.location.search) window.history.replaceState(null, '', './');
}

// The game the start page offers (Oware or Togyz Kumalak): its words, its
// board at rest, and the cards that are Oware's only (records, the editor).
function showKind(kind) {
  setKind(kind);
  document.querySelectorAll('#kind-choice input[name="kind"]').forEach((r) => { r.checked = r.value === kind; });
  applyStatic();
  document.body.dataset.kind = kind;
  const root = $('hero-board');
  root.querySelectorAll('.row').forEach((r) => r.replaceChildren());
  const hero = new Board(root, {}, {}, kind);
  hero.show((isTogyz(kind) ? TogyzGame : Game).start().state());
  hero.setLegal([]);
  $('study').hidden = isTogyz(kind);
  $('editor').hidden = isTogyz(kind);
}

// The start page's game choice: remembered, and shown at once.
export function wireStart() {
  $('kind-choice').addEventListener('change', (ev) => {
    if (ev.target.name !== 'kind') return;
    chooseKind(ev.target.value);
    showKind(ev.target.value);
  });
}
