// events-budget.test.mjs: a club event's boards as rooms of the table
// (issue 49): the organiser's result ends the board's game in its room,
// a board cannot be aborted, board rooms count against their organiser's
// budgets and make way once over, a round gets all its rooms or none;
// the event table's budgets (per address, per network) and its squatters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { startServer, stopServer, Client, httpGet } from './lib.mjs';
import { ARGS, untilEvent, createEvent, enterMany, untilError, asPlayer, seat, startedPair, metric, heldRoom } from './evlib.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const TEST_BUILD = resolve(ROOT, process.env.OWARED_TEST_BUILD || 'build/fault/owared');

test("the organiser's result ends the board's game in its room; a later end changes nothing", async () => {
  const srv = await startServer(ARGS);
  try {
    const { e, white, black } = await startedPair(srv.port, { clock: { initial: 600, increment: 5 } });
    white.send({ type: 'move', pit: 'c', ply: 0 });
    await black.untilState((s) => s.moves.length === 1);
    black.send({ type: 'move', pit: 'A', ply: 1 });
    const on = await white.untilState((s) => s.moves.length === 2);
    assert.equal(on.clock.running, 'south');
    e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'draw' });
    const ev = await untilEvent(e.org, (v) => v.schedule[0].boards[0].result === 'draw');
    assert.equal(ev.schedule[0].boards[0].by, 'organiser');
    for (const c of [white, black]) {
      const st = await c.untilState((s) => s.game.over);
      assert.equal(st.game.reason, 'organiser');
      assert.equal(st.game.winner, 'draw');
      assert.equal(st.clock.running, null);
    }
    // The room's game is over: a resignation there is refused and the
    // event keeps the organiser's draw.
    black.send({ type: 'resign' });
    const err = await untilError(black, 'game_over');
    assert.match(err.message, /over/);
    const after = await asPlayer(srv.port, e.id, null);
    assert.equal(after.schedule[0].boards[0].result, 'draw');
    assert.equal(after.state, 'over');
    // A double forfeit ends a game with no winner.
    const p = await startedPair(srv.port);
    p.e.org.send({ type: 'event_result', event: p.e.id, token: p.e.token, round: 1, board: 1, result: 'double_forfeit' });
    const st = await p.white.untilState((s) => s.game.over);
    assert.equal(st.game.reason, 'organiser');
    assert.equal(st.game.winner, null);
    for (const c of [white, black, p.white, p.black, e.org, p.e.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test("a board's game cannot be aborted; a withdrawal's forfeit ends it in its room", async () => {
  const srv = await startServer(ARGS);
  try {
    const { e, white, black } = await startedPair(srv.port);
    white.send({ type: 'abort' });
    await untilError(white, 'event_game');
    black.send({ type: 'abort' });
    await untilError(black, 'event_game');
    const ev = await asPlayer(srv.port, e.id, null);
    assert.equal(ev.schedule[0].boards[0].result, null);
    // The organiser records the no-show: both see it at once.
    e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'white_forfeit' });
    const st = await black.untilState((s) => s.game.over);
    assert.equal(st.game.reason, 'organiser');
    assert.equal(st.game.winner, 'south');
    for (const c of [white, black, e.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('board rooms count against the budgets of the address that created the event', async () => {
  const srv = await startServer([...ARGS, '--max-rooms-per-ip', '10', '--rooms-per-ip-per-min', '1000']);
  try {
    const e = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.0.5' });
    await enterMany(srv.port, e.id, 24);
    // 12 boards from an address that may hold 10 rooms: refused, nothing made.
    e.org.send({ type: 'event_start', event: e.id, token: e.token });
    const err = await untilError(e.org, 'too_many_rooms');
    assert.match(err.message, /12 rooms of round 1 .*--max-rooms-per-ip/);
    const seen = await untilEvent(e.org);
    assert.equal(seen.state, 'entry');
    assert.equal(seen.pairing_error.code, 'too_many_rooms');
    assert.equal(await metric(srv.port, 'oware_rooms'), 0);
    // Four players withdraw (the organiser's own entries here): 10 boards fit.
    const fewer = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.0.6' });
    await enterMany(srv.port, fewer.id, 20);
    fewer.org.send({ type: 'event_start', event: fewer.id, token: fewer.token });
    const ev = await untilEvent(fewer.org, (v) => v.state === 'running');
    assert.equal(ev.pairing_error, null);
    assert.equal(await metric(srv.port, 'oware_rooms'), 10);
    // Those 10 live boards fill the address's budget: its own create is refused ...
    const h = await heldRoom(srv.port, '127.0.0.6');
    assert.equal(h.error.code, 'rate_limited');
    h.c.close();
    // ... until their games end (the organiser's results): finished rooms count no more.
    for (let b = 1; b <= 10; b++)
      fewer.org.send({ type: 'event_result', event: fewer.id, token: fewer.token, round: 1, board: b, result: 'double_forfeit' });
    const r2 = await untilEvent(fewer.org, (v) => v.round === 2);
    assert.equal(r2.pairing_error, null);
    assert.equal(await metric(srv.port, 'oware_rooms'), 20);
    e.org.close();
    fewer.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('a round gets all its rooms or none, says why, and is paired once there is room', async () => {
  // --expire-unjoined 2: the sweep (which pairs a refused round again) runs every 2 s.
  const srv = await startServer([...ARGS, '--max-rooms', '20', '--rooms-per-ip-per-min', '1000',
    '--expire-unjoined', '2']);
  try {
    const e = await createEvent(srv.port, { rounds: 3 });
    await enterMany(srv.port, e.id, 12);
    e.org.send({ type: 'event_start', event: e.id, token: e.token });
    const r1 = await untilEvent(e.org, (v) => v.state === 'running');
    const boards = r1.schedule[0].boards;
    assert.equal(boards.length, 6);
    // Spectators keep two boards' rooms (a room with someone in it never makes way).
    const spect = [];
    for (const b of boards.slice(0, 2)) {
      const s = await Client.open(srv.port);
      s.send({ type: 'join', room: b.room });
      await s.expect('welcome');
      spect.push(s);
    }
    // 14 rooms held by their creators: the table is full.
    const held = [];
    for (let i = 0; i < 14; i++) held.push(await heldRoom(srv.port, `127.0.0.${20 + i}`));
    assert.ok(held.every((h) => !h.error));
    assert.equal(await metric(srv.port, 'oware_rooms'), 20);
    // Round 1's results: its 4 rooms nobody is in make way, but round 2
    // needs 6: none of its rooms is made, and everyone sees why.
    for (let b = 1; b <= 6; b++)
      e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: b, result: 'white_forfeit' });
    const stuck = await untilEvent(e.org, (v) => v.schedule[0].boards.every((b) => b.result) && v.pairing_error);
    assert.equal(stuck.round, 1);
    assert.equal(stuck.pairing_error.code, 'too_many_rooms');
    assert.match(stuck.pairing_error.message, /6 rooms of round 2 do not fit/);
    // Nothing made way for a round that could not have all its rooms.
    assert.equal(await metric(srv.port, 'oware_rooms'), 20);
    // A newcomer's room still finds its place: a finished board's makes way.
    const newcomer = await heldRoom(srv.port, '127.0.1.1');
    assert.equal(newcomer.error, undefined);
    assert.equal(await metric(srv.port, 'oware_rooms'), 20);
    // Five creators leave: their rooms may go; the next sweep pairs round 2.
    for (const h of [...held.slice(0, 4), newcomer]) h.c.close();
    const r2 = await untilEvent(e.org, (v) => v.round === 2);
    assert.equal(r2.pairing_error, null);
    assert.equal(r2.schedule[1].boards.filter((b) => b.room).length, 6);
    for (const c of [...spect, ...held.slice(4).map((h) => h.c), e.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

// Tries event_create from localAddress until it is welcomed (within ms).
async function createWhenRoom(port, localAddress, ms = 15000) {
  const until = Date.now() + ms;
  for (;;) {
    const c = await Client.open(port, { localAddress });
    c.send({ type: 'event_create', title: 'Late club', kind: 'oware', format: 'swiss', rounds: 3 });
    const m = await c.next();
    if (m.type === 'event_welcome') return { c, id: m.event };
    assert.equal(m.code, 'too_many_events', JSON.stringify(m));
    c.close();
    if (Date.now() > until) throw new Error('never room: ' + m.message);
    await new Promise((res) => setTimeout(res, 200));
  }
}

test('a full event table: an unstarted event makes way, followed or not, the fewest entries first', async () => {
  const srv = await startServer([...ARGS, '--max-events', '3', '--rooms-per-ip-per-min', '1000'],
    { bin: TEST_BUILD, env: { OW_TEST_EVENT_MAKE_WAY_S: '1' } });
  try {
    const started = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.1.1' });
    await enterMany(srv.port, started.id, 2);
    started.org.send({ type: 'event_start', event: started.id, token: started.token });
    await untilEvent(started.org, (v) => v.state === 'running');
    const squat = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.2.1' });
    await enterMany(srv.port, squat.id, 1);
    const club = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.3.1' });
    await enterMany(srv.port, club.id, 3);
    // Followed, one entry each way: the squatter's (one entry) goes first.
    const late = await createWhenRoom(srv.port, '127.0.4.1');
    const gone = await untilError(squat.org, 'no_event');
    // More entries than the club's: on a slow machine the late event too
    // is idle past the test's 1 s when the next one comes, and the fewest
    // entries go first.
    await enterMany(srv.port, late.id, 4);
    assert.match(gone.message, /made way/);
    for (const e of [started, club, late]) assert.equal((await asPlayer(srv.port, e.id, null)).event, e.id);
    const c = await Client.open(srv.port);
    c.send({ type: 'event_watch', event: squat.id });
    await c.expectError('no_event');
    // A started event never makes way: the next goes is the club's.
    const later = await createWhenRoom(srv.port, '127.0.5.1');
    await untilError(club.org, 'no_event');
    for (const x of [c, started.org, squat.org, club.org, late.c, later.c]) x.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('an event with a follower expires all the same; the follower is told', async () => {
  const srv = await startServer([...ARGS, '--expire-events', '2']);
  try {
    const e = await createEvent(srv.port, { rounds: 3 });
    const watcher = await Client.open(srv.port);
    watcher.send({ type: 'event_watch', event: e.id });
    await untilEvent(watcher);
    const m = await untilError(watcher, 'no_event');
    assert.match(m.message, /expired/);
    await untilError(e.org, 'no_event');
    const res = await httpGet(srv.port, `/api/events/${e.id}`);
    assert.equal(res.status, 404);
    for (const c of [watcher, e.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('entries: one address enters 8 unless the organiser allows more; the organiser removes, withdraws, closes and reopens', async () => {
  // --max-queue: 256 joins sent at once are answered before they are read
  // (on PostgreSQL the welcomes wait for their commits meanwhile).
  const args = [...ARGS, '--max-queue', '1024'];
  let srv = await startServer(args);
  const db = srv.db;
  try {
    const e = await createEvent(srv.port, { rounds: 3 }, { keepEntries: true });
    assert.equal(e.ev.per_address, 8);
    assert.equal(e.ev.entries_open, true);
    // 256 joins from one address: 8 are entered.
    const c = await Client.open(srv.port);
    for (let i = 0; i < 256; i++) c.send({ type: 'event_join', event: e.id, name: `F${i}` });
    let ok = 0, refused = 0;
    while (ok + refused < 256) {
      const m = await c.next(60000);
      if (m.type === 'event_welcome') ok++;
      else if (m.type === 'error') {
        assert.equal(m.code, 'rate_limited', JSON.stringify(m));
        assert.match(m.message, /at most 8 entries from one address/);
        refused++;
      }
    }
    c.close();
    assert.equal(ok, 8);
    // Another address still enters.
    const other = await Client.open(srv.port, { localAddress: '127.0.0.9' });
    other.send({ type: 'event_join', event: e.id, name: 'Ama' });
    const ama = await other.expect('event_welcome');
    other.close();
    // The organiser allows 10 from one address: two more.
    e.org.send({ type: 'event_entries', event: e.id, token: e.token, per_address: 10 });
    await untilEvent(e.org, (v) => v.per_address === 10);
    const more = await enterMany(srv.port, e.id, 2, 'G');
    assert.equal(more.length, 2);
    // Removing an entry before the start: only the organiser (or the player).
    const p = await Client.open(srv.port);
    p.send({ type: 'event_withdraw', event: e.id, token: more[0].token, entry: ama.entry });
    await p.expectError('not_organiser');
    p.close();
    e.org.send({ type: 'event_withdraw', event: e.id, token: e.token, entry: ama.entry });
    const removed = await untilEvent(e.org, (v) => v.players[ama.entry].withdrawn);
    assert.equal(removed.players[ama.entry].number, null);
    // Entries closed: nobody enters, and it survives a restart.
    e.org.send({ type: 'event_entries', event: e.id, token: e.token, open: false });
    const closed = await untilEvent(e.org, (v) => !v.entries_open);
    assert.equal(closed.join_open, false);
    e.org.close();
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    srv = await startServer(args, { db });
    const late = await Client.open(srv.port, { localAddress: '127.0.0.10' });
    late.send({ type: 'event_join', event: e.id, name: 'Kofi' });
    const err = await late.expectError('entries_closed');
    assert.match(err.message, /closed entries/);
    const seen = await asPlayer(srv.port, e.id, null);
    assert.equal(seen.entries_open, false);
    assert.equal(seen.per_address, 10);
    const org = await Client.open(srv.port);
    org.send({ type: 'event_entries', event: e.id, token: e.token, open: true });
    await untilEvent(org, (v) => v.entries_open);
    late.send({ type: 'event_join', event: e.id, name: 'Kofi' });
    await late.expect('event_welcome');
    late.close();
    // After the start the organiser withdraws a player: his board is
    // forfeited, and its game ends in its room.
    org.send({ type: 'event_start', event: e.id, token: e.token });
    const run = await untilEvent(org, (v) => v.state === 'running');
    const board = run.schedule[0].boards.find((b) => b.black !== null);
    org.send({ type: 'event_withdraw', event: e.id, token: e.token, entry: board.white });
    const after = await untilEvent(org, (v) => v.schedule[0].boards[board.board - 1].result);
    assert.equal(after.schedule[0].boards[board.board - 1].result, 'black_forfeit');
    assert.equal(after.players[board.white].withdrawn, true);
    const watch = await Client.open(srv.port);
    watch.send({ type: 'join', room: board.room });
    await watch.expect('welcome');
    const st = await watch.untilState(() => true);
    assert.equal(st.game.reason, 'organiser');
    assert.equal(st.game.winner, 'north');
    watch.close();
    org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test("a board's room with its game on makes way only as an unfinished game, idle past --evict-idle", async () => {
  const srv = await startServer([...ARGS, '--max-rooms', '4', '--rooms-per-ip-per-min', '1000', '--evict-idle', '4']);
  try {
    const e = await createEvent(srv.port, { rounds: 3 });
    await enterMany(srv.port, e.id, 4);
    e.org.send({ type: 'event_start', event: e.id, token: e.token });
    const ev = await untilEvent(e.org, (v) => v.state === 'running');
    const boards = ev.schedule[0].boards.map((b) => b.room);
    assert.equal(boards.length, 2);
    // Two rooms held by their creators fill the table; a third is refused
    // while the boards' games changed within --evict-idle ...
    const held = [await heldRoom(srv.port, '127.0.0.21'), await heldRoom(srv.port, '127.0.0.22')];
    assert.ok(held.every((h) => !h.error));
    const first = await heldRoom(srv.port, '127.0.0.23');
    assert.equal(first.error?.code, 'too_many_rooms');
    first.c.close();
    // ... and finds its place once one has been idle that long.
    const until = Date.now() + 20000;
    let late;
    for (;;) {
      late = await heldRoom(srv.port, '127.0.0.24');
      if (!late.error) break;
      assert.equal(late.error.code, 'too_many_rooms');
      late.c.close();
      assert.ok(Date.now() < until, 'no board made way');
      await new Promise((res) => setTimeout(res, 250));
    }
    const gone = [];
    for (const id of boards) {
      const c = await Client.open(srv.port);
      c.send({ type: 'join', room: id });
      const m = await c.next();
      if (m.type === 'error') gone.push(m.code);
      c.close();
    }
    assert.deepEqual(gone, ['no_room']);
    for (const c of [...held.map((h) => h.c), late.c, e.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});
