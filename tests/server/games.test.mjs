// games.test.mjs: POST /api/rooms, "your games": several rooms answered at
// once with what a link holder could see (the token's side, names, turn or
// result, last activity), unknown rooms reported as not found; bounded in
// entries and bytes; every entry counts as a join against
// --joins-per-ip-per-min (all or none); foreign Origins refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withServer, Client, twoPlayers, playMoves } from './lib.mjs';

function post(port, body, headers = {}) {
  return fetch(`http://127.0.0.1:${port}/api/rooms`, {
    method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

test('two open rooms and a finished one, an unknown room and a wrong token', async () => {
  await withServer([], async (srv) => {
    const t0 = Math.floor(Date.now() / 1000);
    const a = await Client.open(srv.port);
    a.send({ type: 'create', side: 'south', name: 'Ana' });
    const w1 = await a.expect('welcome');
    await a.expect('state');
    const b = await Client.open(srv.port, { room: w1.room });
    b.send({ type: 'join', room: w1.room, name: 'Bo' });
    const w1b = await b.expect('welcome');
    await b.expect('state'); await a.expect('state');
    await playMoves(a, b, ['c']);
    b.close();
    await a.expect('state');
    // A room nobody joined yet.
    const c = await Client.open(srv.port);
    c.send({ type: 'create', side: 'north' });
    const w2 = await c.expect('welcome');
    await c.expect('state');
    c.close();
    // A finished room: North resigned.
    const f = await twoPlayers(srv.port);
    f.b.send({ type: 'resign' });
    await f.a.expect('state'); await f.b.expect('state');
    const r = await post(srv.port, { rooms: [
      { room: w1.room, token: w1.token }, { room: w2.room, token: w2.token },
      { room: f.room, token: f.tb }, { room: 'no-such-room', token: 'x' },
      { room: w1.room, token: 'not-a-token' }, { room: w1.room, token: null }, { room: w1b.room, token: w1b.token },
    ] });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^application\/json/);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    const { rooms } = await r.json();
    assert.equal(rooms.length, 7);
    const [open, lone, fin, gone, wrong, none, north] = rooms;
    assert.deepEqual(Object.keys(open).sort(), ['found', 'game_number', 'kind', 'moves', 'names',
      'over', 'reason', 'room', 'seat', 'seats', 'time_control', 'turn', 'updated', 'winner']);
    assert.equal(open.room, w1.room);
    assert.equal(open.found, true);
    assert.equal(open.seat, 'south');
    assert.deepEqual(open.names, { south: 'Ana', north: 'Bo' });
    assert.deepEqual(open.seats, { south: { taken: true, connected: true }, north: { taken: true, connected: false } });
    assert.equal(open.turn, 'north');
    assert.equal(open.moves, 1);
    assert.equal(open.over, false);
    assert.equal(open.winner, null);
    assert.equal(open.time_control, null);
    assert.ok(open.updated >= t0 && open.updated <= Date.now() / 1000 + 1);
    assert.equal(lone.seat, 'north');
    assert.equal(lone.seats.south.taken, false);
    assert.equal(lone.turn, 'south');
    assert.equal(fin.seat, 'north');
    assert.equal(fin.over, true);
    assert.equal(fin.turn, null);
    assert.equal(fin.winner, 'south');
    assert.equal(fin.reason, 'resign');
    assert.deepEqual(gone, { room: 'no-such-room', found: false });
    // A token that holds no seat answers as a link without a token would.
    assert.equal(wrong.seat, null);
    assert.deepEqual({ ...wrong, seat: 'south' }, open);
    assert.equal(none.seat, null);
    assert.equal(north.seat, 'north');
    // No token appears in the log.
    assert.ok(!srv.lines.some((l) => l.includes(w1.token) || l.includes(w2.token)));
    a.close(); f.a.close(); f.b.close();
  });
});

test('bad requests: method, JSON, too many rooms, too large, foreign Origin', async () => {
  await withServer([], async (srv) => {
    let r = await fetch(`http://127.0.0.1:${srv.port}/api/rooms`);
    assert.equal(r.status, 405);
    assert.equal((await r.json()).error, 'bad_method');
    for (const body of ['{bad', '[]', '{"rooms":{}}', '{"rooms":[{"room":""}]}', '{"rooms":[{"room":"a","token":1}]}']) {
      r = await post(srv.port, body);
      assert.equal(r.status, 400, body);
      const e = await r.json();
      assert.equal(e.error, 'bad_request');
      assert.equal(typeof e.message, 'string');
    }
    const many = Array.from({ length: 51 }, (_, i) => ({ room: 'r' + i }));
    r = await post(srv.port, { rooms: many });
    assert.equal(r.status, 400);
    assert.match((await r.json()).message, /more than 50/);
    r = await post(srv.port, { rooms: many.slice(0, 50) });
    assert.equal(r.status, 200);
    assert.equal((await r.json()).rooms.length, 50);
    r = await post(srv.port, JSON.stringify({ rooms: [], pad: 'x'.repeat(17000) }));
    assert.equal(r.status, 413);
    assert.equal((await r.json()).error, 'too_large');
    r = await post(srv.port, { rooms: [] }, { origin: 'http://evil.example' });
    assert.equal(r.status, 403);
    assert.equal((await r.json()).error, 'bad_origin');
    r = await post(srv.port, { rooms: [] }, { origin: `http://127.0.0.1:${srv.port}` });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { rooms: [] });
  });
});

test('each entry counts as a join of the address: all or none, then 429', async () => {
  await withServer(['--joins-per-ip-per-min', '10'], async (srv) => {
    const refs = (n) => ({ rooms: Array.from({ length: n }, () => ({ room: 'r', token: 't' })) });
    let r = await post(srv.port, refs(8));
    assert.equal(r.status, 200);
    r = await post(srv.port, refs(3));
    assert.equal(r.status, 429);
    assert.equal((await r.json()).error, 'rate_limited');
    r = await post(srv.port, refs(2));
    assert.equal(r.status, 200);
    // The minute's joins are used up for WebSocket joins too.
    const c = await Client.open(srv.port);
    c.send({ type: 'join', room: 'r' });
    await c.expectError('rate_limited');
    c.close();
    const m = await (await fetch(`http://127.0.0.1:${srv.port}/metrics`)).text();
    assert.match(m, /oware_errors_total\{code="rate_limited"\} 2/);
  });
});

test('a room with a clock answers its time control and the time left', async () => {
  await withServer([], async (srv) => {
    const a = await Client.open(srv.port);
    a.send({ type: 'create', side: 'south', clock: { initial: 300, increment: 3 } });
    const w = await a.expect('welcome');
    await a.expect('state');
    const d = await Client.open(srv.port);
    d.send({ type: 'create', side: 'north', clock: { days: 3 } });
    const wd = await d.expect('welcome');
    await d.expect('state');
    const r = await post(srv.port, { rooms: [{ room: w.room, token: w.token }, { room: wd.room }] });
    assert.equal(r.status, 200);
    const { rooms: [rt, corr] } = await r.json();
    assert.deepEqual(rt.time_control, { kind: 'realtime', south: 300000, north: 300000, running: null,
      grace: 0, increment: 3000, initial: { south: 300000, north: 300000 }, days: null });
    assert.equal(corr.time_control.kind, 'correspondence');
    assert.equal(corr.time_control.days, 3);
    assert.equal(corr.time_control.initial.south, 3 * 86400000);
    a.close(); d.close();
  });
});
