// restart.test.mjs: what survives: kill -9 and a restart keep rooms, moves
// and seats; SIGTERM closes clients with "going away" and exits 0; rooms
// expire and leave the store; an absent player on turn can be claimed against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { startServer, stopServer, Client, twoPlayers, playMoves, httpGet, storeQuery, sqliteOnly, PG } from './lib.mjs';

const games = JSON.parse(readFileSync(new URL('games.json', import.meta.url)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('kill -9, restart: rooms, moves and seats are all there', async () => {
  let srv = await startServer();
  const db = srv.db;
  const moves = [...games[0].moves.slice(0, 5)];
  const p = await twoPlayers(srv.port);
  const before = await playMoves(p.a, p.b, moves);
  const q = await twoPlayers(srv.port);
  q.b.send({ type: 'resign' });
  const ended = await q.a.expect('state');
  assert.equal(ended.game.reason, 'resign');

  assert.equal((await stopServer(srv, 'SIGKILL')).signal, 'SIGKILL');
  srv = await startServer([], { db });
  assert.match(srv.lines.find((l) => / listening /.test(l)), / rooms=2$/);

  const a = await Client.open(srv.port, { room: p.room });
  a.send({ type: 'join', room: p.room, token: p.ta });
  assert.equal((await a.expect('welcome')).seat, 'south');
  const s = await a.expect('state');
  assert.deepEqual(s.moves, moves);
  assert.deepEqual(s.game, before.game);
  assert.deepEqual(s.last, before.last);
  assert.ok(s.version > before.version);
  assert.equal(s.seats.north.taken, true);
  assert.equal(s.seats.north.connected, false);
  const b = await Client.open(srv.port, { room: p.room });
  b.send({ type: 'join', room: p.room, token: p.tb });
  assert.equal((await b.expect('welcome')).seat, 'north');
  await b.expect('state'); await a.expect('state');
  // Play carries on from ply 5 (North to move).
  const next = await playMoves(a, b, [games[0].moves[5]], { from: 5 });
  assert.equal(next.moves.length, 6);

  const c = await Client.open(srv.port, { room: q.room });
  c.send({ type: 'join', room: q.room, token: q.tb });
  await c.expect('welcome');
  const s2 = await c.expect('state');
  assert.equal(s2.game.over, true);
  assert.equal(s2.game.reason, 'resign');
  assert.equal(s2.game.winner, 'south');
  a.close(); b.close(); c.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

test('SIGTERM: clients get "going away" (1001), exit status 0', async () => {
  const srv = await startServer();
  const { a, b } = await twoPlayers(srv.port);
  srv.proc.kill('SIGTERM');
  assert.equal((await a.waitClose()).code, 1001);
  assert.equal((await b.waitClose()).code, 1001);
  assert.deepEqual(await srv.exited, { code: 0, signal: null });
});

test('expiry: idle rooms without connections go, and leave the store', async () => {
  let srv = await startServer(['--expire-finished', '1', '--expire-unfinished', '3',
    '--expire-unjoined', '1']);
  const db = srv.db;
  const rooms = async () => (await (await httpGet(srv.port, '/healthz')).json()).rooms;
  try {
    const lone = await Client.open(srv.port);
    lone.send({ type: 'create', side: 'south' });
    const wl = await lone.expect('welcome');
    lone.close();
    const fin = await twoPlayers(srv.port);
    fin.a.send({ type: 'resign' });
    await fin.a.expect('state'); await fin.b.expect('state');
    const open = await twoPlayers(srv.port);
    // A game started (4 moves from each side): fewer expire as unjoined.
    await playMoves(open.a, open.b, ['a', 'A', 'b', 'B', 'c', 'C', 'd', 'D']);
    fin.a.close(); fin.b.close(); open.a.close(); open.b.close();
    const idle = Date.now();
    // The finished and the unjoined room go after a second; the
    // unfinished one stays until its three seconds (unless this machine
    // is so slow that they have passed too).
    let n;
    for (const until = Date.now() + 15000; (n = await rooms()) > 1 && Date.now() < until;) await sleep(100);
    if (Date.now() - idle < 2900) assert.equal(n, 1, 'the finished room expired, the unfinished one not yet');
    else assert.ok(n <= 1, `rooms left: ${n}`);
    const c = await Client.open(srv.port);
    c.send({ type: 'join', room: fin.room, token: fin.ta });
    await c.expectError('no_room');
    c.send({ type: 'join', room: wl.room });
    await c.expectError('no_room');
    for (const until = Date.now() + 15000; (n = await rooms()) > 0 && Date.now() < until;) await sleep(100);
    assert.equal(n, 0);
    c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
  const sql = (q) => storeQuery(db, q);
  assert.equal(sql('SELECT count(*) FROM rooms'), '0');
  if (!PG) assert.equal(sql('PRAGMA freelist_count'), '0', 'free pages given back');
  srv = await startServer([], { db });
  assert.match(srv.lines.find((l) => / listening /.test(l)), / rooms=0$/);
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

test('abandonment: claimable only after the absent player sat out their own turn', async () => {
  const srv = await startServer(['--abandon-seconds', '1']);
  const { a, b } = await twoPlayers(srv.port);
  await playMoves(a, b, ['c']);
  // South leaves while North is on turn: nothing to claim.
  a.close();
  const s0 = await b.expect('state');
  assert.equal(s0.seats.south.connected, false);
  assert.equal(s0.claim_in, null);
  await sleep(1200);
  b.send({ type: 'claim' });
  await b.expectError('cannot_claim');
  // Now North moves: South is absent on turn and the clock runs.
  b.send({ type: 'move', pit: 'A', ply: 1 });
  const s1 = await b.expect('state');
  assert.equal(s1.claim_in, 1);
  assert.equal(s1.seats.south.claimable, false);
  b.send({ type: 'claim' });
  await b.expectError('cannot_claim');
  const s2 = await b.untilState((st) => st.seats.south.claimable);
  assert.equal(s2.claim_in, null);
  b.send({ type: 'claim' });
  const end = await b.expect('state');
  assert.equal(end.game.over, true);
  assert.equal(end.game.reason, 'abandoned');
  assert.equal(end.game.winner, 'north');
  b.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

test('after a restart the absence clock starts again, and the claim still works', async () => {
  let srv = await startServer(['--abandon-seconds', '1']);
  const db = srv.db;
  const { a, b, room, ta } = await twoPlayers(srv.port);
  await playMoves(a, b, ['c']);
  assert.equal((await stopServer(srv, 'SIGKILL')).signal, 'SIGKILL');
  srv = await startServer(['--abandon-seconds', '1'], { db });
  const a2 = await Client.open(srv.port, { room });
  a2.send({ type: 'join', room, token: ta });
  await a2.expect('welcome');
  const s = await a2.expect('state');
  assert.equal(s.seats.north.connected, false);
  assert.ok(s.claim_in === 1 || s.seats.north.claimable, 'North, on turn, is counted absent');
  const s2 = s.seats.north.claimable ? s : await a2.untilState((st) => st.seats.north.claimable);
  assert.equal(s2.claim_in, null);
  a2.send({ type: 'claim' });
  const end = await a2.untilState((st) => st.game.over);
  assert.equal(end.game.reason, 'abandoned');
  assert.equal(end.game.winner, 'south');
  a2.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

test('a store of the first schema (moves in a table of their own) is carried over', sqliteOnly, async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'owared-v0-')), 'old.db');
  const tok = 'v0-south-token';
  const hash = createHash('sha256').update(tok).digest('hex');
  const moves = [...games[0].moves.slice(0, 6)];
  const pits = moves.map((m) => 'abcdefABCDEF'.indexOf(m));
  const now = Math.floor(Date.now() / 1000);
  execFileSync('sqlite3', [db, `
    PRAGMA journal_mode=WAL;
    CREATE TABLE rooms (id TEXT PRIMARY KEY, kind TEXT NOT NULL, created INTEGER NOT NULL,
      updated INTEGER NOT NULL, game_number INTEGER NOT NULL, version INTEGER NOT NULL,
      tok_south BLOB, tok_north BLOB, reason INTEGER NOT NULL, winner INTEGER NOT NULL,
      draw_offer INTEGER NOT NULL, rematch_offer INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE moves (room TEXT NOT NULL, ply INTEGER NOT NULL, pit INTEGER NOT NULL,
      PRIMARY KEY (room, ply)) WITHOUT ROWID;
    INSERT INTO rooms VALUES ('old-room', 'oware', ${now}, ${now}, 1, 40, X'${hash}', NULL, 0, -1, -1, -1);
    INSERT INTO rooms VALUES ('empty-room', 'oware', ${now}, ${now}, 1, 2, NULL, NULL, 0, -1, -1, -1);
    ${pits.map((p, i) => `INSERT INTO moves VALUES ('old-room', ${i}, ${p});`).join('\n')}
    INSERT INTO moves VALUES ('gone-room', 0, 2);`]);
  const srv = await startServer([], { db });
  assert.match(srv.lines.find((l) => / listening /.test(l)), / rooms=2$/);
  assert.ok(srv.lines.some((l) => /store_migrated from=0 to=\d+/.test(l)), srv.lines.join('\n'));
  const a = await Client.open(srv.port, { room: 'old-room' });
  a.send({ type: 'join', room: 'old-room', token: tok });
  assert.equal((await a.expect('welcome')).seat, 'south');
  const s = await a.expect('state');
  assert.deepEqual(s.moves, moves);
  assert.ok(s.version > 40);
  const e = await Client.open(srv.port, { room: 'empty-room' });
  e.send({ type: 'join', room: 'empty-room' });
  await e.expect('welcome');
  assert.deepEqual((await e.expect('state')).moves, []);
  a.close();
  e.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  const sql = (q) => execFileSync('sqlite3', [db, q]).toString().trim();
  assert.equal(sql("SELECT count(*) FROM sqlite_master WHERE name='moves'"), '0');
  assert.equal(sql('PRAGMA user_version'), '8');
  assert.equal(sql("SELECT hex(moves) FROM rooms WHERE id='old-room'"),
    pits.map((p) => p.toString(16).padStart(2, '0')).join('').toUpperCase());
});

test('a store from a newer server is refused, untouched', sqliteOnly, () => {
  const db = join(mkdtempSync(join(tmpdir(), 'owared-new-')), 'new.db');
  execFileSync('sqlite3', [db, 'CREATE TABLE rooms (id TEXT PRIMARY KEY, future BLOB); PRAGMA user_version=9;']);
  const r = spawnSync(process.env.OWARED, ['--port', '0', '--listen', '127.0.0.1', '--db', db],
    { timeout: 10000, encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /newer owared \(schema 9; this one knows 8\)/);
  assert.equal(execFileSync('sqlite3', [db, 'PRAGMA user_version']).toString().trim(), '9');
});
