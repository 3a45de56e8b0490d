// table.test.mjs: the room table when it is full (--max-rooms): which
// rooms make way for a newcomer (a room without a game, or whose game has
// fewer than 4 moves from each side, at once; a game idle past
// --evict-idle; never one with a player connected), rooms whose game has
// not started expiring as soon as unjoined ones, and the budget of rooms
// held from one network (--max-rooms-per-net).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServer, Client, httpGet, playMoves, untilConnections } from './lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Eight plies from the start: 4 moves from each side, a game started.
const STARTED = ['a', 'A', 'b', 'B', 'c', 'C', 'd', 'D'];

// A room created and joined from localAddress: { a (south), b, room }.
async function pair(port, localAddress = '127.0.0.1') {
  const a = await Client.open(port, { localAddress });
  a.send({ type: 'create', side: 'south' });
  const w = await a.expect('welcome');
  await a.expect('state');
  const b = await Client.open(port, { room: w.room, localAddress });
  b.send({ type: 'join', room: w.room });
  assert.equal((await b.expect('welcome')).seat, 'north');
  await b.expect('state');
  await a.expect('state');
  return { a, b, room: w.room, ta: w.token };
}

// The first answer to a create from localAddress: its welcome or error
// (with keep, the client stays connected: m.client).
async function tryCreate(port, localAddress = '127.0.0.2', keep = false) {
  const c = await Client.open(port, { localAddress });
  c.send({ type: 'create', side: 'south' });
  const m = await c.next();
  if (keep) m.client = c;
  else c.close();
  return m;
}

async function exists(port, room) {
  const c = await Client.open(port);
  c.send({ type: 'join', room });
  const m = await c.next();
  c.close();
  return m.type === 'welcome';
}

async function evicted(port) {
  const m = await (await httpGet(port, '/metrics')).text();
  return Number(/oware_rooms_evicted_total (\d+)/.exec(m)[1]);
}

test('a table filled with joined rooms from ten addresses still takes a newcomer', () =>
  withServer(['--max-rooms', '20'], async (srv) => {
    // Ten addresses, two rooms each, both seats taken, then gone: the
    // table is full of rooms whose players made no move.
    const rooms = [];
    for (let i = 0; i < 10; i++)
      for (let k = 0; k < 2; k++) {
        const { a, b, room } = await pair(srv.port, `127.0.0.${10 + i}`);
        a.close(); b.close();
        rooms.push(room);
      }
    await untilConnections(srv.port, 0); // their leaving is noted
    const m = await tryCreate(srv.port);
    assert.equal(m.type, 'welcome', JSON.stringify(m));
    assert.equal(await evicted(srv.port), 1);
    assert.equal((await (await httpGet(srv.port, '/healthz')).json()).rooms, 20);
  }));

test('a full table: a connected room never makes way, a game only once idle past --evict-idle, finished before unfinished', () =>
  // Idle times are whole seconds: with --evict-idle 4 the first check, about
  // 1.6 s after the last move (up to 3 s on a loaded machine), finds nothing
  // idle enough, and 4.5 s later both games are.
  withServer(['--max-rooms', '3', '--evict-idle', '4'], async (srv) => {
    // Room 1: both players stay connected (and never move).
    const live = await pair(srv.port);
    // Room 2: a game in progress, then both leave.
    const open = await pair(srv.port);
    await playMoves(open.a, open.b, STARTED);
    open.a.close(); open.b.close();
    await sleep(1100); // a later idle time (whole seconds) for room 3
    // Room 3: a finished game (eight plies, then a resignation), left.
    const fin = await pair(srv.port);
    await playMoves(fin.a, fin.b, STARTED);
    fin.a.send({ type: 'resign' });
    await fin.a.expect('state'); await fin.b.expect('state');
    fin.a.close(); fin.b.close();
    await untilConnections(srv.port, 2); // room 1's players only
    // Nothing may make way yet: the games moved less than 4 s ago.
    let m = await tryCreate(srv.port);
    assert.equal(m.code, 'too_many_rooms', JSON.stringify(m));
    await sleep(4500);
    // Both games are idle past 4 s: the finished one goes first, though
    // the unfinished one is idle longer.
    const c1 = await tryCreate(srv.port, '127.0.0.2', true);
    assert.equal(c1.type, 'welcome', JSON.stringify(c1));
    assert.equal(await exists(srv.port, fin.room), false);
    assert.equal(await exists(srv.port, open.room), true);
    // Then the unfinished game (the others have someone connected).
    const c2 = await tryCreate(srv.port, '127.0.0.3', true);
    assert.equal(c2.type, 'welcome', JSON.stringify(c2));
    assert.equal(await exists(srv.port, open.room), false);
    // Every room has someone connected now: nothing makes way.
    m = await tryCreate(srv.port, '127.0.0.4');
    assert.equal(m.code, 'too_many_rooms', JSON.stringify(m));
    // A room without a game whose creator left makes way at once.
    c2.client.close();
    await untilConnections(srv.port, 3);
    m = await tryCreate(srv.port, '127.0.0.4');
    assert.equal(m.type, 'welcome', JSON.stringify(m));
    assert.equal(await evicted(srv.port), 3);
    c1.client.close();
    live.a.send({ type: 'move', pit: 'c', ply: 0 });
    assert.equal((await live.b.untilState((s) => s.moves.length === 1)).moves.length, 1);
    live.a.close(); live.b.close();
  }));

test('a room whose players never moved, or moved fewer than 4 times each, expires after --expire-unjoined, a game after --expire-unfinished', () =>
  withServer(['--expire-unjoined', '1', '--expire-unfinished', '1000'], async (srv) => {
    const idle = await pair(srv.port);
    idle.a.close(); idle.b.close();
    const seven = await pair(srv.port);
    await playMoves(seven.a, seven.b, STARTED.slice(0, 7));
    seven.a.close(); seven.b.close();
    const game = await pair(srv.port);
    await playMoves(game.a, game.b, STARTED);
    game.a.close(); game.b.close();
    const rooms = async () => (await (await httpGet(srv.port, '/healthz')).json()).rooms;
    let n;
    for (const until = Date.now() + 15000; (n = await rooms()) > 1 && Date.now() < until;) await sleep(100);
    assert.equal(n, 1);
    assert.equal(await exists(srv.port, idle.room), false);
    assert.equal(await exists(srv.port, seven.room), false);
    assert.equal(await exists(srv.port, game.room), true);
  }));

// Issue 40, item 3: 200 addresses filled the table with one move a room.
test('a table filled with rooms of one move from many addresses takes a newcomer, and a network holds --max-rooms-per-net rooms', () =>
  withServer(['--max-rooms', '6', '--max-rooms-per-net', '3'], async (srv) => {
    // Two networks (127.0.1.0/24, 127.0.2.0/24), three rooms each, one move
    // in each, everyone gone: the table is full.
    const rooms = [];
    for (const net of [1, 2])
      for (let k = 0; k < 3; k++) {
        const { a, b, room } = await pair(srv.port, `127.0.${net}.${10 + k}`);
        await playMoves(a, b, ['c']);
        a.close(); b.close();
        rooms.push(room);
      }
    await untilConnections(srv.port, 0); // their leaving is noted
    // A fourth room from a network holding three: rate_limited, whatever
    // the address.
    let m = await tryCreate(srv.port, '127.0.1.99');
    assert.equal(m.code, 'rate_limited', JSON.stringify(m));
    assert.match(m.message, /network/);
    // From elsewhere: a one-move room makes way.
    const c = await tryCreate(srv.port, '127.0.3.1', true);
    assert.equal(c.type, 'welcome', JSON.stringify(c));
    assert.equal(await evicted(srv.port), 1);
    let gone = 0;
    for (const room of rooms) if (!(await exists(srv.port, room))) gone++;
    assert.equal(gone, 1);
    c.client.close();
  }));
