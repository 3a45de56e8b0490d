// takeover.test.mjs: two servers on one PostgreSQL database (run by `make
// test-server-pg`, skipped on SQLite), talked to directly (the cluster
// test puts nginx in front): a room is held by one server at a time; a join
// on the other takes it over (the holder gives it up and closes its
// connections with 4002 "moved"); a killed server's rooms are taken once
// its lease runs out; a paused one is fenced when it wakes. Leases of 3 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopServer, Client, tempDir, storeQuery, storeHold, playMoves, twoPlayers, httpGet, waitLine, PG } from './lib.mjs';
import { join } from 'node:path';

const onlyPg = PG ? {} : { skip: 'PostgreSQL only (make test-server-pg)' };
const LEASE = 3;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const metric = async (srv, name) => {
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await httpGet(srv.port, '/metrics')).text());
  return m ? Number(m[1]) : NaN;
};
// Two servers on one database (one schema).
async function pair() {
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--node-id', 'A', '--lease-seconds', String(LEASE)], { db });
  const b = await startServer(['--node-id', 'B', '--lease-seconds', String(LEASE)], { db });
  return { db, a, b };
}
// South creates a room on port: the creator's client, its welcome and the room.
async function createOn(port, opts) {
  const s = await Client.open(port, opts);
  s.send({ type: 'create', side: 'south' });
  const ws = await s.expect('welcome');
  await s.expect('state');
  return { s, ws, room: ws.room };
}
async function joinAs(port, room, token) {
  const c = await Client.open(port, { room });
  c.send(token ? { type: 'join', room, token } : { type: 'join', room });
  const w = await c.expect('welcome');
  const st = await c.expect('state');
  return { c, w, st };
}
const holder = (db, room) => storeQuery(db, `SELECT i.node FROM rooms r JOIN incarnations i ON i.id = r.holder WHERE r.id = '${room}'`);

test('a join on the other server, its holder keeping a player: relayed there, the room stays and plays', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { s, ws, room } = await createOn(a.port);
    assert.equal(holder(db, room), 'A');
    // North joins through B: A keeps the room (South is connected to it)
    // and B relays North there.
    const n = await joinAs(b.port, room);
    assert.equal(n.w.seat, 'north');
    await s.expect('state'); // north arrived
    const st = await playMoves(s, n.c, ['d', 'C', 'e', 'B']);
    assert.equal(st.moves.length, 4);
    assert.equal(holder(db, room), 'A');
    assert.equal(s.closed, null);
    assert.equal(await metric(b, 'oware_relays_total'), 1);
    assert.equal(await metric(b, 'oware_relays_open'), 1);
    assert.equal(await metric(a, 'oware_rooms_released_total'), 0);
    assert.equal(await metric(b, 'oware_rooms'), 0);
    // A relayed chat line and a resend of a move already made pass through.
    n.c.send({ type: 'chat', text: 'hello from B' });
    assert.equal((await s.expect('chat')).text, 'hello from B');
    assert.equal((await n.c.expect('chat')).text, 'hello from B');
    // North's seat on A is relayed: it is known by North's own address.
    const line = await waitLine(a, /player_joined room=\S+ side=north addr=127\.0\.0\.1/);
    assert.ok(line);
    // When South leaves A and comes back through B, A has no player of
    // its own: it gives the room up, the relayed North gets 4002 and
    // follows, and both play on B. The 4002 leaves once the give-up is
    // committed (held back here by a lock on the room's row).
    const lock = await storeHold(db, `SELECT 1 FROM rooms WHERE id = '${room}' FOR UPDATE`);
    s.close();
    assert.ok(await waitLine(a, /room_released/), 'A gives the room up');
    await sleep(300);
    assert.equal(n.c.closed, null, 'moved before the give-up was committed');
    await lock.end();
    await n.c.expect('state'); // south gone
    assert.deepEqual(await n.c.waitClose(), { code: 4002, reason: 'moved' });
    assert.equal(holder(db, room), '');
    const s2 = await joinAs(b.port, room, ws.token);
    assert.equal(s2.w.seat, 'south');
    assert.equal((await s2.c.expect('chat_history')).messages.length, 1);
    assert.equal(holder(db, room), 'B');
    const n2 = await joinAs(b.port, room, n.w.token);
    assert.equal((await n2.c.expect('chat_history')).messages.length, 1);
    await s2.c.untilState((x) => x.seats.north.connected);
    const st2 = await playMoves(s2.c, n2.c, ['a', 'F'], { from: 4 });
    assert.equal(st2.moves.length, 6);
    assert.equal(await metric(a, 'oware_rooms_released_total'), 1);
    assert.equal(await metric(b, 'oware_rooms_taken_total'), 1);
    assert.equal(await metric(a, 'oware_rooms'), 0);
    assert.equal(await metric(b, 'oware_rooms'), 1);
    // An unknown room is still no_room through the take.
    const x = await Client.open(b.port);
    x.send({ type: 'join', room: '00000000-0000-4000-8000-000000000000' });
    await x.expectError('no_room');
    for (const c of [s2.c, n2.c, x]) c.close();
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('a relay must show its server\'s key: a wrong one is refused, the right one names the client', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { s, room } = await createOn(a.port);
    const bad = await Client.open(a.port, { path: `/ws?room=${room}&relay=00112233445566778899aabbccddeeff&client=10.9.8.7` });
    assert.equal((await bad.waitClose()).code, 1006);
    assert.equal(bad.queue.length, 0);
    assert.ok(await waitLine(a, /conn_refused reason=relay_key/));
    const key = storeQuery(db, `SELECT relay_key FROM incarnations i JOIN rooms r ON r.holder = i.id WHERE r.id = '${room}'`);
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.match(storeQuery(db, `SELECT relay FROM incarnations i JOIN rooms r ON r.holder = i.id WHERE r.id = '${room}'`), /^127\.0\.0\.1:\d+$/);
    const good = await Client.open(a.port, { path: `/ws?room=${room}&relay=${key}&client=10.9.8.7` });
    good.send({ type: 'join', room });
    assert.equal((await good.expect('welcome')).seat, 'north');
    assert.ok(await waitLine(a, /player_joined room=\S+ side=north addr=10\.9\.8\.7/));
    // A client's own client= without a key changes nothing.
    const plain = await Client.open(a.port, { path: `/ws?room=${room}&client=10.1.1.1` });
    plain.send({ type: 'join', room });
    await plain.expect('welcome');
    assert.ok(await waitLine(a, /spectator_joined room=\S+ addr=127\.0\.0\.1/));
    for (const c of [s, good, plain]) c.close();
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('relayed connections count under their clients\' addresses, not the relaying server\'s', onlyPg, async () => {
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--node-id', 'A', '--lease-seconds', String(LEASE), '--max-sockets-per-ip', '3'], { db });
  const b = await startServer(['--node-id', 'B', '--lease-seconds', String(LEASE)], { db });
  try {
    const { s, room } = await createOn(a.port, { localAddress: '127.0.0.2' });
    // Six clients join through B: B relays each to A from its own address.
    const cs = [];
    for (let i = 0; i < 6; i++) {
      const c = await Client.open(b.port, { room, localAddress: `127.0.1.${i + 1}` });
      c.send({ type: 'join', room });
      cs.push(c);
    }
    for (const c of cs) await c.expect('welcome');
    assert.equal(await metric(b, 'oware_relays_open'), 6);
    for (const c of [s, ...cs]) c.close();
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

// A player pinned to one server: joins there with its token, and at a
// close 4002 ("moved") joins there again at once, as the web client does;
// a move it sent that the room came back without (the room moved before
// it was played) it sends again, as the web client does (web/online.js).
class Pinned {
  constructor(port, room, token) { Object.assign(this, { port, room, token, moved: 0, welcomes: 0, pending: null, rejoined: false }); }
  move(pit, ply) {
    this.pending = { type: 'move', pit, ply };
    this.c.send(this.pending);
  }
  async connect() {
    for (;;) {
      this.c = await Client.open(this.port, { room: this.room });
      this.c.send(this.token ? { type: 'join', room: this.room, token: this.token } : { type: 'join', room: this.room });
      try {
        for (;;) {
          const m = await this.c.next(15000);
          if (m.type === 'welcome') { this.token = m.token || this.token; this.seat = m.seat; this.welcomes++; return; }
          if (m.type === 'error') throw new Error('join refused: ' + m.code);
        }
      } catch (e) {
        if (this.c.closed?.code !== 4002) throw e;
        this.moved++;
      }
    }
  }
  // The state after ply, waiting through 4002s (joining again).
  async stateAt(ply, ms) {
    const until = Date.now() + ms;
    const seen = (x) => {
      if (this.pending && x.moves.length > this.pending.ply) this.pending = null;
      else if (this.pending && this.rejoined && x.moves.length === this.pending.ply) this.c.send(this.pending);
      this.rejoined = false;
      return x.moves.length >= ply;
    };
    for (;;) {
      try {
        return await this.c.untilState(seen, Math.max(1, until - Date.now()));
      } catch (e) {
        if (this.c.closed?.code !== 4002 || Date.now() > until) {
          throw new Error(`${e.message}: ply ${ply}, moved ${this.moved}, unconfirmed ${JSON.stringify(this.pending)}`);
        }
        this.moved++;
        await this.connect();
        this.rejoined = true;
      }
    }
  }
}

test('split routing: each player pinned to its own server, joining in any order, the room plays within the lease and stays playable', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { s, ws, room } = await createOn(a.port);
    s.close();
    const south = new Pinned(a.port, room, ws.token);
    const north = new Pinned(b.port, room, null);
    const letters = ['d', 'C', 'e', 'B', 'a', 'F', 'f', 'D'];
    let ply = 0;
    // Rounds: both drop and come back at once, in an order that changes;
    // each round must be answered and play a move for each side.
    for (let round = 0; round < 4; round++) {
      const t0 = Date.now(), moved0 = south.moved + north.moved;
      const order = round % 2 ? [north, south] : [south, north];
      await Promise.all(order.map((p, i) => new Promise((r) => setTimeout(r, i * 30)).then(() => p.connect())));
      for (let k = 0; k < 2; k++, ply++) {
        const mover = ply % 2 === 0 ? south : north;
        mover.move(letters[ply], ply);
        // Both at once: a mover whose room moved joins again and sends
        // its move again while the other waits for it.
        await Promise.all([south, north].map((p) => p.stateAt(ply + 1, (LEASE + 3) * 1000)));
      }
      assert.ok(Date.now() - t0 < (LEASE + 3) * 1000, `round ${round} took ${Date.now() - t0} ms`);
      // The room moves at most once a round (to a server with a player
      // of its own), never back and forth.
      assert.ok(south.moved + north.moved - moved0 <= 1, `round ${round}: moved ${south.moved + north.moved - moved0} times`);
      south.c.close();
      north.c.close();
      await sleep(100);
    }
    const moves = storeQuery(db, `SELECT length(moves) FROM rooms WHERE id = '${room}'`);
    assert.equal(Number(moves), letters.length);
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('kill -9: the rooms of the dead server are taken once its lease runs out, nothing lost', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { s, ws, room } = await createOn(a.port);
    const n = await joinAs(a.port, room);
    await s.expect('state');
    await playMoves(s, n.c, ['d', 'C', 'f']);
    assert.equal((await stopServer(a, 'SIGKILL')).signal, 'SIGKILL');
    const t0 = Date.now();
    // The clients come back through B; the take waits for A's lease.
    const s2 = await joinAs(b.port, room, ws.token);
    const n2 = await joinAs(b.port, room, n.w.token);
    const waited = Date.now() - t0;
    assert.ok(waited <= (LEASE + 2) * 1000, `back within the lease and a bit: ${waited} ms`);
    assert.equal(s2.st.moves.length, 3);
    assert.equal(holder(db, room), 'B');
    await s2.c.expect('state'); // north back
    const st = await playMoves(s2.c, n2.c, ['C'], { from: 3 });
    assert.equal(st.moves.length, 4);
    assert.equal(storeQuery(db, `SELECT length(moves) FROM rooms WHERE id='${room}'`), '4');
    s2.c.close();
    n2.c.close();
  } finally {
    await stopServer(a, 'SIGKILL');
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('SIGSTOP past the lease: the other server takes the rooms; the paused one, woken, writes nothing and closes its connections', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { s, ws, room } = await createOn(a.port);
    const n = await joinAs(a.port, room);
    await s.expect('state');
    await playMoves(s, n.c, ['d', 'C']);
    a.proc.kill('SIGSTOP');
    // A move sent to the paused server waits in its socket.
    s.send({ type: 'move', pit: 'f', ply: 2 });
    await sleep(2 * LEASE * 1000);
    // Meanwhile both players carry on through B (new connections).
    const s2 = await joinAs(b.port, room, ws.token);
    const n2 = await joinAs(b.port, room, n.w.token);
    assert.equal(s2.st.moves.length, 2, 'the paused server wrote nothing');
    await s2.c.expect('state');
    await playMoves(s2.c, n2.c, ['e'], { from: 2 });
    a.proc.kill('SIGCONT');
    // Woken: its lease is gone, so are its rooms; the move it held is
    // never applied, and its connections are closed.
    const cs = await s.waitClose(5000);
    const cn = await n.c.waitClose(5000);
    for (const c of [cs, cn]) assert.ok([4002, 1011].includes(c.code), JSON.stringify(c));
    assert.ok(!s.queue.some((m) => m.type === 'state' && m.moves.length === 3), 'no state of the fenced move');
    await sleep(300);
    assert.equal(storeQuery(db, `SELECT encode(moves, 'hex') FROM rooms WHERE id='${room}'`), '030804');
    assert.equal(holder(db, room), 'B');
    assert.ok(await metric(a, 'oware_leases_lost_total') >= 1);
    assert.equal(await metric(a, 'oware_rooms'), 0);
    s2.c.close();
    n2.c.close();
  } finally {
    a.proc.kill('SIGCONT');
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('a hung holder, its players coming back through two other servers: playable within the lease plus a few seconds', onlyPg, async () => {
  const { db, a, b } = await pair();
  const c3 = await startServer(['--node-id', 'C', '--lease-seconds', String(LEASE)], { db });
  try {
    const { s, ws, room } = await createOn(a.port);
    const n = await joinAs(a.port, room);
    await s.expect('state');
    await playMoves(s, n.c, ['d', 'C']);
    a.proc.kill('SIGSTOP');
    // The players leave the hung server (as the page's 10 s watch or
    // nginx's timeout makes them) and come back through B and C.
    s.terminate();
    n.c.terminate();
    const t0 = Date.now();
    const south = new Pinned(b.port, room, ws.token);
    const north = new Pinned(c3.port, room, n.w.token);
    await Promise.all([south.connect(), north.connect()]);
    south.c.send({ type: 'move', pit: 'e', ply: 2 });
    for (const p of [south, north]) await p.stateAt(3, (LEASE + 5) * 1000);
    north.c.send({ type: 'move', pit: 'B', ply: 3 });
    for (const p of [south, north]) await p.stateAt(4, (LEASE + 5) * 1000);
    const took = Date.now() - t0;
    assert.ok(took < (LEASE + 5) * 1000, `playable after ${took} ms`);
    assert.ok(south.moved + north.moved <= 1, `moved ${south.moved} + ${north.moved} times`);
    const h = holder(db, room);
    assert.ok(h === 'B' || h === 'C', h);
    a.proc.kill('SIGCONT');
    await sleep(500);
    // The woken server holds nothing; the game goes on where it is.
    assert.equal(await metric(a, 'oware_rooms'), 0);
    south.c.send({ type: 'move', pit: 'a', ply: 4 });
    for (const p of [south, north]) await p.stateAt(5, 5000);
    assert.equal(storeQuery(db, `SELECT length(moves) FROM rooms WHERE id='${room}'`), '5');
    south.c.close();
    north.c.close();
  } finally {
    a.proc.kill('SIGCONT');
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
    assert.deepEqual(await stopServer(c3), { code: 0, signal: null });
  }
});

test('a write to a room this server no longer holds is fenced: nothing of its batch is kept, the members get 1011', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { a: s, b: n, room } = await twoPlayers(a.port);
    await playMoves(s, n, ['d', 'C']);
    // The room's hold is taken from A behind its back (as if another
    // server had taken it while A was away).
    storeQuery(db, `UPDATE rooms SET holder = NULL WHERE id = '${room}'`);
    s.send({ type: 'move', pit: 'f', ply: 2 });
    for (const c of [s, n]) assert.equal((await c.waitClose()).code, 1011);
    assert.equal(storeQuery(db, `SELECT encode(moves, 'hex') FROM rooms WHERE id='${room}'`), '0308');
    assert.equal(await metric(a, 'oware_batches_fenced_total'), 1);
    assert.equal(await metric(b, 'oware_batches_fenced_total'), 0);
    assert.ok(a.lines.some((l) => /store_batch_lost .*fenced: room/.test(l)));
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

const postRooms = (port, rooms) => fetch(`http://127.0.0.1:${port}/api/rooms`, {
  method: 'POST', body: JSON.stringify({ rooms }), headers: { 'content-type': 'application/json' },
});

test('a fenced batch costs only its room: the other rooms\' changes in it and after are committed, /healthz stays 200', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const rooms = [];
    for (let i = 0; i < 12; i++) rooms.push(await twoPlayers(a.port));
    const fenced = rooms[5];
    storeQuery(db, `UPDATE rooms SET holder = NULL WHERE id = '${fenced.room}'`);
    // Every South moves at once: the fenced room's write shares its batch
    // with others'.
    for (const r of rooms) r.a.send({ type: 'move', pit: 'd', ply: 0 });
    for (const r of rooms) {
      if (r === fenced) continue;
      for (const c of [r.a, r.b]) assert.equal((await c.expect('state')).moves.length, 1);
    }
    for (const c of [fenced.a, fenced.b]) assert.equal((await c.waitClose()).code, 1011);
    // The store never stopped: every North's answer is committed at once.
    assert.equal((await httpGet(a.port, '/healthz')).status, 200);
    for (const r of rooms) if (r !== fenced) r.b.send({ type: 'move', pit: 'C', ply: 1 });
    for (const r of rooms) {
      if (r === fenced) continue;
      for (const c of [r.a, r.b]) assert.equal((await c.expect('state')).moves.length, 2);
    }
    for (const r of rooms) {
      assert.equal(storeQuery(db, `SELECT encode(moves, 'hex') FROM rooms WHERE id='${r.room}'`), r === fenced ? '' : '0308');
    }
    const fencedBatches = await metric(a, 'oware_batches_fenced_total');
    assert.ok(fencedBatches >= 1);
    assert.equal(await metric(a, 'oware_batches_rewritten_total'), fencedBatches);
    assert.equal(await metric(a, 'oware_rooms_fenced_total'), 1);
    assert.equal(await metric(a, 'oware_store_commits_failed_total'), 0);
    assert.equal(await metric(a, 'oware_store_ok'), 1);
    assert.ok(!a.lines.some((l) => /store_failing/.test(l)));
    assert.ok(await waitLine(a, /room_fenced room=/));
    for (const r of rooms) { r.a.close(); r.b.close(); }
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('POST /api/rooms on either server answers the rooms the other holds, from the database', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    // A holds two rooms: one with both players on and two moves, one
    // finished by resignation with its south gone.
    const s = await Client.open(a.port);
    s.send({ type: 'create', side: 'south', name: 'Ana', clock: { initial: 300, increment: 5 } });
    const ws = await s.expect('welcome');
    await s.expect('state');
    const n = await Client.open(a.port, { room: ws.room });
    n.send({ type: 'join', room: ws.room, name: 'Bo' });
    const wn = await n.expect('welcome');
    await n.expect('state'); await s.expect('state');
    await playMoves(s, n, ['d', 'C']);
    const g = await Client.open(a.port);
    g.send({ type: 'create', side: 'north', kind: 'togyz' });
    const wg = await g.expect('welcome');
    await g.expect('state');
    const h = await joinAs(a.port, wg.room);
    await g.expect('state');
    g.send({ type: 'resign' });
    await g.expect('state');
    g.close();
    await h.c.expect('state'); // north (g) gone
    assert.equal(holder(db, ws.room), 'A');
    const gone = '00000000-0000-4000-8000-000000000000';
    const ask = [{ room: ws.room, token: wn.token }, { room: gone }, { room: wg.room, token: wg.token },
      { room: ws.room, token: 'not-a-token' }];
    const here = await (await postRooms(a.port, ask)).json();
    const r = await postRooms(b.port, ask);
    assert.equal(r.status, 200);
    const there = await r.json();
    // B reads A's rooms from the database and answers what A answers
    // (the clocks aside: A's is running), without taking them.
    for (const x of [here, there]) {
      const [one, none, two, bad] = x.rooms;
      assert.equal(one.found, true);
      assert.equal(one.seat, 'north');
      assert.deepEqual(one.names, { south: 'Ana', north: 'Bo' });
      assert.deepEqual(one.seats, { south: { taken: true, connected: true }, north: { taken: true, connected: true } });
      assert.equal(one.moves, 2);
      assert.equal(one.turn, 'south');
      assert.equal(one.over, false);
      assert.equal(one.kind, 'oware');
      assert.equal(one.time_control.initial.south, 300000);
      assert.deepEqual(none, { room: gone, found: false });
      assert.equal(two.kind, 'togyz');
      assert.equal(two.seat, 'north');
      assert.equal(two.over, true);
      assert.equal(two.reason, 'resign');
      assert.equal(two.winner, 'south');
      assert.deepEqual(two.seats, { south: { taken: true, connected: true }, north: { taken: true, connected: false } });
      assert.equal(bad.seat, null);
      assert.equal(bad.found, true);
    }
    assert.deepEqual({ ...there.rooms[0], time_control: null }, { ...here.rooms[0], time_control: null });
    assert.deepEqual(there.rooms[2], here.rooms[2]);
    assert.equal(holder(db, ws.room), 'A', 'the room stays where it is');
    assert.equal(await metric(b, 'oware_rooms'), 0);
    // A stopped cleanly: its rooms are answered, nobody shown connected.
    for (const c of [s, n, h.c]) c.close();
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    const after = await (await postRooms(b.port, ask.slice(0, 1))).json();
    assert.equal(after.rooms[0].found, true);
    assert.equal(after.rooms[0].moves, 2);
    assert.deepEqual(after.rooms[0].seats.north, { taken: true, connected: false });
  } finally {
    if (a.proc.exitCode === null) await stopServer(a);
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

test('a dead server\'s room that nobody joins again is taken when idle, and expires', onlyPg, async () => {
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--node-id', 'A', '--lease-seconds', String(LEASE)], { db });
  let b;
  try {
    const { s, room } = await createOn(a.port);
    assert.equal((await stopServer(a, 'SIGKILL')).signal, 'SIGKILL');
    // B expires rooms nobody joined after 2 s idle (its sweep runs every 2 s).
    b = await startServer(['--node-id', 'B', '--lease-seconds', String(LEASE), '--expire-unjoined', '2'], { db });
    let n = '1';
    for (const until = Date.now() + (LEASE + 8) * 1000; n !== '0' && Date.now() < until;) {
      await sleep(250);
      n = storeQuery(db, `SELECT count(*) FROM rooms WHERE id='${room}'`);
    }
    assert.equal(n, '0', 'the orphan expired');
    assert.ok(await waitLine(b, / rooms_taken_idle rooms=1/));
    assert.ok(await waitLine(b, new RegExp(` room_expired room=${room} `)));
  } finally {
    await stopServer(a, 'SIGKILL');
    if (b) assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});
