// names.test.mjs: players' and spectators' names through the protocol:
// given in create/join and changed with `name`, checked (bad ones are
// bad_message and change nothing), shown in every state, stored with the
// seat (a rematch swaps them with the players; kill -9 keeps them), and a
// store of schema 1 migrated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { withServer, startServer, stopServer, Client, twoPlayers, sqliteOnly } from './lib.mjs';

// Names the server must refuse, and why.
const BAD_NAMES = [
  ['', 'empty'], ['   ', 'only spaces'], ['\u00a0\u3000', 'only Unicode spaces'],
  ['x'.repeat(25), '25 characters'], ['\u{1F600}'.repeat(25), '25 emoji (code points)'],
  ['a\u0007b', 'a control'], ['a\nb', 'a newline inside'], ['a\tb', 'a tab inside'],
  ['a\u200bb', 'zero-width space (Cf)'], ['\u202eevil', 'right-to-left override (Cf)'],
  ['a\u2028b', 'line separator'], ['a\u2029b', 'paragraph separator'],
  ['\ue000', 'private use'], ['a\ufeff', 'byte order mark'],
  ['a\u0085b', 'next line (C1)'], ['\ufffe', 'noncharacter'],
];

test('create and join carry names; the state shows them to players and spectators', async () => {
  await withServer([], async (srv) => {
    const a = await Client.open(srv.port);
    a.send({ type: 'create', side: 'south', name: '  Ana María  ' });
    await a.expect('welcome');
    let s = await a.expect('state');
    assert.deepEqual(s.names, { south: 'Ana María', north: null });
    assert.deepEqual(s.spectator_names, []);
    const b = await Client.open(srv.port, { room: s.room });
    b.send({ type: 'join', room: s.room, name: '\u{1F600}'.repeat(24) });
    await b.expect('welcome');
    s = await b.expect('state');
    assert.deepEqual(s.names, { south: 'Ana María', north: '\u{1F600}'.repeat(24) });
    assert.deepEqual((await a.expect('state')).names, s.names);
    const w = await Client.open(srv.port, { room: s.room });
    w.send({ type: 'join', room: s.room, name: 'Kofi' });
    assert.equal((await w.expect('welcome')).seat, 'spectator');
    s = await w.expect('state');
    assert.deepEqual(s.names, { south: 'Ana María', north: '\u{1F600}'.repeat(24) });
    assert.equal(s.spectators, 1);
    assert.deepEqual(s.spectator_names, ['Kofi']);
    assert.deepEqual((await a.expect('state')).spectator_names, ['Kofi']);
    await b.expect('state');
    // An anonymous spectator counts but adds no name.
    const w2 = await Client.open(srv.port, { room: s.room });
    w2.send({ type: 'join', room: s.room, name: null });
    await w2.expect('welcome');
    s = await w2.expect('state');
    assert.equal(s.spectators, 2);
    assert.deepEqual(s.spectator_names, ['Kofi']);
    // The spectator names itself; then leaves: its name goes with it.
    w2.send({ type: 'name', name: 'Esi' });
    s = await a.untilState((x) => x.spectator_names.length === 2);
    assert.deepEqual([...s.spectator_names].sort(), ['Esi', 'Kofi']);
    w.close();
    s = await a.untilState((x) => x.spectators === 1);
    assert.deepEqual(s.spectator_names, ['Esi']);
    for (const c of [a, b, w2]) c.close();
  });
});

// Each [name, why] of list sent as c's name: bad_message, its message
// matching why.
async function refuseNames(c, list) {
  for (const [name, why] of list) {
    c.send({ type: 'name', name });
    const e = await c.expectError('bad_message');
    assert.match(e.message, why, JSON.stringify(name));
  }
}

test('bad names are bad_message and change nothing', async () => {
  await withServer(['--max-msgs-per-sec', '100'], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    a.send({ type: 'name', name: 'Ana' });
    const s0 = await a.expect('state');
    await b.expect('state');
    await refuseNames(a, BAD_NAMES.map(([name]) => [name, /^name: /]));
    for (const name of [42, true, {}, ['Ana']]) {
      a.send({ type: 'name', name });
      await a.expectError('bad_message');
    }
    a.send({ type: 'name' });
    await a.expectError('bad_message');
    a.send({ type: 'name', name: 'a\u0000b' }); // jansson refuses NUL in JSON text
    await a.expectError('bad_json');
    await a.quiet();
    await b.quiet();
    // Nothing changed: the next change counts one version from s0.
    a.send({ type: 'name', name: 'Ana B.' });
    const s1 = await a.expect('state');
    assert.equal(s1.version, s0.version + 1);
    assert.deepEqual(s1.names, { south: 'Ana B.', north: null });
    // A create or join with a bad name creates or joins nothing.
    const c = await Client.open(srv.port);
    c.send({ type: 'create', side: 'north', name: 'a\u200bb' });
    await c.expectError('bad_message');
    c.send({ type: 'join', room, name: 'x'.repeat(25) });
    await c.expectError('bad_message');
    c.send({ type: 'join', room, token: null, name: 5 });
    await c.expectError('bad_message');
    await b.expect('state');
    await a.quiet();
    // The connection is still outside any room.
    c.send({ type: 'chat', text: 'hi' });
    await c.expectError('not_joined');
    for (const x of [a, b, c]) x.close();
  });
});

test('hostile names: invisible ones, a side\'s name and its look-alikes, piles of marks are bad_message and change nothing', async () => {
  await withServer(['--max-msgs-per-sec', '100'], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    a.send({ type: 'name', name: 'Ana' });
    const s0 = await a.expect('state');
    await b.expect('state');
    const hostile = [
      ['\u3164', /^name: no visible character$/], ['\u2800\u2800', /^name: no visible character$/],
      ['\u3164\u00a0\u3164', /^name: no visible character$/],
      ['South', /^name: reads as the name of a side \(South\)$/],
      ['\ua731\u1d0f\u1d1c\u1d1b\u029c', /^name: reads as the name of a side \(South\)$/], // small capitals
      ['\u{1F182}\u{1F17E}\u{1F184}\u{1F183}\u{1F177}', /\(South\)$/],                 // negative squared
      ['Sou\u0442h', /\(South\)$/], ['B\u0142ack', /\(Black\)$/], ['S\u3164outh', /\(South\)$/],
      ['\u042e\u0433', /\(\u042e\u0433\)$/], ['Noirs', /\(Noirs\)$/],
      ['NORTE', /side/], ['Negras', /side/], ['white', /side/],
      ['\uff33\uff4f\uff55\uff54\uff48', /side/],           // fullwidth
      ['\u0405\u043euth', /side/],                             // Cyrillic look-alikes
      ['S\u00f6uth!', /side/], ['N o r t h', /side/], ['\u{1D401}lack', /side/],
      ['Z' + '\u0301'.repeat(5), /^name: more than 4 combining marks on one character/],
    ];
    await refuseNames(a, hostile);
    // A pile of marks in a chat line too.
    a.send({ type: 'chat', text: 'hi' + '\u0300'.repeat(20) });
    assert.match((await a.expectError('bad_message')).message, /^text: more than 4 combining marks/);
    await a.quiet();
    await b.quiet();
    a.send({ type: 'name', name: 'Southpaw' });
    const s1 = await a.expect('state');
    assert.equal(s1.version, s0.version + 1);
    assert.deepEqual(s1.names, { south: 'Southpaw', north: null });
    await b.expect('state');
    // A create or join with such a name creates or joins nothing.
    const c = await Client.open(srv.port);
    c.send({ type: 'create', side: 'north', name: 'Blancas' });
    await c.expectError('bad_message');
    c.send({ type: 'join', room, name: '\u3164' });
    await c.expectError('bad_message');
    // The joiner: small capitals took the free seat before.
    c.send({ type: 'join', room, name: '\ua731\u1d0f\u1d1c\u1d1b\u029c' });
    await c.expectError('bad_message');
    await a.quiet();
    c.send({ type: 'chat', text: 'hi' });
    await c.expectError('not_joined');
    for (const x of [a, b, c]) x.close();
  });
});

// Issue 52, part 2: every form of a side's name the page shows, in every
// language (the list made from web/i18n/), and a side's name followed by
// a dash-like character (whose skeleton is a letter: the em dash's is ー).
test('a side in any form the page shows, or followed by any dash, is bad_message and changes nothing', async () => {
  await withServer(['--max-msgs-per-sec', '100'], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    a.send({ type: 'name', name: 'Ana' });
    const s0 = await a.expect('state');
    await b.expect('state');
    const hostile = [
      ['\u0410\u049b\u0442\u0430\u0440', /\(\u0410\u049b\u0442\u0430\u0440\)$/],                 // Ақтар
      ['\u049a\u0430\u0440\u0430\u043b\u0430\u0440', /\(\u049a\u0430\u0440\u0430\u043b\u0430\u0440\)$/], // Қаралар
      ['\u049b\u0430\u0440\u0430\u043b\u0430\u0440\u0434\u044b\u04a3', /side/],                  // қаралардың
      ['el Sur', /\(el Sur\)$/], ['les Noirs', /side/], ['\u042e\u0433\u0430', /side/],     // Юга
      ['South\u2014', /\(South\)$/], ['sUr \u2014', /\(Sur\)$/], ['North\u2015', /\(North\)$/],
      ['White\u2500', /\(White\)$/], ['South -', /\(South\)$/], ['South \u2013', /\(South\)$/],
      ['South\u2026', /\(South\)$/], ['South\u2122', /\(South\)$/],
    ];
    await refuseNames(a, hostile.map(([name]) => [name, /^name: reads as the name of a side/]));
    await refuseNames(a, hostile);
    const c = await Client.open(srv.port);
    c.send({ type: 'join', room, name: '\u049a\u0430\u0440\u0430\u043b\u0430\u0440' });
    await c.expectError('bad_message');
    c.send({ type: 'create', side: 'south', name: 'South\u2014' });
    await c.expectError('bad_message');
    await a.quiet();
    await b.quiet();
    a.send({ type: 'name', name: 'Ama\u2014' });
    const s1 = await a.expect('state');
    assert.equal(s1.version, s0.version + 1);
    assert.deepEqual(s1.names, { south: 'Ama\u2014', north: null });
    for (const x of [a, b, c]) x.close();
  });
});

test('name null clears a seat\'s name; a rematch swaps names with the players', async () => {
  await withServer([], async (srv) => {
    const a = await Client.open(srv.port);
    a.send({ type: 'create', side: 'south', name: 'Ana' });
    const wa = await a.expect('welcome');
    await a.expect('state');
    const b = await Client.open(srv.port, { room: wa.room });
    b.send({ type: 'join', room: wa.room, name: 'Bo' });
    await b.expect('welcome');
    await b.expect('state'); await a.expect('state');
    b.send({ type: 'name', name: null });
    assert.deepEqual((await a.expect('state')).names, { south: 'Ana', north: null });
    await b.expect('state');
    b.send({ type: 'name', name: 'Bo' });
    await a.expect('state'); await b.expect('state');
    a.send({ type: 'resign' });
    await a.expect('state'); await b.expect('state');
    // After the game, names still change.
    a.send({ type: 'name', name: 'Ana K.' });
    await a.expect('state'); await b.expect('state');
    a.send({ type: 'rematch', action: 'offer' });
    await a.expect('state'); await b.expect('state');
    b.send({ type: 'rematch', action: 'accept' });
    assert.equal((await a.expect('welcome')).seat, 'north');
    const s = await a.expect('state');
    assert.deepEqual(s.names, { south: 'Bo', north: 'Ana K.' });
    assert.equal((await b.expect('welcome')).seat, 'south');
    assert.deepEqual((await b.expect('state')).names, s.names);
    a.close(); b.close();
  });
});

test('names are stored with the seats: kill -9, restart, reclaim', async () => {
  let srv = await startServer();
  const db = srv.db;
  const a = await Client.open(srv.port);
  a.send({ type: 'create', side: 'north', name: 'Ama' });
  const wa = await a.expect('welcome');
  await a.expect('state');
  const b = await Client.open(srv.port, { room: wa.room });
  b.send({ type: 'join', room: wa.room, name: 'Yaw' });
  const wb = await b.expect('welcome');
  await b.expect('state');
  assert.equal((await stopServer(srv, 'SIGKILL')).signal, 'SIGKILL');
  srv = await startServer([], { db });
  // A reclaim without a name keeps the stored one; with one, changes it.
  const a2 = await Client.open(srv.port, { room: wa.room });
  a2.send({ type: 'join', room: wa.room, token: wa.token });
  await a2.expect('welcome');
  assert.deepEqual((await a2.expect('state')).names, { south: 'Yaw', north: 'Ama' });
  const b2 = await Client.open(srv.port, { room: wa.room });
  b2.send({ type: 'join', room: wa.room, token: wb.token, name: 'Yaw B.' });
  await b2.expect('welcome');
  assert.deepEqual((await b2.expect('state')).names, { south: 'Yaw B.', north: 'Ama' });
  a2.close(); b2.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

test('a store of schema 1 (no names, no chat) is carried over to the newest schema', sqliteOnly, async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'owared-v1-')), 'v1.db');
  const tok = 'v1-south-token';
  const hash = createHash('sha256').update(tok).digest('hex');
  const now = Math.floor(Date.now() / 1000);
  execFileSync('sqlite3', [db, `
    PRAGMA journal_mode=WAL;
    CREATE TABLE rooms (id TEXT PRIMARY KEY, kind TEXT NOT NULL, created INTEGER NOT NULL,
      updated INTEGER NOT NULL, game_number INTEGER NOT NULL, version INTEGER NOT NULL,
      tok_south BLOB, tok_north BLOB, reason INTEGER NOT NULL, winner INTEGER NOT NULL,
      draw_offer INTEGER NOT NULL, rematch_offer INTEGER NOT NULL,
      moves BLOB NOT NULL DEFAULT x'') WITHOUT ROWID;
    INSERT INTO rooms VALUES ('v1-room', 'oware', ${now}, ${now}, 1, 9, X'${hash}', NULL, 0, -1, -1, -1, X'02');
    PRAGMA user_version=1;`]);
  const srv = await startServer([], { db });
  assert.ok(srv.lines.some((l) => /store_migrated from=1 to=8/.test(l)), srv.lines.join('\n'));
  const a = await Client.open(srv.port, { room: 'v1-room' });
  a.send({ type: 'join', room: 'v1-room', token: tok });
  await a.expect('welcome');
  const s = await a.expect('state');
  assert.deepEqual(s.moves, ['c']);
  assert.deepEqual(s.names, { south: null, north: null });
  a.send({ type: 'name', name: 'Ana' });
  assert.deepEqual((await a.expect('state')).names, { south: 'Ana', north: null });
  a.send({ type: 'chat', text: 'still here' });
  assert.equal((await a.expect('chat')).id, 1);
  a.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  const sql = (q) => execFileSync('sqlite3', [db, q]).toString().trim();
  assert.equal(sql('PRAGMA user_version'), '8');
  assert.equal(sql("SELECT name_south FROM rooms WHERE id='v1-room'"), 'Ana');
  assert.equal(sql("SELECT count(*) FROM chat WHERE room='v1-room'"), '1');
});
