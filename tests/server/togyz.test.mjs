// togyz.test.mjs: Togyz Kumalak rooms (create's kind "togyz"; PROTOCOL.md
// "Togyz Kumalak rooms") through the real server: public game records
// played to their recorded ends by both seats with a spectator watching,
// moves of the wrong form or illegal ones refused with nothing changed,
// resends, rematch, positions, POST /api/rooms, and a kill -9 restart.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer, stopServer, Client } from './lib.mjs';

// The records of tests/data/togyz-games.txt: {name, moves: [tokens], result}.
function records() {
  const text = readFileSync(new URL('../data/togyz-games.txt', import.meta.url), 'utf8');
  const out = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const [key, ...rest] = line.trim().split(/\s+/);
    if (key === 'game') cur = { name: rest[0], moves: [], result: null };
    else if (key === 'moves') cur.moves.push(...rest);
    else if (key === 'result') cur.result = rest;
    else if (key === 'end') out.push(cur);
  }
  return out;
}
const RECORDS = records();
const byName = (n) => RECORDS.find((r) => r.name === n);

// Records are played as fast as the loopback allows: above the default
// 20 messages a second of one connection.
const ARGS = ['--max-msgs-per-sec', '1000'];
let srv = await startServer(ARGS);
after(async () => { assert.deepEqual(await stopServer(srv), { code: 0, signal: null }); });

// A Togyz room with both seats taken and a spectator: {a (south), b (north), w, room, ta, tb, st}.
async function togyzRoom(extra = {}) {
  const a = await Client.open(srv.port);
  a.send({ type: 'create', side: 'south', kind: 'togyz', ...extra });
  const wa = await a.expect('welcome');
  assert.equal(wa.kind, 'togyz');
  await a.expect('state');
  const b = await Client.open(srv.port, { room: wa.room });
  b.send({ type: 'join', room: wa.room });
  const wb = await b.expect('welcome');
  assert.equal(wb.kind, 'togyz');
  assert.equal(wb.seat, 'north');
  await b.expect('state'); await a.expect('state');
  const w = await Client.open(srv.port, { room: wa.room });
  w.send({ type: 'join', room: wa.room });
  assert.equal((await w.expect('welcome')).seat, 'spectator');
  const st = await w.expect('state');
  await a.expect('state'); await b.expect('state');
  return { a, b, w, room: wa.room, ta: wa.token, tb: wb.token, st };
}

// Plays record tokens (first digit: the hole) from ply `from`; every client
// sees every move, and `last.notation` starts with the record's two digits.
async function playRecord(r, tokens, from = 0) {
  let st = null;
  for (let i = 0; i < tokens.length; i++) {
    const ply = from + i;
    const mover = ply % 2 === 0 ? r.a : r.b;
    mover.send({ type: 'move', pit: tokens[i][0], ply });
    for (const c of [r.a, r.b, r.w]) {
      st = await c.expect('state');
      assert.equal(st.moves.length, ply + 1, 'moves after ply ' + ply);
    }
    assert.equal(st.last.pit, tokens[i][0]);
    if (tokens[i].length >= 2) assert.equal(st.last.notation.slice(0, 2), tokens[i].slice(0, 2), 'ply ' + ply);
  }
  return st;
}

test('a new Togyz room: kind, the start of 162 seeds, the game in the shape of oware play --game togyz', async () => {
  const r = await togyzRoom();
  const st = r.st;
  assert.equal(st.kind, 'togyz');
  assert.deepEqual(st.game, {
    pits: Array(18).fill(9), captured: { south: 0, north: 0 }, tuzdyk: { south: null, north: null },
    turn: 'south', legal: [1, 2, 3, 4, 5, 6, 7, 8, 9], over: false, winner: null, reason: null,
  });
  assert.deepEqual(st.moves, []);
  assert.equal(st.last, null);
  assert.equal(st.start, null);
  // South's hole 7: 9 seeds, the first back into it, the last on North's
  // hole 6, which makes 10: captured.
  r.a.send({ type: 'move', pit: '7', ply: 0 });
  const s1 = await r.b.expect('state');
  await r.a.expect('state'); await r.w.expect('state');
  assert.deepEqual(s1.moves, ['7']);
  assert.deepEqual(s1.last, { pit: '7', sown: [6, 7, 8, 9, 10, 11, 12, 13, 14], captured: [14], seeds: 10,
    tuzdyk: false, to_tuzdyk: { south: 0, north: 0 }, notation: '76' });
  assert.deepEqual(s1.game.pits, [9, 9, 9, 9, 9, 9, 1, 10, 10, 10, 10, 10, 10, 10, 0, 9, 9, 9]);
  assert.deepEqual(s1.game.captured, { south: 10, north: 0 });
  assert.equal(s1.game.turn, 'north');
  assert.deepEqual(s1.game.legal, [1, 2, 3, 4, 5, 7, 8, 9]);
  assert.equal(s1.version, r.st.version + 1);
  for (const c of [r.a, r.b, r.w]) c.close();
});

test('bad moves in a Togyz room are refused and change nothing', async () => {
  const r = await togyzRoom();
  const v = r.st.version;
  const bad = [
    [r.a, { pit: 'a', ply: 0 }, 'bad_message', /hole number "1" to "9"/],
    [r.a, { pit: '0', ply: 0 }, 'bad_message', /^pit: /],
    [r.a, { pit: '10', ply: 0 }, 'bad_message', /^pit: /],
    [r.a, { pit: 7, ply: 0 }, 'bad_message', /^pit: /],
    [r.a, { ply: 0 }, 'bad_message', /^pit: /],
    [r.b, { pit: '7', ply: 0 }, 'not_your_turn', /south's turn/],
    [r.w, { pit: '7', ply: 0 }, 'not_a_player', /./],
  ];
  for (const [c, m, code, why] of bad) {
    c.send({ type: 'move', ...m });
    const e = await c.expectError(code);
    assert.match(e.message, why);
  }
  // Nothing of that changed the room; two good moves do.
  await playRecord(r, ['9', '9']);
  // A resend of ply 1 by North gets the state alone; by South it is stale.
  r.b.send({ type: 'move', pit: '9', ply: 1 });
  const again = await r.b.expect('state');
  assert.equal(again.moves.length, 2);
  r.a.send({ type: 'move', pit: '9', ply: 1 });
  await r.a.expectError('stale_ply');
  const cur = await r.a.expect('state');
  assert.equal(cur.version, v + 2);
  // An empty hole: from a position where South's hole 1 is empty.
  await r.a.quiet(); await r.b.quiet(); await r.w.quiet();
  for (const c of [r.a, r.b, r.w]) c.close();
  const p = await togyzRoom({ position: {
    pits: [0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 9], captured: { south: 9, north: 9 },
    tuzdyk: { south: 8, north: null }, turn: 'south' } });
  assert.deepEqual(p.st.game.tuzdyk, { south: 8, north: null });
  assert.deepEqual(p.st.game.legal, [2, 3, 4, 5, 6, 7, 8, 9]);
  p.a.send({ type: 'move', pit: '1', ply: 0 });
  assert.match((await p.a.expectError('illegal_move')).message, /^pit 1: /);
  // North's hole 8 is South's tuzdyk: seeds sown there go to South.
  await playRecord(p, ['9']);
  p.b.send({ type: 'move', pit: '8', ply: 1 });
  assert.match((await p.b.expectError('illegal_move')).message, /^pit 8: /);
  const s = await playRecord(p, ['7'], 1);
  assert.equal(s.last.to_tuzdyk.south, 1);
  await p.a.quiet(); await p.b.quiet();
  for (const c of [p.a, p.b, p.w]) c.close();
});

test('a digit is no Oware move, and an unknown kind makes no room', async () => {
  const a = await Client.open(srv.port);
  a.send({ type: 'create', side: 'south', kind: 'chess' });
  assert.match((await a.expectError('bad_message')).message, /^kind: /);
  a.send({ type: 'create', side: 'south', kind: 'togyz', position: { pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    captured: { south: 0, north: 0 }, turn: 'south' } });
  assert.match((await a.expectError('bad_message')).message, /^position\.pits: must be an array of 18/);
  a.send({ type: 'create', side: 'south', kind: 'togyz', position: { pits: Array(18).fill(9),
    captured: { south: 0, north: 0 }, tuzdyk: { south: 9, north: null }, turn: 'south' } });
  assert.match((await a.expectError('bad_message')).message, /^position\.tuzdyk\.south: /);
  a.send({ type: 'create', side: 'south' });
  assert.equal((await a.expect('welcome')).kind, 'oware');
  await a.expect('state');
  const b = await Client.open(srv.port);
  b.send({ type: 'join', room: (await (async () => { a.send({ type: 'name', name: 'x' }); return (await a.expect('state')).room; })()) });
  await b.expect('welcome'); await b.expect('state'); await a.expect('state');
  a.send({ type: 'move', pit: '3', ply: 0 });
  assert.match((await a.expectError('bad_message')).message, /pit letter a-f or A-F/);
  a.send({ type: 'move', pit: 'c', ply: 0 });
  assert.deepEqual((await a.expect('state')).moves, ['c']);
  a.close(); b.close();
});

for (const name of ['playstrategy-FgWSk5be', 'mancalagames-toguz-kumalak']) {
  test(`the public record ${name} to its end through the server, then a rematch`, async () => {
    const rec = byName(name);
    const [winner, reason, s, n] = rec.result;
    const r = await togyzRoom();
    const st = await playRecord(r, rec.moves);
    assert.equal(st.game.over, true);
    assert.equal(st.game.winner, winner);
    assert.equal(st.game.reason, reason);
    assert.deepEqual(st.game.captured, { south: Number(s), north: Number(n) });
    assert.deepEqual(st.game.legal, []);
    if (reason === 'no_moves') assert.deepEqual(st.game.pits, Array(18).fill(0));
    r.b.send({ type: 'move', pit: '1', ply: rec.moves.length });
    await r.b.expectError('game_over');
    // The summary of POST /api/rooms names the kind and the result.
    const res = await fetch(`http://127.0.0.1:${srv.port}/api/rooms`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rooms: [{ room: r.room, token: r.ta }] }) });
    const sum = (await res.json()).rooms[0];
    assert.equal(sum.kind, 'togyz');
    assert.equal(sum.seat, 'south');
    assert.equal(sum.moves, rec.moves.length);
    assert.equal(sum.winner, winner);
    assert.equal(sum.reason, reason);
    // A rematch: a new Togyz game, sides swapped.
    r.a.send({ type: 'rematch', action: 'offer' });
    for (const c of [r.a, r.b, r.w]) await c.expect('state');
    r.b.send({ type: 'rematch', action: 'accept' });
    assert.equal((await r.a.expect('welcome')).seat, 'north');
    const ns = await r.a.expect('state');
    assert.equal(ns.kind, 'togyz');
    assert.equal(ns.game_number, 2);
    assert.deepEqual(ns.game.pits, Array(18).fill(9));
    assert.deepEqual(ns.moves, []);
    for (const c of [r.a, r.b, r.w]) c.close();
  });
}

test('resign, draw and abort work in a Togyz room as in any other', async () => {
  const r = await togyzRoom();
  r.a.send({ type: 'abort' });
  let st = await r.b.expect('state');
  assert.equal(st.game.reason, 'aborted');
  assert.equal(st.aborted_by, 'south');
  assert.deepEqual(st.game.legal, []);
  const q = await togyzRoom();
  q.b.send({ type: 'draw', action: 'offer' });
  await q.a.expect('state');
  q.a.send({ type: 'draw', action: 'accept' });
  st = await q.b.untilState((s) => s.game.over);
  assert.equal(st.game.winner, 'draw');
  assert.equal(st.game.reason, 'agreement');
  const t = await togyzRoom();
  t.a.send({ type: 'resign' });
  st = await t.b.untilState((s) => s.game.over);
  assert.equal(st.game.winner, 'north');
  assert.equal(st.game.reason, 'resign');
  for (const x of [r, q, t]) for (const c of [x.a, x.b, x.w]) c.close();
});

test('clocks, names and chat in a Togyz room as in any other', async () => {
  const r = await togyzRoom({ clock: { initial: 60, increment: 2 }, name: 'Ana' });
  assert.equal(r.st.clock.kind, 'realtime');
  assert.equal(r.st.clock.running, null);
  assert.equal(r.st.names.south, 'Ana');
  // The clock runs once both have moved; a move then adds the increment.
  let st = await playRecord(r, ['7', '9']);
  assert.equal(st.clock.running, 'south');
  assert.equal(st.clock.north, 60000);
  st = await playRecord(r, ['1'], 2);
  assert.equal(st.clock.running, 'north');
  assert.ok(st.clock.south > 59000 && st.clock.south <= 62000, JSON.stringify(st.clock));
  r.b.send({ type: 'name', name: 'Bo' });
  for (const c of [r.a, r.b, r.w]) assert.equal((await c.expect('state')).names.north, 'Bo');
  r.a.send({ type: 'chat', text: 'sälem!' });
  for (const c of [r.a, r.b, r.w]) {
    const m = await c.expect('chat');
    assert.equal(m.text, 'sälem!');
    assert.equal(m.from, 'south');
  }
  r.w.send({ type: 'chat', text: 'hi' });
  await r.w.expectError('not_a_player');
  r.a.send({ type: 'claim' });
  await r.a.expectError('cannot_claim');
  for (const c of [r.a, r.b, r.w]) c.close();
});

test('kill -9, restart: a Togyz room from a position comes back with its moves, tuzdyks and seats', async () => {
  const position = { pits: [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 9, 9, 9, 9, 9, 9, 9], captured: { south: 9, north: 0 },
    tuzdyk: { south: 2, north: null }, turn: 'north' };
  const r = await togyzRoom({ position, name: 'Ana' });
  assert.deepEqual(r.st.start, position);
  // From this position North moves first: a is South, so ply 0 is b's.
  // Each side plays its highest legal hole.
  const swapped = { a: r.b, b: r.a, w: r.w };
  let before = r.st;
  for (let ply = 0; ply < 7; ply++)
    before = await playRecord(swapped, [String(before.game.legal.at(-1))], ply);
  // North's hole 2 is South's tuzdyk: never among North's moves.
  assert.ok(!before.game.legal.includes(2) || before.game.turn === 'south');
  for (const c of [r.a, r.b, r.w]) c.close();
  assert.equal((await stopServer(srv, 'SIGKILL')).signal, 'SIGKILL');
  srv = await startServer(ARGS, { db: srv.db });
  const a = await Client.open(srv.port, { room: r.room });
  a.send({ type: 'join', room: r.room, token: r.ta });
  const w = await a.expect('welcome');
  assert.equal(w.seat, 'south');
  assert.equal(w.kind, 'togyz');
  const st = await a.expect('state');
  assert.equal(st.kind, 'togyz');
  assert.deepEqual(st.start, position);
  assert.deepEqual(st.moves, before.moves);
  assert.deepEqual(st.game, before.game);
  assert.deepEqual(st.last, before.last);
  assert.equal(st.names.south, 'Ana');
  // Play goes on.
  const b = await Client.open(srv.port, { room: r.room });
  b.send({ type: 'join', room: r.room, token: r.tb });
  await b.expect('welcome'); await b.expect('state'); await a.expect('state');
  const mover = st.game.turn === 'south' ? a : b;
  mover.send({ type: 'move', pit: String(st.game.legal[0]), ply: st.moves.length });
  const next = await a.untilState((s) => s.moves.length === st.moves.length + 1);
  assert.equal(next.kind, 'togyz');
  a.close(); b.close();
  // A row of a kind this server does not host is skipped at start, logged.
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  execFileSync('sqlite3', [srv.db, `UPDATE rooms SET kind='chess' WHERE id='${r.room}'`]);
  srv = await startServer(ARGS, { db: srv.db });
  assert.ok(srv.lines.some((l) => l.includes(`restore_failed room=${r.room} error="unknown kind"`)), srv.lines.join('\n'));
  const c = await Client.open(srv.port, { room: r.room });
  c.send({ type: 'join', room: r.room, token: r.ta });
  await c.expectError('no_room');
  c.close();
});
