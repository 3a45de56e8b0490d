// ear.test.mjs: the game by ear (issue 52), in node with the real words:
// each move said once in a sentence, the player's own in the second person
// ("You sowed c."), the result said; the board read on demand (ear.js's
// readOut: the rows, the stores, whose move, the last move, the time
// left), Togyz Kumalak's holes by their traditional names in Russian.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { FakeConn, fakeEffects, loadEngines, roomState } from './fakes.mjs';
import { setLang, loadPart } from '../../web/i18n.js';

globalThis.document = /** @type {any} */ ({ documentElement: {}, querySelectorAll: () => [], title: '' });
globalThis.fetch = /** @type {any} */ (async (url) => ({ ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(url), 'utf8')) }));
await setLang('en');
await loadPart('keyboard');
await loadEngines();
const { localGame } = await import('../../web/local.js');
const { onlineGame } = await import('../../web/online.js');
const { setModel } = await import('../../web/model.js');
const { readOut, pointText, pointPassed } = await import('../../web/ear.js');

const tick = () => new Promise((r) => setImmediate(() => setTimeout(r, 5)));

function vsComputer() {
  const asked = [];
  const cpu = {
    best: (req) => new Promise((resolve) => asked.push(resolve)),
    hint: () => new Promise(() => {}),
    newGame: () => Promise.resolve(),
    cancel() {},
  };
  const { fx, said } = fakeEffects();
  const saved = { kind: 'oware', moves: [], ai: { level: 'easy', side: 'north' }, flipped: false, start: null };
  const g = localGame({ saved, computer: () => /** @type {any} */ (cpu), pauseMs: 0, effects: fx }, () => {});
  setModel(g.state);
  return { g, said, asked };
}

test('against the computer: each move said once, the player\'s own as theirs, then the turn', async () => {
  const { g, said, asked } = vsComputer();
  g.begin();
  g.play('c');
  assert.deepEqual(said.announced, ['You sowed c.']);
  asked.shift()({ move: 'A' });
  await tick();
  assert.deepEqual(said.announced, ['You sowed c.', 'North sowed A. Your turn.']);
  g.close();
});

test('the board on demand: rows, stores, whose move, last move, no clock', async () => {
  const { g, asked } = vsComputer();
  g.begin();
  const m = g.state;
  assert.equal(readOut(m, 'last'), 'No move yet.');
  assert.equal(readOut(m, 'turn'), 'Your turn.');
  g.play('f');
  asked.shift()({ move: 'A' });
  await tick();
  assert.equal(readOut(m, 'row'), 'Your row: a: 4, b: 4, c: 4, d: 4, e: 4, f: 0.');
  assert.equal(readOut(m, 'opp'), "Opponent's row (North): A: 0, B: 6, C: 6, D: 6, E: 5, F: 5.");
  assert.equal(readOut(m, 'stores'), 'Captured by South: 0. Captured by North: 0.');
  assert.equal(readOut(m, 'last'), 'North sowed A.');
  assert.equal(readOut(m, 'time'), 'This game has no clock.');
  g.close();
});

// A room joined on seat, its first state heard.
function joined(seat, first, kind = 'oware') {
  const { fx, said } = fakeEffects();
  const room = onlineGame({ room: 'r1', Conn: FakeConn, effects: fx }, () => {});
  setModel(room.state);
  room.open();
  const conn = FakeConn.last;
  conn.up();
  conn.hear({ type: 'welcome', room: 'r1', seat, token: 'tok-1', kind });
  conn.hear(first);
  return { room, conn, said };
}

test('a room: the own move confirmed once the server has it, the opponent\'s, the result', () => {
  const { room, conn, said } = joined('south', roomState([], { version: 1 }));
  room.play('c');
  assert.deepEqual(said.announced, []);
  conn.hear(roomState(['c'], { version: 2 }));
  conn.hear(roomState(['c'], { version: 3 }));  // the same position again: not said twice
  conn.hear(roomState(['c', 'A'], { version: 4 }));
  const over = roomState(['c', 'A'], { version: 5 });
  conn.hear({ ...over, game: { ...over.game, over: true, winner: 'south', reason: 'resign' } });
  assert.deepEqual(said.announced, ['You sowed c.', 'North sowed A. Your turn.', 'Your opponent resigned, so you won.']);
  assert.equal(readOut(room.state, 'turn'), 'Your opponent resigned, so you won.');
  room.close();
});

test('a clock read in words, the running one said', () => {
  const clock = { kind: 'realtime', south: 65000, north: 1000, running: null, initial: { south: 300000, north: 300000 }, increment: 0 };
  const { room } = joined('north', roomState(['c'], { version: 1, clock }));
  assert.equal(readOut(room.state, 'time'), 'South: 1 minute 5 seconds left. You: 1 second left.');
  room.close();
});

test('Togyz Kumalak in Kazakh: holes by their traditional names, a tuzdyk said', async () => {
  await setLang('kk');
  const names = 'Арт, Тектұрмас, Ат өтпес, Атсыратар, Бел, Белбасар, Қандықақпан, Көкмойын, Маңдай'.split(', ');
  const { room } = joined('south', roomState([], { version: 1 }, 'togyz'), 'togyz');
  assert.equal(readOut(room.state, 'row'), `Сіздің қатарыңыз: ${names.map((n, i) => `${i + 1} (${n}): 9`).join(', ')}.`);
  // North's hole 3 a tuzdyk of South's.
  const st = roomState([], { version: 2 }, 'togyz');
  st.game.tuzdyk = { south: 3, north: null };
  room.state.state = null;
  FakeConn.last.hear(st);
  assert.match(readOut(room.state, 'opp'), /, 3 \(Ат өтпес\): тұздық, /);
  room.close();
  await setLang('en');
});

test('the clock\'s low time: said when it passes 60, 30 and 10 seconds, in words', () => {
  assert.equal(pointPassed(60040, 59940), 60000);
  assert.equal(pointPassed(59940, 59840), null, 'not again a tick later');
  assert.equal(pointPassed(30000, 29900), 30000);
  assert.equal(pointPassed(10050, 9950), 10000);
  assert.equal(pointPassed(45000, 44900), null);
  assert.equal(pointPassed(100, 0), null, 'the flag fall is the server\'s to say');
  assert.equal(pointText(60000), 'One minute left on your clock.');
  assert.equal(pointText(30000), '30 seconds left on your clock.');
});

test("app.js hands ear.js its keys: the reading keys and ?", async () => {
  const { READ_KEYS } = await import('../../web/ear.js');
  const src = fs.readFileSync(new URL('../../web/app.js', import.meta.url), 'utf8');
  const m = /\/\^\[(\w+)\?\]\$\/i\.test\(ev\.key\)/.exec(src);
  assert.ok(m, 'app.js tests the keys');
  assert.deepEqual([...m[1]].sort(), Object.keys(READ_KEYS).sort());
});
