// start.test.mjs: the start page's controller (web/start.js's startScreen)
// in node: the game it offers is its state, made from this browser's
// choice and changed by the game choice, which is kept (kind.js's
// chooseKind: a page opened next offers it); each game keeps its own
// level (ai.js's, in localStorage), one of another game's ladder is
// refused; a room is asked for with the form's choices and the game
// offered, and a bad clock or a name refused asks for nothing and leaves
// the state as it was; a game on this device is of the game offered.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installPage } from './fake-dom.mjs';

const { storage } = installPage();
globalThis.navigator = /** @type {any} */ ({ onLine: true, languages: ['en'], maxTouchPoints: 0 });
const { startScreen } = await import('../../web/start.js');
const { chosenKind, chooseKind } = await import('../../web/kind.js');
const { savedLevel, saveLevel } = await import('../../web/ai.js');
// Typing a name loads the words a name may not be (names.js, start.js's input).
await (await import('../../web/names.js')).loadNameWords();

// The page's own storage of the game and the levels (over the fake
// localStorage), and what is asked of the page besides, recorded.
function screen(kind = chosenKind()) {
  const said = { kept: [], rooms: [], local: [], remembered: [], draws: 0 };
  const fx = {
    chooseKind: (k) => { said.kept.push(k); chooseKind(k); },
    savedLevel,
    saveLevel,
    rememberName: (name) => said.remembered.push(name),
    startOnline: (room, side, clock, position, k) => said.rooms.push({ room, side, clock, position, kind: k }),
    newLocal: (ai, { kind: k }) => said.local.push({ ai, kind: k }),
  };
  const ctrl = startScreen({ kind, effects: fx }, () => { said.draws++; });
  return { ctrl, st: ctrl.state, said };
}

const snapshot = (st) => JSON.stringify(st);

test('nothing is done at construction; the game is the one handed, Oware for anything else', () => {
  // The storage refuses every read meanwhile (fake-dom.mjs counts them).
  storage.forbid = true;
  let made;
  try { made = screen('togyz'); } finally { storage.forbid = false; }
  const { ctrl, st, said } = made;
  assert.equal(st.kind, 'togyz');
  assert.deepEqual([said.draws, said.kept.length, storage.reads], [0, 0, 0]);
  assert.equal(screen('chess').st.kind, 'oware');
  assert.equal(screen(undefined).st.kind, 'oware');
  assert.throws(() => { /** @type {any} */ (st).other = 1; }, TypeError, 'sealed');
  assert.throws(() => { /** @type {any} */ (ctrl).open = null; }, TypeError, 'frozen');
});

test('the game chosen is the state, kept in this browser: the next page offers it', () => {
  localStorage.removeItem('oware.kind');
  const { ctrl, st, said } = screen();
  assert.equal(st.kind, 'oware');
  ctrl.open();
  ctrl.chooseKind('togyz');
  assert.equal(st.kind, 'togyz');
  assert.deepEqual(said.kept, ['togyz']);
  assert.equal(said.draws, 1);
  assert.equal(localStorage.getItem('oware.kind'), 'togyz');
  assert.equal(screen().st.kind, 'togyz', 'a page opened next offers it');
  ctrl.chooseKind('nonsense');
  assert.equal(st.kind, 'oware');
  assert.equal(chosenKind(), 'oware');
});

test('each game keeps its own level; a step of another ladder is refused', () => {
  for (const k of ['oware', 'togyz']) localStorage.removeItem(`oware.level.${k}`);
  const { ctrl, st } = screen('oware');
  ctrl.open();
  assert.equal(st.level, 'medium', 'no level chosen yet');
  ctrl.chooseLevel('club');
  assert.equal(st.level, 'club');
  assert.equal(localStorage.getItem('oware.level.oware'), 'club');
  ctrl.chooseKind('togyz');
  assert.equal(st.level, 'medium', 'Togyz Kumalak has no level chosen yet');
  const was = snapshot(st);
  ctrl.chooseLevel('club');  // Oware's, not on Togyz Kumalak's ladder
  assert.equal(snapshot(st), was);
  assert.equal(localStorage.getItem('oware.level.togyz'), null);
  ctrl.chooseLevel('learner');
  ctrl.chooseKind('oware');
  assert.equal(st.level, 'club', "Oware's own level back");
  ctrl.chooseKind('togyz');
  assert.equal(st.level, 'learner');
  // A level kept by an older page (Togyz's club): the step that took its place.
  localStorage.setItem('oware.level.togyz', 'club');
  ctrl.open();
  assert.equal(st.level, 'advanced');
});

test('a room is asked for with the form\'s choices and the game offered; a refusal asks for nothing and changes nothing', () => {
  const { ctrl, st, said } = screen('togyz');
  ctrl.open();
  const draws = said.draws;
  const was = snapshot(st);
  // A name the page refuses (a side's), said at the name field.
  assert.deepEqual(ctrl.createRoom({ side: 'south', clock: null, name: 'North', position: null }), 'name.bad');
  // A custom clock out of its limits, said under the form.
  assert.deepEqual(ctrl.createRoom({ side: 'south', clock: { initial: 5, increment: 0 }, name: 'Ama', position: null }), 'clock.error.initial');
  assert.equal(snapshot(st), was, 'the state is unchanged');
  assert.deepEqual([said.rooms, said.remembered, said.draws], [[], [], draws]);
  // Accepted: the name remembered (trimmed), the room asked for, Create waits.
  const clock = { initial: 300, increment: 3 };
  assert.equal(ctrl.createRoom({ side: 'random', clock, name: '  Ama ', position: null }), null);
  assert.deepEqual(said.remembered, ['Ama']);
  assert.deepEqual(said.rooms, [{ room: null, side: 'random', clock, position: null, kind: 'togyz' }]);
  assert.equal(st.creating, true);
  assert.equal(said.draws, draws + 1);
  // An empty name forgets the one remembered; the page shown again offers Create.
  ctrl.open();
  assert.equal(st.creating, false);
  assert.equal(ctrl.createRoom({ side: 'north', clock: null, name: '  ', position: null }), null);
  assert.deepEqual(said.remembered, ['Ama', null]);
});

test('a game on this device is of the game offered', () => {
  const { ctrl, said } = screen('togyz');
  ctrl.open();
  ctrl.playLocal(null);
  ctrl.chooseKind('oware');
  ctrl.playLocal({ level: 'club', side: 'north' });
  assert.deepEqual(said.local, [{ ai: null, kind: 'togyz' }, { ai: { level: 'club', side: 'north' }, kind: 'oware' }]);
});
