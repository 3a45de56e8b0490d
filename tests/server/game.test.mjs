// game.test.mjs: playing in rooms against the real owared: complete games to
// every end reason, resign, draws, abort, rematch, spectators, reconnects,
// resends and every bad input (an error, and the version unchanged).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, stopServer, Client, twoPlayers, playMoves, tokensSeen } from './lib.mjs';

const games = JSON.parse(readFileSync(new URL('games.json', import.meta.url)));
let srv;

before(async () => { srv = await startServer(['--max-msgs-per-sec', '100000']); });
after(async () => {
  const st = await stopServer(srv);
  assert.deepEqual(st, { code: 0, signal: null });
  assert.ok(tokensSeen.size > 10);
  const log = srv.lines.join('\n');
  for (const t of tokensSeen) assert.ok(!log.includes(t), 'a seat token is in the log');
});

test('create: welcome with a seat token, then the first state', async () => {
  const a = await Client.open(srv.port);
  a.send({ type: 'create', side: 'north' });
  const w = await a.expect('welcome');
  assert.match(w.room, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(w.kind, 'oware');
  assert.equal(w.seat, 'north');
  assert.match(w.token, /^[A-Za-z0-9_-]{43}$/); // 256 random bits
  const s = await a.expect('state');
  assert.equal(s.version, 1);
  assert.equal(s.game_number, 1);
  assert.deepEqual(s.moves, []);
  assert.equal(s.last, null);
  assert.deepEqual(s.seats.north, { taken: true, connected: true, claimable: false });
  assert.deepEqual(s.seats.south, { taken: false, connected: false, claimable: false });
  assert.deepEqual(s.game.pits, Array(12).fill(4));
  assert.equal(s.game.turn, 'south');
  assert.equal(s.game.over, false);
  a.close();
});

test('create random: one seat or the other (a 7 KB message, read in several chunks)', async () => {
  const a = await Client.open(srv.port);
  a.send({ type: 'create', side: 'random', pad: 'x'.repeat(7000) });
  const w = await a.expect('welcome');
  assert.ok(w.seat === 'south' || w.seat === 'north');
  a.close();
});

for (const g of games) {
  test(`complete game ends by ${g.reason}`, async () => {
    const { a, b } = await twoPlayers(srv.port);
    const st = await playMoves(a, b, [...g.moves]);
    assert.equal(st.game.over, true);
    assert.equal(st.game.reason, g.reason);
    assert.equal(st.game.winner, g.winner);
    assert.deepEqual(st.game.pits, g.pits);
    assert.deepEqual(st.game.legal, []);
    assert.equal(st.moves.join(''), g.moves);
    // A move after the end: an error, nothing changes.
    const mover = st.game.turn === 'south' ? a : b;
    mover.send({ type: 'move', pit: st.game.turn === 'south' ? 'a' : 'A', ply: g.moves.length });
    await mover.expectError('game_over');
    a.close(); b.close();
  });
}

test('last move: sown, captured, seeds', async () => {
  const { a, b } = await twoPlayers(srv.port);
  const g = games.find((x) => x.reason === 'score');
  let st;
  for (let i = 0; i < g.moves.length; i++) {
    st = await playMoves(a, b, [g.moves[i]], { from: i });
    if (st.last.seeds) break;
  }
  assert.ok(st.last.seeds > 0, 'a capture happened');
  assert.equal(st.last.captured.length > 0, true);
  assert.equal(st.last.grand_slam, false);
  assert.ok(st.last.sown.length > 0);
  a.close(); b.close();
});

test('resign: the resigner loses', async () => {
  const { a, b } = await twoPlayers(srv.port);
  await playMoves(a, b, ['c']);
  b.send({ type: 'resign' });
  const s1 = await a.expect('state');
  const s2 = await b.expect('state');
  assert.deepEqual(s1, s2);
  assert.equal(s1.game.over, true);
  assert.equal(s1.game.reason, 'resign');
  assert.equal(s1.game.winner, 'south');
  a.send({ type: 'resign' });
  await a.expectError('game_over');
  a.close(); b.close();
});

test('draw: offer, decline, a move declines, offer twice, accept', async () => {
  const { a, b } = await twoPlayers(srv.port);
  b.send({ type: 'draw', action: 'offer' });
  assert.equal((await a.expect('state')).draw_offer, 'north');
  assert.equal((await b.expect('state')).draw_offer, 'north');
  b.send({ type: 'draw', action: 'offer' });
  await b.expectError('offer_pending');
  b.send({ type: 'draw', action: 'accept' });
  await b.expectError('no_offer');
  a.send({ type: 'draw', action: 'decline' });
  assert.equal((await a.expect('state')).draw_offer, null);
  assert.equal((await b.expect('state')).draw_offer, null);
  a.send({ type: 'draw', action: 'decline' });
  await a.expectError('no_offer');
  // North offers; South moving declines it.
  b.send({ type: 'draw', action: 'offer' });
  await a.expect('state'); await b.expect('state');
  const st = await playMoves(a, b, ['c']);
  assert.equal(st.draw_offer, null);
  // An offer stays pending while the offerer moves; offering back accepts.
  b.send({ type: 'draw', action: 'offer' });
  await a.expect('state'); await b.expect('state');
  const st2 = await playMoves(a, b, ['A'], { from: 1 });
  assert.equal(st2.draw_offer, 'north');
  a.send({ type: 'draw', action: 'offer' });
  const end = await a.expect('state');
  await b.expect('state');
  assert.equal(end.game.over, true);
  assert.equal(end.game.reason, 'agreement');
  assert.equal(end.game.winner, 'draw');
  assert.equal(end.draw_offer, null);
  a.close(); b.close();
});

test('draw accept ends the game by agreement', async () => {
  const { a, b } = await twoPlayers(srv.port);
  a.send({ type: 'draw', action: 'offer' });
  await a.expect('state'); await b.expect('state');
  b.send({ type: 'draw', action: 'accept' });
  const s = await b.expect('state');
  await a.expect('state');
  assert.equal(s.game.reason, 'agreement');
  assert.equal(s.game.winner, 'draw');
  a.close(); b.close();
});

test('abort: before both moved; not after', async () => {
  const { a, b } = await twoPlayers(srv.port);
  await playMoves(a, b, ['c']);
  b.send({ type: 'abort' });
  const s = await a.expect('state');
  await b.expect('state');
  assert.equal(s.game.over, true);
  assert.equal(s.game.reason, 'aborted');
  assert.equal(s.game.winner, null);
  assert.equal(s.aborted_by, 'north');
  assert.equal(s.draw_offer, null);

  const p = await twoPlayers(srv.port);
  await playMoves(p.a, p.b, ['c', 'A']);
  p.a.send({ type: 'abort' });
  await p.a.expectError('cannot_abort');
  a.close(); b.close(); p.a.close(); p.b.close();
});

test('a room whose game is over seats nobody new: a newcomer watches', async () => {
  // The creator aborts a room nobody joined: its free seat is not handed out.
  const a = await Client.open(srv.port);
  a.send({ type: 'create', side: 'north' });
  const w = await a.expect('welcome');
  await a.expect('state');
  a.send({ type: 'abort' });
  const ended = await a.expect('state');
  assert.equal(ended.game.reason, 'aborted');
  assert.equal(ended.aborted_by, 'north');
  const c = await Client.open(srv.port, { room: w.room });
  c.send({ type: 'join', room: w.room });
  const wc = await c.expect('welcome');
  assert.equal(wc.seat, 'spectator');
  assert.equal(wc.token, undefined);
  const sc = await c.expect('state');
  assert.equal(sc.version, ended.version, 'watching changes no version');
  assert.deepEqual(sc.seats.south, { taken: false, connected: false, claimable: false });
  assert.equal(sc.spectators, 1);
  assert.equal(sc.aborted_by, 'north');
  // Still nobody's seat: acting is refused as from any spectator.
  c.send({ type: 'rematch', action: 'offer' });
  await c.expectError('not_a_player');
  // The creator's token still holds its seat.
  const a2 = await Client.open(srv.port, { room: w.room });
  a.close();
  a2.send({ type: 'join', room: w.room, token: w.token });
  assert.equal((await a2.expect('welcome')).seat, 'north');
  a2.close(); c.close();
});

test('rematch: both agree, sides swap, tokens follow the players', async () => {
  const { a, b, room, ta } = await twoPlayers(srv.port);
  a.send({ type: 'rematch', action: 'offer' });
  await a.expectError('game_not_over');
  await playMoves(a, b, ['c', 'A']);
  a.send({ type: 'resign' });
  await a.expect('state'); await b.expect('state');
  b.send({ type: 'rematch', action: 'accept' });
  await b.expectError('no_offer');
  a.send({ type: 'rematch', action: 'offer' });
  assert.equal((await a.expect('state')).rematch_offer, 'south');
  await b.expect('state');
  a.send({ type: 'rematch', action: 'offer' });
  await a.expectError('offer_pending');
  b.send({ type: 'rematch', action: 'decline' });
  assert.equal((await a.expect('state')).rematch_offer, null);
  await b.expect('state');
  b.send({ type: 'rematch', action: 'offer' });
  await a.expect('state'); await b.expect('state');
  a.send({ type: 'rematch', action: 'accept' });
  const wa = await a.expect('welcome');
  const wb = await b.expect('welcome');
  assert.equal(wa.seat, 'north');
  assert.equal(wb.seat, 'south');
  assert.equal(wa.token, undefined);
  const s = await a.expect('state');
  await b.expect('state');
  assert.equal(s.game_number, 2);
  assert.deepEqual(s.moves, []);
  assert.equal(s.game.over, false);
  assert.equal(s.rematch_offer, null);
  // b is South now and moves first.
  a.send({ type: 'move', pit: 'A', ply: 0 });
  await a.expectError('not_your_turn');
  await playMoves(b, a, ['a']);
  // a's token now holds North.
  a.close();
  await b.expect('state');
  const a2 = await Client.open(srv.port, { room });
  a2.send({ type: 'join', room, token: ta });
  assert.equal((await a2.expect('welcome')).seat, 'north');
  a2.close(); b.close();
});

test('spectator: sees every broadcast, cannot act, gets no token', async () => {
  const { a, b, room } = await twoPlayers(srv.port);
  const s = await Client.open(srv.port, { room });
  s.send({ type: 'join', room });
  const w = await s.expect('welcome');
  assert.equal(w.seat, 'spectator');
  assert.equal(w.token, undefined);
  const st = await s.expect('state');
  assert.equal(st.spectators, 1);
  assert.equal((await a.expect('state')).spectators, 1);
  await b.expect('state');
  await playMoves(a, b, ['c', 'A'], { watchers: [s] });
  for (const msg of [{ type: 'move', pit: 'a', ply: 2 }, { type: 'resign' },
    { type: 'draw', action: 'offer' }, { type: 'abort' }, { type: 'claim' },
    { type: 'rematch', action: 'offer' }]) {
    s.send(msg);
    await s.expectError('not_a_player');
  }
  await a.quiet(50);
  s.close();
  assert.equal((await a.expect('state')).spectators, 0);
  a.close(); b.close();
});

test('reconnect: the token reclaims the seat; a wrong token does not; a second connection replaces the first', async () => {
  const { a, b, room, ta } = await twoPlayers(srv.port);
  await playMoves(a, b, ['c']);
  a.close();
  const gone = await b.expect('state');
  assert.equal(gone.seats.south.connected, false);
  assert.equal(gone.seats.south.taken, true);

  const x = await Client.open(srv.port, { room });
  x.send({ type: 'join', room, token: 'A'.repeat(43) });
  await x.expectError('bad_token');
  // The failed join left x outside: it may still join, as a spectator.
  x.send({ type: 'join', room });
  assert.equal((await x.expect('welcome')).seat, 'spectator');
  await x.expect('state');
  await b.expect('state');

  const a2 = await Client.open(srv.port, { room });
  a2.send({ type: 'join', room, token: ta });
  const w = await a2.expect('welcome');
  assert.equal(w.seat, 'south');
  assert.equal(w.token, undefined);
  const s = await a2.expect('state');
  assert.equal(s.seats.south.connected, true);
  assert.deepEqual(s.moves, ['c']);
  await b.expect('state'); await x.expect('state');

  const a3 = await Client.open(srv.port, { room });
  a3.send({ type: 'join', room, token: ta });
  await a2.expectError('replaced');
  const closed = await a2.waitClose();
  assert.equal(closed.code, 4001);
  assert.equal((await a3.expect('welcome')).seat, 'south');
  await a3.expect('state'); await b.expect('state'); await x.expect('state');
  // The new connection plays on.
  await playMoves(a3, b, ['A'], { from: 1, watchers: [x] });
  a3.close(); b.close(); x.close();
});

test('resend and stale ply: a move is never applied twice', async () => {
  const { a, b } = await twoPlayers(srv.port);
  const st = await playMoves(a, b, ['c']);
  a.send({ type: 'move', pit: 'c', ply: 0 }); // resent after a "network drop"
  const again = await a.expect('state');
  assert.equal(again.version, st.version);
  assert.deepEqual(again.moves, ['c']);
  await b.quiet(50);
  a.send({ type: 'move', pit: 'd', ply: 0 }); // not the recorded move
  await a.expectError('stale_ply');
  assert.equal((await a.expect('state')).version, st.version);
  b.send({ type: 'move', pit: 'A', ply: 5 });
  await b.expectError('stale_ply');
  await b.expect('state');
  b.send({ type: 'move', pit: 'c', ply: 0 }); // South's move, resent by North
  await b.expectError('stale_ply');
  await b.expect('state');
  const next = await playMoves(a, b, ['A'], { from: 1 });
  assert.equal(next.version, st.version + 1);
  a.close(); b.close();
});

test('bad input: an error to the sender only, and the version unchanged', async () => {
  const { a, b, state } = await twoPlayers(srv.port);
  const cases = [
    [a, 'hello', 'bad_json'],
    [a, '[1,2]', 'bad_json'],
    [a, '{"type":"move","pit":"c","ply":0', 'bad_json'],
    // jansson quotes the input near the error, cut inside a UTF-8 sequence
    [a, Buffer.from('{"type":"\\\xc3\xa9"}', 'latin1').toString('utf8'), 'bad_json'],
    [a, '{"type":"\\\n"}', 'bad_json'],
    [a, {}, 'bad_message'],
    [a, { type: 5 }, 'bad_message'],
    [a, { type: 'dance' }, 'unknown_type'],
    [a, { type: 'move', pit: 'c' }, 'bad_message'],
    [a, { type: 'move', ply: 0 }, 'bad_message'],
    [a, { type: 'move', pit: 'z', ply: 0 }, 'bad_message'],
    [a, { type: 'move', pit: 'cc', ply: 0 }, 'bad_message'],
    [a, { type: 'move', pit: 3, ply: 0 }, 'bad_message'],
    [a, { type: 'move', pit: 'c', ply: -1 }, 'bad_message'],
    [a, { type: 'move', pit: 'c', ply: '0' }, 'bad_message'],
    [a, { type: 'move', pit: 'c', ply: 0.5 }, 'bad_message'],
    [a, { type: 'draw' }, 'bad_message'],
    [a, { type: 'draw', action: 'maybe' }, 'bad_message'],
    [a, { type: 'rematch', action: 1 }, 'bad_message'],
    [a, { type: 'create', side: 'east' }, 'bad_message'],
    [a, { type: 'create', side: 'south', kind: 'chess' }, 'bad_message'],
    [a, { type: 'join' }, 'bad_message'],
    [a, { type: 'join', room: 'x'.repeat(100) }, 'bad_message'],
    [a, { type: 'create', side: 'south' }, 'already_joined'],
    [a, { type: 'join', room: 'abc' }, 'already_joined'],
    [b, { type: 'move', pit: 'A', ply: 0 }, 'not_your_turn'],
    [a, { type: 'move', pit: 'A', ply: 0 }, 'illegal_move'],
    [a, { type: 'rematch', action: 'offer' }, 'game_not_over'],
    [a, { type: 'draw', action: 'accept' }, 'no_offer'],
    [a, { type: 'claim' }, 'cannot_claim'],
    [b, { type: 'claim' }, 'cannot_claim'],
  ];
  for (const [c, msg, code] of cases) {
    c.send(msg);
    const e = await c.expectError(code);
    assert.equal(typeof e.message, 'string');
  }
  // An empty pit after one move.
  await playMoves(a, b, ['c']);
  b.send({ type: 'move', pit: 'A', ply: 1 });
  await a.expect('state'); await b.expect('state');
  a.send({ type: 'move', pit: 'c', ply: 2 });
  const e = await a.expectError('illegal_move');
  assert.match(e.message, /pit c/);
  await b.quiet(50);
  const st = await playMoves(a, b, ['a'], { from: 2 });
  assert.equal(st.version, state.version + 3, 'only the three moves changed the room');

  // Outside a room.
  const c = await Client.open(srv.port);
  c.send({ type: 'move', pit: 'a', ply: 0 });
  await c.expectError('not_joined');
  c.send({ type: 'resign' });
  await c.expectError('not_joined');
  c.send({ type: 'join', room: '00000000-0000-4000-8000-000000000000' });
  await c.expectError('no_room');
  // Alone in a room.
  c.send({ type: 'create', side: 'south' });
  await c.expect('welcome');
  const s0 = await c.expect('state');
  c.send({ type: 'move', pit: 'a', ply: 0 });
  await c.expectError('opponent_missing');
  c.send({ type: 'draw', action: 'offer' });
  await c.expectError('opponent_missing');
  c.send({ type: 'resign' });
  await c.expectError('opponent_missing');
  // Nothing changed: a joiner sees the first state's version plus its join.
  const d = await Client.open(srv.port, { room: s0.room });
  d.send({ type: 'join', room: s0.room });
  await d.expect('welcome');
  assert.equal((await d.expect('state')).version, s0.version + 1);
  a.close(); b.close(); c.close(); d.close();
});

test('the sample transcript of PROTOCOL.md, version by version', async () => {
  const c1 = await Client.open(srv.port);
  c1.send({ type: 'create', side: 'south' });
  const w1 = await c1.expect('welcome');
  assert.deepEqual(Object.keys(w1).sort(), ['kind', 'room', 'seat', 'token', 'type']);
  let s = await c1.expect('state');
  assert.equal(s.version, 1);
  assert.equal(s.clock, null);
  assert.equal(s.event, null);
  assert.deepEqual(Object.keys(s).sort(), ['abandon_seconds', 'aborted_by', 'claim_in', 'clock', 'draw_offer', 'event', 'game',
    'game_number', 'kind', 'last', 'moves', 'names', 'rematch_offer', 'room', 'seats',
    'spectator_names', 'spectators', 'start', 'type', 'version']);
  assert.deepEqual(Object.keys(s.game).sort(), ['captured', 'legal', 'over', 'pits', 'reason', 'turn', 'winner']);
  const c2 = await Client.open(srv.port, { room: w1.room });
  c2.send({ type: 'join', room: w1.room });
  assert.equal((await c2.expect('welcome')).seat, 'north');
  assert.equal((await c2.expect('state')).version, 2);
  assert.equal((await c1.expect('state')).version, 2);
  c1.send({ type: 'move', pit: 'c', ply: 0 });
  s = await c1.expect('state');
  assert.deepEqual(await c2.expect('state'), s);
  assert.equal(s.version, 3);
  assert.deepEqual(s.last, { pit: 'c', sown: ['d', 'e', 'f', 'A'], captured: [], seeds: 0, grand_slam: false });
  c2.send({ type: 'move', pit: 'a', ply: 1 });
  const e = await c2.expectError('illegal_move');
  assert.equal(e.message, 'pit a: not a pit of the side to move');
  c2.send({ type: 'draw', action: 'offer' });
  assert.equal((await c1.expect('state')).draw_offer, 'north');
  assert.equal((await c2.expect('state')).version, 4);
  c1.send({ type: 'draw', action: 'accept' });
  s = await c1.expect('state');
  await c2.expect('state');
  assert.equal(s.version, 5);
  assert.equal(s.game.over, true);
  assert.equal(s.game.winner, 'draw');
  assert.equal(s.game.reason, 'agreement');
  c1.close(); c2.close();
});
