// events-cluster.test.mjs: club events on two servers sharing one
// PostgreSQL database (run by `make test-server-pg`, skipped on SQLite),
// talked to directly: an event is held by one server at a time, like a
// room; a follower reaching the other server takes it over (its holder
// gives it up and closes its followers with 4002 "moved"); a board's game
// that ends on a server not holding the event gives the event its result
// (told at the commit, read from the database), and the organiser's
// result ends a board's game on the server holding its room (told at the
// commit, when a server takes the room later, or when its holder is
// connected again); a killed holder's event is taken once its lease runs
// out, nothing lost; a paused one's writes are fenced. Leases of 3 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, stopServer, Client, tempDir, storeQuery, storeHold, twoPlayers, playMoves, httpGet, waitLine, pgStore, PG } from './lib.mjs';
import { createEvent as clubEvent, enterMany, asPlayer, seat, untilError } from './evlib.mjs';

const onlyPg = PG ? {} : { skip: 'PostgreSQL only (make test-server-pg)' };
const LEASE = 3;
const ARGS = ['--lease-seconds', String(LEASE)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const metric = async (srv, name) => {
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await httpGet(srv.port, '/metrics')).text());
  return m ? Number(m[1]) : NaN;
};

async function pair() {
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--node-id', 'A', ...ARGS], { db });
  const b = await startServer(['--node-id', 'B', ...ARGS], { db });
  return { db, a, b };
}
const holder = (db, id) => storeQuery(db, `SELECT i.node FROM events e JOIN incarnations i ON i.id = e.holder WHERE e.id = '${id}'`);

async function untilEvent(c, pred = () => true) {
  for (;;) {
    const m = await c.next();
    if (m.type === 'error') throw new Error('error ' + JSON.stringify(m));
    if (m.type === 'event' && pred(m)) return m;
  }
}
async function createEvent(port) {
  const org = await Client.open(port);
  org.send({ type: 'event_create', title: 'Two servers', kind: 'oware', format: 'round_robin',
    clock: null, auto: true });
  const w = await org.expect('event_welcome');
  await org.expect('event');
  return { org, id: w.event, token: w.token };
}
async function enter(port, id, name) {
  const c = await Client.open(port);
  c.send({ type: 'event_join', event: id, name });
  const w = await c.expect('event_welcome');
  const ev = await withYou(c, await untilEvent(c));
  return { c, entry: w.entry, token: w.token, ev };
}
async function watch(port, id, token) {
  const c = await Client.open(port);
  c.send(token ? { type: 'event_watch', event: id, token } : { type: 'event_watch', event: id });
  const ev = await untilEvent(c);
  return { c, ev: token ? await withYou(c, ev) : ev };
}
// The `event_you` that follows the event a socket with a token gets, as ev.you.
async function withYou(c, ev) {
  const y = await c.expect('event_you');
  return { ...ev, you: y.you };
}

test('a follower on the other server is relayed to the holder while one follows it there; then the event moves', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { org, id, token } = await createEvent(a.port);
    assert.equal(holder(db, id), 'A');
    const p1 = await enter(a.port, id, 'Ama');
    // A player joining through B: A keeps the event (followed there
    // directly), B relays the player there.
    const p2 = await enter(b.port, id, 'Kofi');
    assert.deepEqual(p2.ev.players.map((p) => p.name), ['Ama', 'Kofi']);
    await untilEvent(org, (e) => e.players.length === 2);
    assert.equal(holder(db, id), 'A');
    assert.equal(await metric(b, 'oware_relays_total'), 1);
    assert.equal(await metric(b, 'oware_events'), 0);
    // The organiser starts it; the relayed player sees it.
    org.send({ type: 'event_start', event: id, token });
    assert.equal((await untilEvent(p2.c, (e) => e.state === 'running')).round, 1);
    // Everyone connected to A directly leaves: A gives the event up, the
    // relayed player gets 4002 and comes back through B, which takes it.
    // The 4002 leaves once the give-up is committed (here held back by a
    // lock on the event's row): a player back at once through B finds the
    // event free, not still A's (B would relay it to A, which would take
    // the event again for it alone).
    const lock = await storeHold(db, `SELECT 1 FROM events WHERE id = '${id}' FOR UPDATE`);
    org.close();
    p1.c.close();
    assert.ok(await waitLine(a, /event_released/), 'A gives the event up');
    await sleep(300);
    assert.equal(p2.c.closed, null, 'moved before the give-up was committed');
    await lock.end();
    assert.deepEqual(await p2.c.waitClose(), { code: 4002, reason: 'moved' });
    assert.equal(holder(db, id), '');
    const o2 = await watch(b.port, id, token);
    assert.equal(o2.ev.you.role, 'organiser');
    assert.deepEqual(o2.ev.players.map((p) => p.name), ['Ama', 'Kofi']);
    assert.equal(o2.ev.state, 'running');
    assert.equal(holder(db, id), 'B');
    assert.equal(await metric(a, 'oware_events'), 0);
    // Its exports from either server: A reads it from the database.
    for (const tail of ['', '/trf', '/csv']) {
      const ra = await httpGet(a.port, `/api/events/${id}${tail}`);
      const rb = await httpGet(b.port, `/api/events/${id}${tail}`);
      assert.equal(ra.status, 200);
      assert.equal(ra.headers.get('content-type'), rb.headers.get('content-type'));
      assert.equal(ra.headers.get('content-disposition'), rb.headers.get('content-disposition'));
      assert.equal(await ra.text(), await rb.text());
    }
    assert.equal(holder(db, id), 'B');
    const none = await httpGet(a.port, '/api/events/00000000-0000-4000-8000-000000000000/trf');
    assert.equal(none.status, 404);
    assert.deepEqual(await none.json(), { error: 'no_event' });
    // An unknown event is no_event on either server.
    const x = await Client.open(a.port);
    x.send({ type: 'event_watch', event: '00000000-0000-4000-8000-000000000000' });
    await x.expectError('no_event');
    x.close();
    o2.c.close();
  } finally {
    await stopServer(a);
    await stopServer(b);
  }
});

test('a board played on the server not holding the event gives the event its result, and the next round is paired', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { org, id, token } = await createEvent(b.port);
    const ps = [];
    for (const name of ['Ama', 'Kofi', 'Esi', 'Yaw']) ps.push(await enter(b.port, id, name));
    org.send({ type: 'event_start', event: id, token });
    const r1 = await untilEvent(org, (e) => e.state === 'running');
    const boards = r1.schedule[0].boards;
    assert.equal(boards.length, 2);
    // Each board's black resigns in a room joined through A: A takes the
    // rooms (B holds no player of them), the games end there.
    for (const bd of boards) {
      const black = ps.find((p) => p.entry === bd.black);
      const { ev } = await watch(b.port, id, black.token);
      const g = ev.you.game;
      assert.equal(g.room, bd.room);
      // A join may first be relayed to B, which then gives the room up
      // (A wants it): the client follows 4002 as a page does.
      for (let tries = 0; ; tries++) {
        const c = await Client.open(a.port, { room: g.room });
        try {
          c.send({ type: 'join', room: g.room, token: g.token });
          assert.equal((await c.expect('welcome')).seat, 'north');
          const st = await c.expect('state');
          assert.equal(st.event, id);
          if (!st.game.over) {
            c.send({ type: 'resign' });
            await c.untilState((s) => s.game.over);
          }
          c.close();
          break;
        } catch (e) {
          if (tries > 3 || c.closed?.code !== 4002) throw e;
        }
      }
    }
    const rooms = boards.map((bd) => `'${bd.room}'`).join(',');
    assert.equal(storeQuery(db, `SELECT string_agg(DISTINCT i.node, ',') FROM rooms r JOIN incarnations i ON i.id = r.holder WHERE r.id IN (${rooms})`), 'A');
    // The event, still B's, has both results from A's rooms, and round 2.
    const r2 = await untilEvent(org, (e) => e.round === 2);
    assert.deepEqual(r2.schedule[0].boards.map((bd) => [bd.result, bd.by]),
      [['white', 'room'], ['white', 'room']]);
    assert.equal(holder(db, id), 'B');
    for (const p of ps) p.c.close();
    org.close();
  } finally {
    await stopServer(a);
    await stopServer(b);
  }
});

test('kill -9 of the event\'s server: the other takes it once its lease runs out, every change kept', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { org, id, token } = await createEvent(a.port);
    for (const name of ['Ama', 'Kofi', 'Esi']) (await enter(a.port, id, name)).c.close();
    org.send({ type: 'event_start', event: id, token });
    const before = await untilEvent(org, (e) => e.state === 'running');
    a.proc.kill('SIGKILL');
    await new Promise((r) => a.proc.once('exit', r));
    const t0 = Date.now();
    const o2 = await watch(b.port, id, token);
    assert.ok(Date.now() - t0 < (LEASE + 4) * 1000, 'taken within the lease and a few seconds');
    assert.equal(holder(db, id), 'B');
    assert.deepEqual(o2.ev.schedule, before.schedule);
    assert.deepEqual(o2.ev.players, before.players);
    assert.equal(o2.ev.version, before.version);
    o2.c.close();
  } finally {
    await stopServer(a).catch(() => {});
    await stopServer(b);
  }
});

test('SIGSTOP past the lease: the other server takes the event; the woken one drops it, writes nothing of it', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { org, id, token } = await createEvent(a.port);
    a.proc.kill('SIGSTOP');
    const o2 = await watch(b.port, id, token);
    assert.equal(holder(db, id), 'B');
    const p = await enter(b.port, id, 'Ama');
    assert.equal(p.ev.players.length, 1);
    // Woken, A finds its lease lost: its followers go (4002) and come
    // back through the routing, which finds the event where it is now.
    a.proc.kill('SIGCONT');
    assert.deepEqual(await org.waitClose(5000), { code: 4002, reason: 'moved' });
    await sleep(300);
    assert.equal(holder(db, id), 'B');
    assert.equal(Number(storeQuery(db, `SELECT count(*) FROM event_log WHERE event = '${id}'`)), 1);
    const m = await (await fetch(`http://127.0.0.1:${a.port}/metrics`)).text();
    assert.match(m, /^oware_events 0$/m);
    p.c.close();
    o2.c.close();
  } finally {
    a.proc.kill('SIGCONT');
    await stopServer(a);
    await stopServer(b);
  }
});

test('a batch fenced for a room keeps the event changes written in it and after', onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { org, id } = await createEvent(a.port);
    const { a: s, b: n, room } = await twoPlayers(a.port);
    await playMoves(s, n, ['d', 'C']);
    storeQuery(db, `UPDATE rooms SET holder = NULL WHERE id = '${room}'`);
    const cs = [];
    for (let i = 0; i < 6; i++) cs.push(await Client.open(a.port));
    // The entries and the fenced room's move in the same few batches.
    cs.forEach((c, i) => c.send({ type: 'event_join', event: id, name: `P${i}` }));
    s.send({ type: 'move', pit: 'f', ply: 2 });
    const entries = [];
    for (const c of cs) entries.push((await c.expect('event_welcome')).entry);
    assert.deepEqual(entries.sort(), [0, 1, 2, 3, 4, 5]);
    for (const c of [s, n]) assert.equal((await c.waitClose()).code, 1011);
    await untilEvent(org, (e) => e.players.length === 6);
    await sleep(300);
    assert.equal(storeQuery(db, `SELECT string_agg(seq::text, ',' ORDER BY seq) FROM event_log WHERE event = '${id}'`), '1,2,3,4,5,6');
    assert.ok(await metric(a, 'oware_batches_rewritten_total') >= 1);
    // Read back from the database by another server: the same six.
    for (const c of cs) c.close();
    org.close();
    await stopServer(a);
    const w = await watch(b.port, id);
    assert.deepEqual(w.ev.players.map((p) => p.name).sort(), ['P0', 'P1', 'P2', 'P3', 'P4', 'P5']);
    w.c.close();
  } finally {
    await stopServer(a).catch(() => {});
    await stopServer(b);
  }
});

test('a dead server\'s event that nobody follows again is taken when idle, and expires', onlyPg, async () => {
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--node-id', 'A', ...ARGS], { db });
  let b;
  try {
    const { id } = await createEvent(a.port);
    assert.equal((await stopServer(a, 'SIGKILL')).signal, 'SIGKILL');
    // B expires events 2 s after their last change (its sweep runs every 2 s).
    b = await startServer(['--node-id', 'B', ...ARGS, '--expire-events', '2'], { db });
    let n = '1';
    for (const until = Date.now() + (LEASE + 8) * 1000; n !== '0' && Date.now() < until;) {
      await sleep(250);
      n = storeQuery(db, `SELECT count(*) FROM events WHERE id='${id}'`);
    }
    assert.equal(n, '0', 'the orphan expired');
    assert.ok(await waitLine(b, / events_taken_idle events=1/));
    assert.ok(await waitLine(b, new RegExp(` event_expired event=${id} `)));
  } finally {
    await stopServer(a, 'SIGKILL');
    if (b) assert.deepEqual(await stopServer(b), { code: 0, signal: null });
  }
});

const roomHolder = (db, room) => storeQuery(db, `SELECT coalesce(i.node, '') FROM rooms r LEFT JOIN incarnations i ON i.id = r.holder WHERE r.id = '${room}'`);

// A started one-board event held by A (10+5 clock) whose board's room is
// held by B, both players seated there (white south, black north), white
// and black having moved once each: the organiser's client on A too.
async function boardOnB(db, a, b) {
  const e = await clubEvent(a.port, { rounds: 1, clock: { initial: 600, increment: 5 } });
  const [p0, p1] = await enterMany(a.port, e.id, 2);
  e.org.send({ type: 'event_start', event: e.id, token: e.token });
  await untilEvent(e.org, (v) => v.state === 'running' && !v.pairing);
  const g0 = (await asPlayer(a.port, e.id, p0.token)).you.game;
  const g1 = (await asPlayer(a.port, e.id, p1.token)).you.game;
  const [w, k] = g0.side === 'south' ? [g0, g1] : [g1, g0];
  // A made the room and holds it: a spectator through B makes A give it
  // up (the first joins may be relayed to A, then closed with 4002), and
  // B takes it.
  for (const until = Date.now() + 20000; roomHolder(db, w.room) !== 'B';) {
    assert.ok(Date.now() < until, 'B took the board room');
    const c = await Client.open(b.port, { room: w.room });
    c.send({ type: 'join', room: w.room });
    await c.next().catch(() => {});
    c.close();
    await sleep(100);
  }
  const white = await seat(b.port, w), black = await seat(b.port, k);
  white.send({ type: 'move', pit: 'c', ply: 0 });
  await black.untilState((s) => s.moves.length === 1);
  black.send({ type: 'move', pit: 'A', ply: 1 });
  const on = await white.untilState((s) => s.moves.length === 2);
  assert.equal(on.clock.running, 'south');
  assert.equal(roomHolder(db, w.room), 'B');
  assert.equal(holder(db, e.id), 'A');
  return { e, white, black, room: w.room, tokens: [w.token, k.token] };
}

// The game of a board's room as the organiser's result ended it.
function endedBy(st, winner) {
  assert.equal(st.game.over, true);
  assert.equal(st.game.reason, 'organiser');
  assert.equal(st.game.winner, winner);
  assert.equal(st.clock.running, null);
  assert.equal(st.moves.length, 2);
}

test("the organiser's result on the event's server ends the board's game on the server holding its room", onlyPg, async () => {
  const { db, a, b } = await pair();
  try {
    const { e, white, black, room } = await boardOnB(db, a, b);
    e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'draw' });
    const ev = await untilEvent(e.org, (v) => v.schedule[0].boards[0].result === 'draw');
    assert.equal(ev.schedule[0].boards[0].by, 'organiser');
    for (const c of [white, black]) endedBy(await c.untilState((s) => s.game.over), 'draw');
    assert.ok(await waitLine(b, new RegExp(` event_board_ended event=${e.id} round=1 board=1 room=${room}`)));
    // Ended on B, which still holds the room: a later move or resignation
    // there is refused, and the event keeps the organiser's draw.
    assert.equal(roomHolder(db, room), 'B');
    white.send({ type: 'move', pit: 'd', ply: 2 });
    await untilError(white, 'game_over');
    black.send({ type: 'resign' });
    await untilError(black, 'game_over');
    assert.equal(storeQuery(db, `SELECT length(moves) FROM rooms WHERE id = '${room}'`), '2');
    const after = await asPlayer(a.port, e.id, null);
    assert.deepEqual([after.schedule[0].boards[0].result, after.schedule[0].boards[0].by], ['draw', 'organiser']);
    for (const c of [white, black, e.org]) c.close();
  } finally {
    await stopServer(a);
    await stopServer(b);
  }
});

test("a board room whose holder died when the organiser's result came ends when taken again", onlyPg, async () => {
  const { db, a, b } = await pair();
  const bs = [b];
  try {
    // Twice: the room taken by the event's server once the dead holder's
    // lease ran out (it knows the result), then by the dead holder
    // restarted (at start-up, reading the event from the database).
    for (const by of ['A', 'B']) {
      if (by === 'B') bs.push(await startServer(['--node-id', 'B', ...ARGS], { db }));
      const { e, white, black, room, tokens } = await boardOnB(db, a, bs.at(-1));
      assert.equal((await stopServer(bs.at(-1), 'SIGKILL')).signal, 'SIGKILL');
      white.terminate();
      black.terminate();
      e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'black' });
      await untilEvent(e.org, (v) => v.schedule[0].boards[0].result === 'black');
      if (by === 'B') bs.push(await startServer(['--node-id', 'B', ...ARGS], { db }));
      const srv = by === 'A' ? a : bs.at(-1);
      const c = await Client.open(srv.port, { room });
      c.send({ type: 'join', room, token: tokens[1] });
      assert.equal((await c.expect('welcome')).seat, 'north');
      endedBy(await c.untilState((s) => s.game.over, (LEASE + 5) * 1000), 'north');
      assert.equal(roomHolder(db, room), by);
      assert.ok(await waitLine(srv, new RegExp(` event_board_ended event=${e.id} round=1 board=1 room=${room}`)));
      c.send({ type: 'resign' });
      await untilError(c, 'game_over');
      c.close();
      e.org.close();
    }
  } finally {
    await stopServer(a);
    for (const s of bs) await stopServer(s, 'SIGKILL');
  }
});

test("a result recorded while the room's server was cut from PostgreSQL ends its game once it is back", onlyPg, async () => {
  const db = join(tempDir(), 'shared');
  // A lease long enough that B keeps its rooms through the pause; B's
  // connection named, to be cut alone.
  const a = await startServer(['--node-id', 'A', '--lease-seconds', '10'], { db });
  const b = await startServer(['--node-id', 'B', '--lease-seconds', '10',
    '--store', `${pgStore(db)}&application_name=owared_b`], { db });
  try {
    const { e, white, black, room } = await boardOnB(db, a, b);
    // B paused and its connection to PostgreSQL cut: the result's
    // notification is sent while B has none.
    b.proc.kill('SIGSTOP');
    assert.equal(storeQuery(db, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'owared_b'"), '1');
    e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'black' });
    await untilEvent(e.org, (v) => v.schedule[0].boards[0].result === 'black');
    b.proc.kill('SIGCONT');
    for (const c of [white, black]) endedBy(await c.untilState((s) => s.game.over, 10000), 'north');
    assert.equal(roomHolder(db, room), 'B');
    assert.ok(await waitLine(b, new RegExp(` event_board_ended event=${e.id} round=1 board=1 room=${room}`)));
    for (const c of [white, black, e.org]) c.close();
  } finally {
    b.proc.kill('SIGCONT');
    await stopServer(a);
    await stopServer(b);
  }
});
