// draw.test.mjs: a draw has no effects. The game screen's draw pass
// (render.js's renderAll) and the board's, run in node over a fake page
// (fake-dom.mjs): no focus moved by a draw (the board's keyboard focus
// follows the pits that respond after it, Board.keepFocus, a step of its
// own that redraw.js runs), and no storage read by a draw (what the page
// keeps, the name, the sound and notification switches, the puzzles'
// record, is read into the state when it opens or changes); what a draw
// remembers of what it drew is in the page (the chat's list scrolls down
// for a new line, and only then).
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installPage } from './fake-dom.mjs';

const page = installPage();
globalThis.navigator = /** @type {any} */ ({ onLine: true, languages: ['en'], maxTouchPoints: 0 });
const { Board } = await import('../../web/board.js');
const { FakeConn, fakeEffects, loadEngines, roomState } = await import('./fakes.mjs');
const { onlineGame } = await import('../../web/online.js');
const { localGame } = await import('../../web/local.js');
const { setModel } = await import('../../web/model.js');
const { renderAll } = await import('../../web/render.js');
const { wireBoard, keepFocus } = await import('../../web/table.js');
const { drawPuzzles } = await import('../../web/puzzles.js');
await loadEngines();
const $ = (id) => document.getElementById(id);

const flush = () => new Promise((res) => setTimeout(res, 0));

function board() {
  const root = document.getElementById('a-board');
  return new Board(/** @type {any} */ (root), {}, {});
}

test('setLegal moves no focus; keepFocus, after the draw, moves it to a pit that responds', async () => {
  const b = board();
  b.setLegal(['a', 'b', 'c', 'd', 'e', 'f']);
  const c = b.pits[b.ids.indexOf('c')];
  c.focus();  // the key that played c
  page.document.focusMoves.length = 0;
  b.setLegal(['A', 'B', 'C', 'D', 'E', 'F']);
  await flush();
  assert.deepEqual(page.document.focusMoves, [], 'the draw moved no focus, now or later');
  assert.equal(document.activeElement, c);
  assert.equal(b.keepFocus(), true);
  assert.equal(document.activeElement.dataset.pit, 'A', 'the first pit that responds');
  // Where the focused pit responds, or none does, or the focus came by a
  // click (not :focus-visible), it stays.
  assert.equal(b.keepFocus(), false);
  b.setLegal([]);
  assert.equal(b.keepFocus(), false);
  b.setLegal(['b']);
  page.document.focusVisible = false;
  assert.equal(b.keepFocus(), false);
  assert.equal(document.activeElement.dataset.pit, 'A');
});

test('the draw step and the step after it: redraw.js runs both, once, in that order', async () => {
  const { setDraw, requestRedraw } = await import('../../web/redraw.js');
  const ran = [];
  setDraw(() => ran.push('draw'), () => ran.push('after'));
  requestRedraw();
  requestRedraw();
  assert.deepEqual(ran, []);
  await flush();
  assert.deepEqual(ran, ['draw', 'after']);
  setDraw(() => {});
});

// A room joined on seat with what this browser keeps (the fake effects'
// storage), its first state heard.
function room(seat, st, kept = {}, name = 'r1') {
  const { fx } = fakeEffects();
  for (const [k, v] of Object.entries(kept)) fx.store(k, v);
  if (kept['oware.name']) fx.myName = () => kept['oware.name'];
  const r = onlineGame({ room: name, Conn: FakeConn, effects: fx }, () => {});
  setModel(r.state);
  r.open();
  FakeConn.last.up();
  FakeConn.last.hear({ type: 'welcome', room: name, seat, token: 'tok-1' });
  FakeConn.last.hear(st);
  return r;
}

// The draw pass with every storage read refused (and counted).
function drawNoStorage(state) {
  page.storage.forbid = true;
  page.storage.keys.length = 0;
  try {
    renderAll(state);
  } finally {
    page.storage.forbid = false;
  }
  return [...page.storage.keys];
}

wireBoard({ onPlay() {}, onPreview() {} });

test("the room's draw reads no storage: the name, the sound and the notifications are its state", () => {
  const r = room('south', roomState(['c']), { 'oware.name': 'Ama', 'oware.muted': '1', 'oware.notify': '1' });
  assert.deepEqual([r.state.online.savedName, r.state.online.muted, r.state.online.notify], ['Ama', true, true]);
  assert.deepEqual(drawNoStorage(r.state), []);
  assert.equal($('room-name').value, 'Ama', "the remembered name in the chat's field");
  assert.equal($('act-sound').textContent, 'sound.off');
  assert.equal($('act-sound').getAttribute('aria-pressed'), 'false');
  // The switch is an intent: the state and what is kept change together.
  r.setMuted(false);
  assert.equal(r.state.online.muted, false);
  assert.deepEqual(drawNoStorage(r.state), []);
  assert.equal($('act-sound').textContent, 'sound.on');
  r.close();
});

// What the chat's list drew last is its own (data-last), not a module's:
// a new last line scrolls it down, a draw with nothing new leaves it
// where it is read, and another room's lines (ids start again) scroll it
// too; this page's lines are marked as its own.
test("the chat's list keeps what it drew: a new line scrolls it down, nothing new leaves it", () => {
  const list = $('chat-lines');
  const chat = (id, from) => FakeConn.last.hear({ type: 'chat', id, from, text: `line ${id}`, at: id });
  const r = room('south', roomState(['c']));
  chat(1, 'north');
  list.scrollHeight = 500;
  assert.deepEqual(drawNoStorage(r.state), []);
  assert.equal(list.scrollTop, 500, 'the first line');
  list.scrollTop = 120;  // read further up
  renderAll(r.state);
  assert.equal(list.scrollTop, 120, 'nothing new: the list stays');
  chat(2, 'south');
  list.scrollHeight = 540;
  renderAll(r.state);
  assert.equal(list.scrollTop, 540, 'a new line');
  assert.deepEqual(list.children.map((li) => li.classList.contains('mine')), [false, true]);
  r.close();
  // Another room, whose last line has the same id as the last one drawn.
  list.scrollTop = 0;
  const r2 = room('north', roomState([]), {}, 'r2');
  chat(1, 'south');
  chat(2, 'north');
  renderAll(r2.state);
  assert.equal(list.scrollTop, 540, "the new room's lines");
  assert.deepEqual(list.children.map((li) => li.classList.contains('mine')), [false, true], 'North is this page now');
  list.scrollTop = 100;
  renderAll(r2.state);
  assert.equal(list.scrollTop, 100);
  r2.close();
});

test('the name offered to a joiner: shown unless this browser remembers one, read with the room', () => {
  for (const [kept, shown] of [[{}, true], [{ 'oware.name': 'Ama' }, false]]) {
    const r = room('north', roomState([]), kept);
    r.state.online.askName = true;
    assert.deepEqual(drawNoStorage(r.state), []);
    assert.equal($('ask-name').hidden, !shown, JSON.stringify(kept));
    r.close();
  }
});

test("the local game's draw reads no storage, and moves no focus; the step after it does", async () => {
  const { fx } = fakeEffects();
  const cpu = { best: () => new Promise(() => {}), hint: () => new Promise(() => {}), newGame: () => Promise.resolve(), cancel() {} };
  const g = localGame({ saved: null, computer: () => /** @type {any} */ (cpu), pauseMs: 0, effects: fx }, () => {});
  setModel(g.state);
  g.begin();
  assert.deepEqual(drawNoStorage(g.state), []);
  // South's pit c focused by the keyboard and played: North's pits respond.
  const c = /** @type {any} */ (document.querySelector('#board')).querySelectorAll('.pit').find((b) => b.dataset.pit === 'c');
  c.focus();
  page.document.focusMoves.length = 0;
  g.play('c');
  drawNoStorage(g.state);
  await flush();
  assert.deepEqual(page.document.focusMoves, [], 'no focus moved by the draw');
  keepFocus();
  assert.equal(document.activeElement.dataset.side, 'north');
  g.close();
});

test("the puzzles' panel draws what it read when it opened, not storage", () => {
  $('puzzles').open = true;
  page.storage.forbid = true;
  page.storage.keys.length = 0;
  try { drawPuzzles(); } finally { page.storage.forbid = false; }
  assert.deepEqual(page.storage.keys, []);
  assert.equal($('puzzles-stats').textContent, 'puzzle.stats');
});
