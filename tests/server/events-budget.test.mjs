// events-budget.test.mjs: a club event's boards as rooms of the table
// (issue 49): the organiser's result ends the board's game in its room,
// a board cannot be aborted, board rooms count against their organiser's
// budgets and make way once over, a round gets all its rooms or none;
// the event table's budgets (per address, per network) and its squatters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopServer, Client, httpGet } from './lib.mjs';

const ARGS = ['--max-conns-per-ip', '400', '--joins-per-ip-per-min', '1000000', '--max-msgs-per-sec', '100000'];

async function untilEvent(c, pred = () => true, what = 'event') {
  for (;;) {
    const m = await c.next(60000);
    if (m.type === 'error') throw new Error('error ' + JSON.stringify(m));
    if (m.type === what && pred(m)) return m;
  }
}

async function createEvent(port, fields, opts = {}) {
  const org = await Client.open(port, opts);
  org.send({ type: 'event_create', title: 'Club', kind: 'oware', format: 'swiss', rounds: 3, ...fields });
  const w = await org.expect('event_welcome');
  const ev = await org.expect('event');
  return { org, id: w.event, token: w.token, ev };
}

// n players entered from one connection (each join's welcome kept).
async function enterMany(port, id, n, prefix = 'P') {
  const c = await Client.open(port);
  const out = [];
  for (let i = 0; i < n; i++) c.send({ type: 'event_join', event: id, name: `${prefix}${i}` });
  while (out.length < n) {
    const m = await c.next(60000);
    if (m.type === 'error') throw new Error('join ' + JSON.stringify(m));
    if (m.type === 'event_welcome') out.push({ entry: m.entry, token: m.token });
  }
  c.close();
  return out;
}

// The next error, states and events before it skipped.
async function untilError(c, code) {
  for (;;) {
    const m = await c.next();
    if (m.type === 'state' || m.type === 'event') continue;
    assert.equal(m.type, 'error', JSON.stringify(m));
    assert.equal(m.code, code, JSON.stringify(m));
    return m;
  }
}

async function asPlayer(port, id, token) {
  const c = await Client.open(port);
  c.send({ type: 'event_watch', event: id, token });
  const ev = await untilEvent(c);
  c.close();
  return ev;
}

async function seat(port, game) {
  const c = await Client.open(port);
  c.send({ type: 'join', room: game.room, token: game.token });
  await c.expect('welcome');
  await c.expect('state');
  return c;
}

// A two-player event started: its organiser, both players seated in
// their board's room (white south, black north).
async function startedPair(port, fields = {}) {
  const e = await createEvent(port, { rounds: 1, ...fields });
  const [p0, p1] = await enterMany(port, e.id, 2);
  e.org.send({ type: 'event_start', event: e.id, token: e.token });
  const ev = await untilEvent(e.org, (v) => v.state === 'running');
  const g0 = (await asPlayer(port, e.id, p0.token)).you.game;
  const g1 = (await asPlayer(port, e.id, p1.token)).you.game;
  const [w, b] = g0.side === 'south' ? [g0, g1] : [g1, g0];
  return { e, ev, white: await seat(port, w), black: await seat(port, b), room: g0.room };
}

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
    await stopServer(srv);
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
    await stopServer(srv);
  }
});

async function metric(port, name) {
  const text = await (await httpGet(port, '/metrics')).text();
  const m = text.match(new RegExp(`^${name} (\\d+)$`, 'm'));
  return m ? Number(m[1]) : null;
}

// A room created by a connection that stays (it never makes way).
async function heldRoom(port, localAddress) {
  const c = await Client.open(port, { localAddress });
  c.send({ type: 'create', side: 'south' });
  const w = await c.next();
  if (w.type === 'error') return { c, error: w };
  await c.expect('state');
  return { c, room: w.room };
}

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
    await stopServer(srv);
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
    await stopServer(srv);
  }
});
