// position.test.mjs: rooms from a position (create's `position`, the
// state's `start`; PROTOCOL.md "Games from a position") through the real
// server: accepted, bad positions refused with no room made, moves checked
// from the position, kept across a restart, rematches start from it again.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopServer, Client } from './lib.mjs';

const srv = await startServer();
after(async () => { assert.deepEqual(await stopServer(srv), { code: 0, signal: null }); });

// A handicap: North's pit F starts empty, its 4 seeds counted as South's
// captures; North to move.
const HANDICAP = { pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0], captured: { south: 4, north: 0 }, turn: 'north' };

async function createRoom(c, extra) {
  c.send({ type: 'create', side: 'south', ...extra });
  const w = await c.expect('welcome');
  const st = await c.expect('state');
  return { w, st };
}

// A room from pos with both seats taken: {a (south), b (north), room, ta, tb, st}.
async function positionRoom(pos) {
  const a = await Client.open(srv.port);
  const { w } = await createRoom(a, { position: pos });
  const b = await Client.open(srv.port, { room: w.room });
  b.send({ type: 'join', room: w.room });
  const wb = await b.expect('welcome');
  const st = await b.expect('state');
  await a.expect('state');
  return { a, b, room: w.room, ta: w.token, tb: wb.token, st };
}

test('a room from a position: the game starts there and the state carries it', async () => {
  const c = await Client.open(srv.port);
  const { st } = await createRoom(c, { position: HANDICAP });
  assert.deepEqual(st.start, HANDICAP);
  assert.deepEqual(st.game.pits, HANDICAP.pits);
  assert.deepEqual(st.game.captured, HANDICAP.captured);
  assert.equal(st.game.turn, 'north');
  assert.deepEqual(st.game.legal, ['A', 'B', 'C', 'D', 'E']);
  assert.deepEqual(st.moves, []);
  c.close();
});

test('a room from the standard start has start null (position absent or null)', async () => {
  for (const extra of [{}, { position: null }]) {
    const c = await Client.open(srv.port);
    const { st } = await createRoom(c, extra);
    assert.equal(st.start, null);
    assert.deepEqual(st.game.pits, Array(12).fill(4));
    c.close();
  }
});

test('bad positions are bad_message naming the field, and no room is made', async () => {
  const c = await Client.open(srv.port);
  const bad = [
    [{ ...HANDICAP, pits: [5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0] }, /add up to 48/],
    [{ ...HANDICAP, pits: [-1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 9] }, /position\.pits\[0\]: negative/],
    [{ ...HANDICAP, pits: [4, 4, 4] }, /position\.pits: must be an array of 12/],
    [{ ...HANDICAP, pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 'x'] }, /position\.pits\[11\]/],
    [{ ...HANDICAP, turn: 'east' }, /position\.turn/],
    [{ pits: HANDICAP.pits, turn: 'north' }, /position\.captured/],
    [{ ...HANDICAP, captured: { south: -4, north: 8 } }, /position\.captured\.south: negative/],
    ['4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', /position: must be a JSON object/],
    [[1, 2], /position: must be a JSON object/],
    // Over from the start: South already has 25.
    [{ pits: [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], captured: { south: 25, north: 21 }, turn: 'south' }, /over from the start/],
    // North to move with no seed: no legal move.
    [{ pits: [4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0], captured: { south: 12, north: 12 }, turn: 'north' }, /over from the start/],
  ];
  for (const [position, reason] of bad) {
    c.send({ type: 'create', side: 'south', position });
    const e = await c.expectError('bad_message');
    assert.match(e.message, reason, JSON.stringify(position));
  }
  await c.quiet();
  // The connection is still outside any room: a good create works.
  const { st } = await createRoom(c, { position: HANDICAP });
  assert.deepEqual(st.start, HANDICAP);
  c.close();
});

test('moves are checked from the position: its side starts, its empty pits are empty', async () => {
  const { a, b, st } = await positionRoom(HANDICAP);
  assert.equal(st.game.turn, 'north');
  a.send({ type: 'move', pit: 'a', ply: 0 });
  await a.expectError('not_your_turn');
  b.send({ type: 'move', pit: 'F', ply: 0 });
  await b.expectError('illegal_move');
  b.send({ type: 'move', pit: 'E', ply: 0 });
  let s = await a.expect('state');
  await b.expect('state');
  assert.deepEqual(s.moves, ['E']);
  // E (North's fifth pit) sows F, then a, b, c: South's a..c get one each.
  assert.deepEqual(s.game.pits, [5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0, 1]);
  assert.equal(s.game.turn, 'south');
  // A resend of North's move at ply 0 is recognised (the pit names its mover).
  b.send({ type: 'move', pit: 'E', ply: 0 });
  s = await b.expect('state');
  assert.deepEqual(s.moves, ['E']);
  await a.quiet();
  a.send({ type: 'move', pit: 'a', ply: 1 });
  s = await b.expect('state');
  await a.expect('state');
  assert.deepEqual(s.moves, ['E', 'a']);
  a.close();
  b.close();
});

test('a rematch starts from the position again, sides swapped', async () => {
  const { a, b, st } = await positionRoom(HANDICAP);
  assert.equal(st.game_number, 1);
  b.send({ type: 'move', pit: 'A', ply: 0 });
  await a.expect('state');
  await b.expect('state');
  a.send({ type: 'resign' });
  await a.untilState((s) => s.game.over);
  await b.untilState((s) => s.game.over);
  a.send({ type: 'rematch', action: 'offer' });
  await a.expect('state');
  await b.expect('state');
  b.send({ type: 'rematch', action: 'accept' });
  assert.equal((await a.expect('welcome')).seat, 'north');
  const s = await a.untilState((x) => x.game_number === 2);
  assert.deepEqual(s.start, HANDICAP);
  assert.deepEqual(s.moves, []);
  assert.deepEqual(s.game.pits, HANDICAP.pits);
  assert.deepEqual(s.game.captured, HANDICAP.captured);
  assert.equal(s.game.turn, 'north');
  a.close();
  b.close();
});

test('a restart keeps the position: the state, and the moves replayed from it', async () => {
  const own = await startServer();
  let room, ta, tb;
  try {
    const a = await Client.open(own.port);
    a.send({ type: 'create', side: 'south', position: HANDICAP });
    const w = await a.expect('welcome');
    await a.expect('state');
    ({ room } = w);
    ta = w.token;
    const b = await Client.open(own.port, { room });
    b.send({ type: 'join', room });
    tb = (await b.expect('welcome')).token;
    await b.expect('state');
    await a.expect('state');
    b.send({ type: 'move', pit: 'E', ply: 0 });
    await a.expect('state');
    await b.expect('state');
    a.send({ type: 'move', pit: 'a', ply: 1 });
    const before = await a.expect('state');
    await b.expect('state');
    a.close();
    b.close();
    assert.deepEqual(await stopServer(own), { code: 0, signal: null });
    const again = await startServer([], { db: own.db });
    try {
      const c = await Client.open(again.port, { room });
      c.send({ type: 'join', room, token: tb });
      assert.equal((await c.expect('welcome')).seat, 'north');
      const s = await c.expect('state');
      assert.deepEqual(s.start, HANDICAP);
      assert.deepEqual(s.moves, ['E', 'a']);
      assert.deepEqual(s.game, before.game);
      // The game goes on from there.
      c.send({ type: 'move', pit: s.game.legal[0], ply: 2 });
      const s2 = await c.untilState((x) => x.moves.length === 3);
      assert.equal(s2.game.turn, 'south');
      c.close();
      assert.ok(ta);
    } finally {
      assert.deepEqual(await stopServer(again), { code: 0, signal: null });
    }
  } finally {
    await stopServer(own);
  }
});
