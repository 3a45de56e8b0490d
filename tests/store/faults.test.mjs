// faults.test.mjs: the store's failure paths, against the real server built
// with fault injection (build/fault/owared, `make test-store-faults`): what
// players, /healthz, /metrics and the log show when a write or a commit
// fails or the disk is full or read-only, and that nothing acknowledged is
// lost.
//
// Each test has a plan file of its own, named to the server by
// OW_FAULT_FILE (the format is in server/store/fault.h). One directive a line:
//   full            writes to the database, its WAL and journal fail with
//                   SQLITE_FULL; reads work
//   readonly        they fail as on a file system gone read-only
//                   (SQLITE_IOERR_WRITE); reads work
//   fail POINT [N]  the next N (default 1) fault_hit("POINT") in the server
//                   return 1: "write" (a room's write statement), "commit"
//                   (a batch's COMMIT)
// Empty or missing: no faults. A changed file replaces the whole plan; the
// server looks at it at most every 20 ms.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, stopServer, Client, twoPlayers, playMoves, httpGet, tempDir } from '../server/lib.mjs';

// A game's moves, one letter each.
const GAME = [...JSON.parse(readFileSync(new URL('../server/games.json', import.meta.url)))[0].moves];
const CHECK_MS = 20; // FAULT_CHECK_MS of server/store/fault.h
const RECOVERY_MS = 2500; // "recovers by itself within about 2 s"
const TEST = { timeout: 30000 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A plan file for one test. set(text) replaces it whole (each version
// differs, so the server cannot miss a change) and waits until the server
// looks at it again.
const planDir = tempDir();
let plans = 0;
function planFile() {
  const path = join(planDir, `plan-${++plans}`);
  let version = 0;
  writeFileSync(path, '');
  return {
    path,
    async set(text) {
      writeFileSync(path + '.new', `${text}\n# version ${++version}\n`);
      renameSync(path + '.new', path);
      await sleep(3 * CHECK_MS);
    },
  };
}

// Every server started, so that a failed test leaves none running.
const servers = new Set();
after(() => { for (const srv of servers) srv.proc.kill('SIGKILL'); });

async function start(plan, { db } = {}) {
  const srv = await startServer([], { db, env: { OW_FAULT_FILE: plan.path } });
  servers.add(srv);
  return srv;
}

// The log lines of one event (`<time> <level> <event> key=value…`).
const events = (srv, name) => srv.lines.filter((l) => l.split(' ')[2] === name);

async function health(port) {
  const r = await httpGet(port, '/healthz');
  return { status: r.status, body: JSON.parse(await r.text()) };
}

async function storeOkMetric(port) {
  const text = await (await httpGet(port, '/metrics')).text();
  const m = /^oware_store_ok (\d+)$/m.exec(text);
  assert.ok(m, 'no oware_store_ok line in /metrics');
  return Number(m[1]);
}

function assertHealthy(h) {
  assert.equal(h.status, 200, JSON.stringify(h.body));
  assert.equal(h.body.ok, true);
  assert.equal(h.body.store, 'ok');
}

function assertFailing(h) {
  assert.equal(h.status, 503, JSON.stringify(h.body));
  assert.equal(h.body.ok, false);
  assert.equal(h.body.store, 'failing');
}

// Polls /healthz until its status is want, for at most ms; the last answer.
async function healthUntil(port, want, ms) {
  const until = Date.now() + ms;
  let h = await health(port);
  while (h.status !== want && Date.now() < until) {
    await sleep(50);
    h = await health(port);
  }
  return h;
}

// The next thing c sees: { msg } or { closed: { code, reason } }.
async function nextOrClose(c, timeout = 5000) {
  const until = Date.now() + timeout;
  while (!c.queue.length && !c.closed) {
    const left = until - Date.now();
    if (left <= 0) throw new Error('neither a message nor a close');
    await c.sleepOrWake(left);
  }
  return c.queue.length ? { msg: c.queue.shift() } : { closed: c.closed };
}

// A create whose batch fails: the creator gets `internal` or a 1011 close,
// and never a welcome.
async function createRefused(port) {
  const c = await Client.open(port);
  c.send({ type: 'create', side: 'south' });
  const o = await nextOrClose(c);
  if (o.msg) {
    assert.deepEqual([o.msg.type, o.msg.code], ['error', 'internal'], JSON.stringify(o.msg));
    await c.quiet(200);
  } else {
    assert.deepEqual(o.closed, { code: 1011, reason: 'store failed' });
  }
  c.close();
}

// Takes a seat back with its token: { c, state }.
async function rejoin(port, room, token, seat) {
  const c = await Client.open(port, { room });
  c.send({ type: 'join', room, token });
  assert.equal((await c.expect('welcome')).seat, seat);
  return { c, state: await c.expect('state') };
}

// Stops srv (a clean exit), restarts it on the same database without
// faults, and returns the moves stored for the room (read by its south
// seat); the new server is stopped again.
async function movesAfterRestart(srv, plan, room, token) {
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  await plan.set('');
  const again = await start(plan, { db: srv.db });
  const { c, state } = await rejoin(again.port, room, token, 'south');
  c.close();
  assert.deepEqual(await stopServer(again), { code: 0, signal: null });
  return state.moves;
}

function integrityCheck(db) {
  return execFileSync('sqlite3', [db, 'PRAGMA integrity_check']).toString().trim();
}

test('a failed write of a move: internal to the mover, nothing to the others, the room unchanged', TEST, async () => {
  const plan = planFile();
  const srv = await start(plan);
  const p = await twoPlayers(srv.port);
  const before = await playMoves(p.a, p.b, GAME.slice(0, 2));

  await plan.set('fail write 1');
  p.a.send({ type: 'move', pit: GAME[2], ply: 2 });
  await p.a.expectError('internal');
  await p.b.quiet(300);
  await p.a.quiet(0);
  assert.equal(events(srv, 'fault_hit').length, 1);

  // A spectator sees the room as it was (its join changes no version).
  const s = await Client.open(srv.port, { room: p.room });
  s.send({ type: 'join', room: p.room });
  assert.equal((await s.expect('welcome')).seat, 'spectator');
  for (const c of [s, p.a, p.b]) {
    const st = await c.expect('state');
    assert.deepEqual(st.moves, before.moves);
    assert.deepEqual(st.game, before.game);
    assert.equal(st.version, before.version);
  }

  // The same move again goes through (once the store is healthy, should
  // the one failed write have made it look at the disk again).
  assertHealthy(await healthUntil(srv.port, 200, RECOVERY_MS));
  const after = await playMoves(p.a, p.b, [GAME[2]], { from: 2, watchers: [s] });
  assert.deepEqual(after.moves, GAME.slice(0, 3));
  assert.equal(after.version, before.version + 1);
  p.a.close(); p.b.close(); s.close();
  assert.deepEqual(await movesAfterRestart(srv, plan, p.room, p.ta), GAME.slice(0, 3));
});

test('a failed commit: nothing of the batch leaves, the room closes with 1011, and rejoining shows it as it was', TEST, async () => {
  const plan = planFile();
  const srv = await start(plan);
  const p = await twoPlayers(srv.port);
  const before = await playMoves(p.a, p.b, GAME.slice(0, 2));
  const s = await Client.open(srv.port, { room: p.room });
  s.send({ type: 'join', room: p.room });
  await s.expect('welcome'); await s.expect('state');
  await p.a.expect('state'); await p.b.expect('state');
  const other = await twoPlayers(srv.port); // a room with no write in the failed batch

  await plan.set('fail commit 1');
  p.a.send({ type: 'move', pit: GAME[2], ply: 2 });
  for (const c of [p.a, p.b, s])
    assert.deepEqual(await c.waitClose(), { code: 1011, reason: 'store failed' });
  // The mover may hear `internal`; nobody sees a state with the move.
  assert.deepEqual(p.b.queue, []);
  assert.deepEqual(s.queue, []);
  for (const m of p.a.queue)
    assert.deepEqual([m.type, m.code], ['error', 'internal'], JSON.stringify(m));
  assert.equal(events(srv, 'fault_hit').length, 1);
  await other.a.quiet(0);
  assert.equal(other.a.closed, null);

  // Back with their tokens (once the store is healthy again): the room as
  // before the failed batch.
  assertHealthy(await healthUntil(srv.port, 200, RECOVERY_MS));
  const a = await rejoin(srv.port, p.room, p.ta, 'south');
  assert.deepEqual(a.state.moves, before.moves);
  assert.deepEqual(a.state.game, before.game);
  assert.deepEqual(a.state.last, before.last);
  const b = await rejoin(srv.port, p.room, p.tb, 'north');
  assert.deepEqual(b.state.moves, before.moves);
  await a.c.expect('state'); // north is back
  const after = await playMoves(a.c, b.c, [GAME[2]], { from: 2 });
  assert.deepEqual(after.moves, GAME.slice(0, 3));
  // The room left alone plays on.
  await playMoves(other.a, other.b, GAME.slice(0, 1));
  a.c.close(); b.c.close(); other.a.close(); other.b.close();
  assert.deepEqual(await movesAfterRestart(srv, plan, p.room, p.ta), GAME.slice(0, 3));
});

test('a room created in a failed commit does not exist afterwards', TEST, async () => {
  const plan = planFile();
  const srv = await start(plan);
  assert.equal((await health(srv.port)).body.rooms, 0);

  await plan.set('fail commit 1');
  await createRefused(srv.port);
  assert.equal((await health(srv.port)).body.rooms, 0);
  // Its id is in the log only (no welcome went out): joining it finds nothing.
  const created = events(srv, 'room_created').map((l) => /room=(\S+)/.exec(l)[1]);
  for (const room of created) {
    const j = await Client.open(srv.port, { room });
    j.send({ type: 'join', room });
    await j.expectError('no_room');
    j.close();
  }

  // The next create is committed.
  assertHealthy(await healthUntil(srv.port, 200, RECOVERY_MS));
  const c = await Client.open(srv.port);
  c.send({ type: 'create', side: 'north' });
  assert.equal((await c.expect('welcome')).seat, 'north');
  await c.expect('state');
  assert.equal((await health(srv.port)).body.rooms, 1);
  c.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

for (const mode of ['full', 'readonly']) {
  test(`a ${mode} disk during play: internal, /healthz 503, one store_failing; recovery by itself, nothing lost`, TEST, async () => {
    const plan = planFile();
    const srv = await start(plan);
    assertHealthy(await health(srv.port));
    assert.equal(await storeOkMetric(srv.port), 1);
    const p = await twoPlayers(srv.port);
    const before = await playMoves(p.a, p.b, GAME.slice(0, 2));

    await plan.set(mode);
    // The first write after the disk failed: a room created now, which
    // only its creator knows of.
    await createRefused(srv.port);
    assertFailing(await health(srv.port));
    assert.equal(await storeOkMetric(srv.port), 0);
    // Moves are refused, again and again; the opponent hears nothing.
    for (let i = 0; i < 3; i++) {
      p.a.send({ type: 'move', pit: GAME[2], ply: 2 });
      await p.a.expectError('internal');
    }
    await p.b.quiet(200);
    assert.equal(events(srv, 'store_failing').length, 1);
    // Still serving.
    assert.equal((await httpGet(srv.port, '/')).status, 200);
    assert.equal(srv.proc.exitCode, null);

    // Space (or writing) comes back: the server notices by itself.
    await plan.set('');
    const h = await healthUntil(srv.port, 200, RECOVERY_MS);
    assertHealthy(h);
    assert.equal(await storeOkMetric(srv.port), 1);
    assert.equal(events(srv, 'store_recovered').length, 1);
    assert.equal(events(srv, 'store_failing').length, 1);
    const after = await playMoves(p.a, p.b, [GAME[2]], { from: 2 });
    assert.deepEqual(after.moves, [...before.moves, GAME[2]]);
    p.a.close(); p.b.close();

    assert.deepEqual(await movesAfterRestart(srv, plan, p.room, p.ta), GAME.slice(0, 3));
    assert.equal(integrityCheck(srv.db), 'ok');
  });
}

test('a full disk at start: the rooms load, /healthz says failing, create gets internal; clearing recovers', TEST, async () => {
  const plan = planFile();
  let srv = await start(plan);
  const p = await twoPlayers(srv.port);
  const before = await playMoves(p.a, p.b, GAME.slice(0, 2));
  p.a.close(); p.b.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });

  await plan.set('full');
  srv = await start(plan, { db: srv.db });
  assert.match(events(srv, 'listening')[0], / rooms=1$/);
  assertFailing(await healthUntil(srv.port, 503, RECOVERY_MS));
  assert.equal(await storeOkMetric(srv.port), 0);
  const c = await Client.open(srv.port);
  c.send({ type: 'create', side: 'south' });
  await c.expectError('internal');
  await c.quiet(200);
  c.close();
  assert.equal(events(srv, 'store_failing').length, 1);

  await plan.set('');
  assertHealthy(await healthUntil(srv.port, 200, RECOVERY_MS));
  assert.equal(await storeOkMetric(srv.port), 1);
  assert.equal(events(srv, 'store_recovered').length, 1);
  const a = await rejoin(srv.port, p.room, p.ta, 'south');
  assert.deepEqual(a.state.moves, before.moves);
  const b = await rejoin(srv.port, p.room, p.tb, 'north');
  await a.c.expect('state');
  const after = await playMoves(a.c, b.c, [GAME[2]], { from: 2 });
  assert.deepEqual(after.moves, GAME.slice(0, 3));
  a.c.close(); b.c.close();
  assert.deepEqual(await movesAfterRestart(srv, plan, p.room, p.ta), GAME.slice(0, 3));
  assert.equal(integrityCheck(srv.db), 'ok');
});

test('chat (issue 14): a failed write or commit of a line sends it to nobody; the history lacks it', TEST, async () => {
  const plan = planFile();
  const srv = await start(plan);
  const p = await twoPlayers(srv.port);
  p.a.send({ type: 'chat', text: 'kept' });
  assert.equal((await p.b.expect('chat')).id, 1);
  await p.a.expect('chat');

  await plan.set('fail write 1');
  p.a.send({ type: 'chat', text: 'lost in the write' });
  assert.match((await p.a.expectError('internal')).message, /not sent/);
  await p.b.quiet(200);
  await plan.set('');
  p.a.send({ type: 'chat', text: 'second' });
  assert.equal((await p.b.expect('chat')).id, 2);
  await p.a.expect('chat');

  await plan.set('fail commit 1');
  p.a.send({ type: 'chat', text: 'lost in the commit' });
  for (const c of [p.a, p.b])
    assert.deepEqual(await c.waitClose(), { code: 1011, reason: 'store failed' });
  assert.ok(!p.b.queue.some((m) => m.type === 'chat'), JSON.stringify(p.b.queue));
  assert.ok(!p.a.queue.some((m) => m.type === 'chat'), JSON.stringify(p.a.queue));
  await plan.set('');
  assertHealthy(await healthUntil(srv.port, 200, RECOVERY_MS));
  const b2 = await Client.open(srv.port, { room: p.room });
  b2.send({ type: 'join', room: p.room, token: p.tb });
  await b2.expect('welcome');
  await b2.expect('state');
  assert.deepEqual((await b2.expect('chat_history')).messages.map((m) => [m.id, m.text]),
    [[1, 'kept'], [2, 'second']]);
  b2.close();
  srv.proc.kill('SIGTERM');
  await srv.exited;
});
