// draw-words.test.mjs: a game's words come from the state the draw is
// handed, not from a module's kind. The game screen's draw pass in node
// over a fake page (fake-dom.mjs), in English: a Togyz Kumalak game says
// White, Black and holes (there is no page's kind to set), and an Oware
// game drawn next on the same page says South and pits.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { installPage } from './fake-dom.mjs';

installPage();
globalThis.navigator = /** @type {any} */ ({ onLine: true, languages: ['en'], maxTouchPoints: 0 });
// i18n.js fetches its strings (web/i18n/<lang>.json): here from the files.
globalThis.fetch = /** @type {any} */ (async (url) => ({ ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(url), 'utf8')) }));
const { fakeEffects, loadEngines } = await import('./fakes.mjs');
const { setLang } = await import('../../web/i18n.js');
const { localGame } = await import('../../web/local.js');
const { setModel } = await import('../../web/model.js');
const { renderAll } = await import('../../web/render.js');
const { wireBoard } = await import('../../web/table.js');
await loadEngines();
await setLang('en');
wireBoard({ onPlay() {}, onPreview() {} });
const $ = (id) => document.getElementById(id);

function game(kind) {
  const { fx } = fakeEffects();
  const cpu = { best: () => new Promise(() => {}), hint: () => new Promise(() => {}), newGame: () => Promise.resolve(), cancel() {} };
  const saved = { kind, moves: [], ai: null, flipped: false, start: null };
  const g = localGame({ saved, computer: () => /** @type {any} */ (cpu), pauseMs: 0, effects: fx }, () => {});
  setModel(g.state);
  return g;
}

const pitLabel = (pit) => $('board').querySelectorAll('.pit').find((b) => b.dataset.pit === pit).getAttribute('aria-label');

test('a Togyz Kumalak game is drawn in its words', () => {
  const g = game('togyz');
  g.begin();
  g.play('c');
  renderAll(g.state);
  assert.equal($('status').textContent, 'Black to move: pick a hole in your row');
  assert.match($('note').textContent, /^White sowed hole 3/);
  assert.match(pitLabel('A'), /Black's hole/);
  assert.equal(document.body.dataset.kind, 'togyz');
  g.close();
});

test('an Oware game drawn next on the same page is in Oware\'s words', () => {
  const g = game('oware');
  g.begin();
  g.play('c');
  renderAll(g.state);
  assert.equal($('status').textContent, 'North to move: pick a pit in your row');
  assert.match($('note').textContent, /^South sowed c/);
  assert.match(pitLabel('A'), /North's pit/);
  assert.equal(document.body.dataset.kind, 'oware');
  g.close();
});
