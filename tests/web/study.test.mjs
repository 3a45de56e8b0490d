// study.test.mjs: the record screen's controller (web/study.js's
// recordGame) in node: its state made from a saved record (the moves
// replayed, the names and the date kept), nothing done at construction,
// a record the engine refuses making none; and what the study helpers
// read of the state they are handed (play from here, the OGN record).
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngines } from './fakes.mjs';
import { recordGame, canPlayHere, recordOgn } from '../../web/study.js';
import { newModel, facts } from '../../web/model.js';

await loadEngines();

const saved = { start: null, moves: ['c', 'B', 'e'], names: { south: 'Ama', north: null }, date: '2026.12.01' };

test('a saved record makes the record screen: the moves replayed, names and date kept, nothing shown yet', () => {
  let draws = 0, shown = 0;
  const screen = recordGame({ saved, effects: { show: () => { shown++; } } }, () => { draws++; });
  const m = screen.state;
  assert.equal(m.mode, 'record');
  assert.deepEqual(m.state.moves, ['c', 'B', 'e']);
  assert.equal(m.state.last.pit, 'e');
  assert.deepEqual(m.state.names, { south: 'Ama', north: null });
  assert.equal(m.study.date, '2026.12.01');
  assert.equal(m.timeline.moves.length, 3);
  assert.deepEqual([draws, shown], [0, 0]);
  screen.open();
  assert.deepEqual([draws, shown], [1, 1]);
  // The facts a view is handed: nobody moves on a record; its names.
  const f = facts(m);
  assert.equal(f.canMove, false);
  assert.equal(f.reviewable, true);
  assert.deepEqual(f.names, { south: 'Ama', north: null });
  assert.equal(f.kind, 'oware');
  assert.throws(() => { /** @type {any} */ (screen).play = 1; }, TypeError, 'frozen');
});

test('a record the engine refuses makes no screen', () => {
  assert.equal(recordGame({ saved: { moves: ['c', 'c'] } }, () => {}), null);
  assert.equal(recordGame({ saved: /** @type {any} */ ({ moves: 'x' }) }, () => {}), null);
});

test('play from here and the OGN record read the state they are handed', () => {
  const m = recordGame({ saved, effects: { show() {} } }, () => {}).state;
  assert.equal(canPlayHere(m), true);
  assert.equal(canPlayHere(null), false);
  // An online game still on: not from here.
  const live = newModel('online');
  live.timeline = m.timeline;
  live.state = m.state;
  assert.equal(canPlayHere(live), false);
  const ogn = recordOgn(m);
  assert.match(ogn, /\[South "Ama"\]/);
  assert.match(ogn, /\[Date "2026\.12\.01"\]/);
  assert.doesNotMatch(ogn, /Termination/, 'a record says no end it was not given');
});
