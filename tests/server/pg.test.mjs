// pg.test.mjs: what is the PostgreSQL store's own (run by `make
// test-server-pg`, skipped on SQLite): /healthz and /metrics name it, a
// database of a newer schema is refused, and while PostgreSQL is stopped
// moves get `internal` errors (never a lie), the server reconnects by
// itself and play resumes with nothing lost. Stops the shared PostgreSQL:
// run last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { startServer, stopServer, twoPlayers, playMoves, httpGet, storeQuery, pgStore, PG, OWARED } from './lib.mjs';

const onlyPg = PG ? {} : { skip: 'PostgreSQL only (make test-server-pg)' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pgtmp = (...args) => execFileSync('sh', ['tests/cluster/pgtmp.sh', ...args],
  { cwd: new URL('../..', import.meta.url).pathname });
const health = async (port) => (await httpGet(port, '/healthz')).json();

test('/healthz and /metrics name the store and say it answers', onlyPg, async () => {
  const srv = await startServer();
  try {
    const h = await health(srv.port);
    assert.equal(h.store_kind, 'postgresql');
    assert.equal(h.store_reachable, true);
    assert.equal(h.store, 'ok');
    const m = await (await httpGet(srv.port, '/metrics')).text();
    assert.match(m, /^oware_store_info\{store="postgresql"\} 1$/m);
    assert.match(m, /^oware_store_reachable 1$/m);
    assert.ok(srv.lines.some((l) => / listening .* db=postgresql /.test(l)), 'the URI is not logged');
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('the default node id: host and port, or host:0:pid for --port 0', onlyPg, async () => {
  const srv = await startServer([], { node: null });
  try {
    const nodes = storeQuery(srv.db, 'SELECT node FROM incarnations ORDER BY id').split('\n');
    assert.deepEqual(nodes, [`${hostname()}:0:${srv.proc.pid}`]);
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('a database made by a newer server is refused, untouched', onlyPg, () => {
  const db = '/nonexistent/newer-' + process.pid;
  storeQuery(db, 'CREATE TABLE owared_schema (version int NOT NULL); INSERT INTO owared_schema VALUES (9)');
  const r = spawnSync(OWARED, ['--port', '0', '--listen', '127.0.0.1', '--store', pgStore(db)],
    { encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /store_open_failed .*newer owared \(schema 9, this one knows 8\)/);
  assert.equal(storeQuery(db, 'SELECT version FROM owared_schema'), '9');
  assert.equal(storeQuery(db, "SELECT count(*) FROM pg_tables WHERE tablename='rooms' AND schemaname=current_schema()"), '0');
});

// The server prepares its statements on a new, empty table; a write that
// the planner then answered through the holder index scanned every room of
// the server for each move (0.2 ms a move at 2,000 rooms). Each write names
// its room: it must go by the key.
test('writes find their room by its key, not by scanning the server\'s rooms', onlyPg, async () => {
  const srv = await startServer();
  const scans = () => Object.fromEntries(storeQuery(srv.db,
    "SELECT indexrelname, idx_scan FROM pg_stat_user_indexes WHERE schemaname = current_schema()" +
    " AND relname = 'rooms'").split('\n').map((l) => l.split('|')).map(([k, v]) => [k, Number(v)]));
  try {
    const rooms = [];
    for (let i = 0; i < 12; i++) rooms.push(await twoPlayers(srv.port));
    for (const { a, b } of rooms) await playMoves(a, b, ['d', 'C', 'f']);
    for (const { a, b } of rooms) { a.close(); b.close(); }
    // 36 moves, each a write of its room (the statistics arrive within a second or so).
    let s = scans();
    for (const until = Date.now() + 5000; (s.rooms_pkey ?? 0) < 36 && Date.now() < until; s = scans()) await sleep(200);
    assert.ok((s.rooms_holder ?? 0) < 6, `the holder index served ${s.rooms_holder} lookups`);
    assert.ok(s.rooms_pkey >= 36, `the key served ${s.rooms_pkey} lookups`);
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('PostgreSQL stopped: moves get internal errors, the server reconnects, nothing acknowledged is lost', onlyPg, async () => {
  const srv = await startServer();
  const dir = process.env.OW_TEST_PGDIR, port = process.env.OW_TEST_PGPORT;
  let started = true;
  try {
    const { a, b, room } = await twoPlayers(srv.port);
    await playMoves(a, b, ['d', 'C']);
    pgtmp('stop', dir, 'fast');
    started = false;
    // The server notices the lost connection (its socket closes).
    for (const until = Date.now() + 5000; (await health(srv.port)).store_reachable && Date.now() < until;) await sleep(50);
    const h = await health(srv.port);
    assert.equal(h.store_reachable, false);
    a.send({ type: 'move', pit: 'f', ply: 2 });
    const e = await a.expectError('internal');
    assert.match(e.message, /nothing changed/);
    await b.quiet(200);
    pgtmp('start', dir, port);
    started = true;
    for (const until = Date.now() + 10000; !(await health(srv.port)).store_reachable && Date.now() < until;) await sleep(100);
    assert.equal((await health(srv.port)).store_reachable, true);
    a.send({ type: 'move', pit: 'f', ply: 2 });
    const st = await a.expect('state');
    assert.equal(st.moves.length, 3);
    assert.equal((await b.expect('state')).moves.length, 3);
    assert.equal(storeQuery(srv.db, `SELECT length(moves) FROM rooms WHERE id='${room}'`), '3');
    // PostgreSQL's own error text (libpq's spans lines) stays one field
    // of one log line.
    const lost = srv.lines.find((l) => / store_disconnected /.test(l));
    assert.match(lost, /error=".*\\x0a.*"$/);
    for (const l of srv.lines) assert.match(l, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ [a-z]+ [a-z_]+/);
    a.close();
    b.close();
  } finally {
    if (!started) pgtmp('start', dir, port);
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});
