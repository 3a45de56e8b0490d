// start.js: the start page: a board at rest, the create form, Resume for an unfinished local game.
import { Game } from './engine.js';
import { t } from './i18n.js';
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
  // A board at rest, for the look of it.
  const hero = new Board($('hero-board'), {});
  const start = Game.start().state();
  hero.show(start);
  hero.setLegal([]);
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
