// chat.test.mjs: the players' chat through the protocol: delivered to
// everyone in the room (spectators read, cannot write), checked (bad lines
// are bad_message and go nowhere), limited to 5 lines in 10 s per seat
// (across reconnects) and 20 per address, the last 100 given to whoever joins or reconnects, kept
// across kill -9 and a restart, and gone with the room when it expires.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import { withServer, startServer, stopServer, Client, twoPlayers, httpGet, storeQuery, PG,
  sqliteOnly } from './lib.mjs';

// The test build honours OW_TEST_CHAT_WINDOW_MS (docs/testing.md): the
// chat limits counted in that many ms instead of 10 s.
const TEST_BUILD = resolve(new URL('../..', import.meta.url).pathname,
  process.env.OWARED_TEST_BUILD || 'build/fault/owared');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const HOSTILE = [
  '<script>window.pwned=1</script>', '<img src=x onerror="window.pwned=1">',
  '"><b>bold</b>&amp;&lt;', '\u{1F600} ünïcödé ½ 𝄞', 'javascript:alert(1)',
];

// As withServer, on the test build with the chat limits counted in
// window ms.
async function withChatWindow(window, args, fn) {
  assert.ok(existsSync(TEST_BUILD), 'the test build ' + TEST_BUILD + ' (make test-server builds it)');
  const srv = await startServer(args, { bin: TEST_BUILD, env: { OW_TEST_CHAT_WINDOW_MS: String(window) } });
  try {
    await fn(srv);
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
}

// The next chat line or error c gets (states skipped).
async function nextChat(c) {
  for (;;) {
    const m = await c.next();
    if (m.type === 'chat' || m.type === 'error') return m;
  }
}

// Joins room as a spectator named name; returns the client after its state.
async function spectator(port, room, name) {
  const w = await Client.open(port, { room });
  w.send({ type: 'join', room, ...(name ? { name } : {}) });
  assert.equal((await w.expect('welcome')).seat, 'spectator');
  await w.expect('state');
  return w;
}

test('a line reaches both players and the spectators, as text, in order', async () => {
  await withServer([], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    a.send({ type: 'name', name: 'Ana' });
    await a.expect('state'); await b.expect('state');
    const w = await spectator(srv.port, room, 'Kofi');
    await a.expect('state'); await b.expect('state');
    const before = Date.now();
    for (let i = 0; i < HOSTILE.length; i++) {
      const from = i % 2 ? b : a;
      from.send({ type: 'chat', text: `  ${HOSTILE[i]}  ` });
      for (const c of [a, b, w]) {
        // The spectator's history may still be read (PostgreSQL) when the
        // first line comes: then that line comes with it.
        let m = await c.next();
        if (m.type === 'chat_history' && c === w && i === 0) m = m.messages[m.messages.length - 1];
        assert.equal(m.type, 'chat', JSON.stringify(m));
        assert.deepEqual(Object.keys(m).sort(), ['at', 'from', 'id', 'name', 'text', 'type']);
        assert.equal(m.id, i + 1);
        assert.equal(m.text, HOSTILE[i]);
        assert.equal(m.from, i % 2 ? 'north' : 'south');
        assert.equal(m.name, i % 2 ? null : 'Ana');
        assert.ok(m.at >= before - 1000 && m.at <= Date.now() + 1000, 'at is ms since the epoch');
      }
    }
    // The spectator reads but cannot write.
    w.send({ type: 'chat', text: 'hello players' });
    await w.expectError('not_a_player');
    await a.quiet(); await b.quiet(); await w.quiet();
    // No chat text in the server's log.
    assert.ok(!srv.lines.some((l) => l.includes('pwned') || l.includes('hello players')));
    for (const c of [a, b, w]) c.close();
  });
});

test('empty, oversize, multi-line and mistyped lines are bad_message and go nowhere', async () => {
  await withServer([], async (srv) => {
    const { a, b } = await twoPlayers(srv.port);
    const bad = ['', '   ', 'x'.repeat(301), '\u00e9'.repeat(301), 'one\ntwo', 'a\u200bb', 'a\u2028b',
      '\u202egnp.exe'];
    for (const text of bad) {
      a.send({ type: 'chat', text });
      const e = await a.expectError('bad_message');
      assert.match(e.message, /^text: /);
    }
    for (const text of [null, 3, ['x'], { t: 'x' }]) {
      a.send({ type: 'chat', text });
      await a.expectError('bad_message');
    }
    a.send({ type: 'chat' });
    await a.expectError('bad_message');
    await b.quiet();
    // 300 characters (code points) pass; the first line still gets id 1.
    a.send({ type: 'chat', text: '\u{1F600}'.repeat(300) });
    const m = await b.expect('chat');
    assert.equal(m.id, 1);
    assert.equal([...m.text].length, 300);
    a.close(); b.close();
  });
});

test('at most 5 lines in 10 seconds per seat: the 6th is rate_limited, not sent', async () => {
  await withServer([], async (srv) => {
    const { a, b, room, ta } = await twoPlayers(srv.port);
    for (let i = 1; i <= 5; i++) a.send({ type: 'chat', text: 'line ' + i });
    a.send({ type: 'chat', text: 'line 6' });
    for (let i = 1; i <= 5; i++) {
      assert.equal((await a.expect('chat')).text, 'line ' + i);
      assert.equal((await b.expect('chat')).text, 'line ' + i);
    }
    const e = await a.expectError('rate_limited');
    assert.match(e.message, /5 in 10 seconds/);
    await b.quiet();
    // The opponent's own budget is untouched.
    b.send({ type: 'chat', text: 'mine' });
    assert.equal((await a.expect('chat')).id, 6);
    await b.expect('chat');
    // Game actions are not limited by the chat's limit.
    a.send({ type: 'move', pit: 'c', ply: 0 });
    await a.expect('state'); await b.expect('state');
    a.send({ type: 'chat', text: 'still limited' });
    await a.expectError('rate_limited');
    a.close(); b.close();
    void room; void ta;
  });
});

test('the chat limit is the seat\'s: a reconnect with the token does not start afresh', async () => {
  await withServer([], async (srv) => {
    const { a, b, room, ta } = await twoPlayers(srv.port);
    for (let i = 1; i <= 5; i++) a.send({ type: 'chat', text: 'line ' + i });
    for (let i = 1; i <= 5; i++) assert.equal((await b.expect('chat')).text, 'line ' + i);
    // Three new connections on South's seat, one after the other: none
    // gets a line through within the 10 seconds.
    let cur = a;
    for (let k = 0; k < 3; k++) {
      const next = await Client.open(srv.port, { room });
      next.send({ type: 'join', room, token: ta });
      await next.expect('welcome');
      await next.expect('state');
      assert.equal((await next.expect('chat_history')).messages.length, 5);
      await cur.waitClose();
      cur = next;
      cur.send({ type: 'chat', text: 'again ' + k });
      const e = await cur.expectError('rate_limited');
      assert.match(e.message, /at most 5 in 10 seconds from a seat/);
    }
    // Nothing reached the opponent (only the seat's presence changes).
    assert.ok(!b.queue.some((m) => m.type === 'chat'), JSON.stringify(b.queue));
    // The opponent's seat has its own budget.
    b.send({ type: 'chat', text: 'mine' });
    assert.equal((await nextChat(cur)).id, 6);
    cur.close(); b.close();
  });
});

test('at most 20 lines in 10 seconds from one address, over all its seats', async () => {
  await withServer([], async (srv) => {
    // Three rooms, all six seats from 127.0.0.1: 4 lines each.
    const seats = [];
    for (let r = 0; r < 3; r++) {
      const { a, b } = await twoPlayers(srv.port);
      seats.push(a, b);
    }
    let sent = 0, limited = 0;
    for (const [k, c] of seats.entries())
      for (let i = 0; i < 4; i++) {
        const text = `seat ${k} line ${i}`;
        c.send({ type: 'chat', text });
        let m;
        do m = await nextChat(c); while (m.type === 'chat' && m.text !== text);
        if (m.type === 'chat') sent++;
        else {
          assert.equal(m.code, 'rate_limited');
          assert.match(m.message, /at most 20 in 10 seconds from an address/);
          limited++;
        }
      }
    assert.deepEqual({ sent, limited }, { sent: 20, limited: 4 });
    // Another address still chats.
    const c2 = await Client.open(srv.port, { localAddress: '127.0.0.2' });
    c2.send({ type: 'create', side: 'south' });
    await c2.expect('welcome'); await c2.expect('state');
    c2.send({ type: 'chat', text: 'hello' });
    assert.equal((await nextChat(c2)).text, 'hello');
    c2.close();
    for (const c of seats) c.close();
  });
});

test('history: the last lines after a reconnect, for a new spectator, and only the last 100', async () => {
  // The seat's limit counted in 100 ms: 101 lines take a few seconds.
  await withChatWindow(100, [], async (srv) => {
    const { a, b, room, ta, tb } = await twoPlayers(srv.port);
    // No chat yet: a join gets no chat_history at all.
    const w0 = await spectator(srv.port, room);
    await w0.quiet();
    await a.expect('state'); await b.expect('state');
    a.send({ type: 'chat', text: 'first' });
    for (const c of [a, b, w0]) await c.expect('chat');
    b.send({ type: 'chat', text: 'second' });
    for (const c of [a, b, w0]) await c.expect('chat');
    b.close();
    await a.expect('state');
    const b2 = await Client.open(srv.port, { room });
    b2.send({ type: 'join', room, token: tb });
    await b2.expect('welcome');
    await b2.expect('state');
    const h = await b2.expect('chat_history');
    assert.deepEqual(h.messages.map((m) => [m.id, m.from, m.text, m.type]),
      [[1, 'south', 'first', 'chat'], [2, 'north', 'second', 'chat']]);
    await a.expect('state');
    const w = await spectator(srv.port, room, 'Esi');
    assert.equal((await w.expect('chat_history')).messages.length, 2);
    // 101 more lines from South, 5 per connection (each reconnect replaces
    // the last) and 5 per 100 ms: the history keeps the last 100, ids 4
    // to 103.
    let cur = a;
    let sent = 0;
    for (;;) {
      cur = await Client.open(srv.port, { room });
      cur.send({ type: 'join', room, token: ta });
      await cur.expect('welcome');
      if (sent === 101) break;
      await sleep(110); // the seat's last lines (its 'first' too) are out of the window
      let k = 0;
      for (; k < 5 && sent < 101; k++, sent++) cur.send({ type: 'chat', text: 'n' + sent });
      // Delivered (so committed) before the next connection takes the seat.
      while (k > 0) if ((await w.next()).type === 'chat') k--;
    }
    await cur.expect('state');
    const last = await cur.expect('chat_history');
    assert.equal(last.messages.length, 100);
    assert.equal(last.messages[0].id, 4);
    assert.equal(last.messages[99].id, 103);
    assert.equal(last.messages[99].text, 'n100');
    assert.equal(last.messages[0].text, 'n1');
    const sql = (q) => storeQuery(srv.db, q);
    assert.equal(sql(`SELECT count(*) FROM chat WHERE room='${room}'`), '100');
    for (const c of [cur, b2, w, w0]) c.close();
  });
});

test('a line sent as someone joins comes once, with or after the history, never before it', async () => {
  await withServer([], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    a.send({ type: 'chat', text: 'before' });
    for (const c of [a, b]) await c.expect('chat');
    let n = 1;
    // Each round: a spectator joins while a player chats at once (the
    // history read, asynchronous with PostgreSQL, races the line).
    for (let round = 0; round < 8; round++) {
      const p = round % 2 ? b : a;
      const w = await Client.open(srv.port, { room });
      w.send({ type: 'join', room });
      p.send({ type: 'chat', text: 'r' + round });
      n++;
      const seen = [];
      let history = null;
      while (!seen.some((m) => m.text === 'r' + round)) {
        const m = await w.next();
        if (m.type === 'chat_history') {
          assert.equal(history, null, 'one history');
          history = m;
          seen.push(...m.messages);
        } else if (m.type === 'chat') {
          assert.ok(history, 'a chat line before the history: ' + JSON.stringify(m));
          seen.push(m);
        }
      }
      assert.deepEqual(seen.map((m) => m.id), Array.from({ length: n }, (_, i) => i + 1));
      await sleep(100);
      assert.ok(!w.queue.some((m) => m.type === 'chat' || m.type === 'chat_history'), 'no line twice');
      w.close();
    }
    a.close();
    b.close();
  });
});

test('kill -9 and a restart keep the chat; expiry deletes it with the room', async () => {
  let srv = await startServer(['--expire-finished', '1']);
  const db = srv.db;
  const { a, b, room, ta } = await twoPlayers(srv.port);
  a.send({ type: 'chat', text: 'before the crash' });
  await b.expect('chat');
  assert.equal((await stopServer(srv, 'SIGKILL')).signal, 'SIGKILL');
  srv = await startServer(['--expire-finished', '1'], { db });
  const a2 = await Client.open(srv.port, { room });
  a2.send({ type: 'join', room, token: ta });
  await a2.expect('welcome');
  await a2.expect('state');
  const h = await a2.expect('chat_history');
  assert.deepEqual(h.messages.map((m) => m.text), ['before the crash']);
  // The ids go on from the stored ones.
  a2.send({ type: 'chat', text: 'after' });
  assert.equal((await a2.expect('chat')).id, 2);
  a2.send({ type: 'resign' });
  await a2.expect('state');
  a2.close();
  const sql = (q) => storeQuery(db, q);
  for (let i = 0; i < 50; i++) {
    await sleep(200);
    if ((await (await httpGet(srv.port, '/healthz')).json()).rooms === 0) break;
  }
  assert.equal((await (await httpGet(srv.port, '/healthz')).json()).rooms, 0);
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  assert.equal(sql('SELECT count(*) FROM chat'), '0');
  void a; void b;
});

// A room whose players sent 100 lines of text, 5 from each seat a round
// (each round on new connections, and the chat limits counted in 100 ms):
// { a, b, room } with a and b connected.
async function fillChat(port, text) {
  let { a, b, room, ta, tb } = await twoPlayers(port);
  const seat = async (token) => {
    const c = await Client.open(port, { room });
    c.send({ type: 'join', room, token });
    await c.expect('welcome');
    return c;
  };
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 5; i++) { a.send({ type: 'chat', text }); b.send({ type: 'chat', text }); }
    let k = 10;
    while (k > 0) if ((await b.next()).type === 'chat') k--;
    await sleep(150);
    a = await seat(ta);
    b = await seat(tb);
  }
  return { a, b, room };
}

// Joins room as a spectator from localAddress on a bare WebSocket: the
// chat_history's size in bytes as sent (0 when none came) and its lines.
function historyBytes(port, room, localAddress) {
  return new Promise((res, rej) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?room=${room}`, ['oware.v1'], { localAddress });
    let timer = null;
    const done = (v) => { clearTimeout(timer); ws.close(); res(v); };
    ws.on('open', () => ws.send(JSON.stringify({ type: 'join', room })));
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.type === 'error') rej(new Error(JSON.stringify(m)));
      // The state comes before the history: wait a little for one.
      if (m.type === 'state' && !timer) timer = setTimeout(() => done({ bytes: 0, messages: [] }), 300);
      if (m.type === 'chat_history') done({ bytes: d.length, messages: m.messages });
    });
    ws.on('error', rej);
  });
}

test('chat history: an address is sent 1 MiB of it a minute, then only the newest lines that fit', async () => {
  await withChatWindow(100, [], async (srv) => {
    const { a, b, room } = await fillChat(srv.port, '\u{1F600}'.repeat(300));
    const full = await historyBytes(srv.port, room, '127.0.0.5');
    assert.ok(full.bytes > 8000, 'a large history: ' + full.bytes);
    const last = full.messages[full.messages.length - 1].id;
    // Joins from one address until it has been sent 1.5 MiB at the old
    // rate: in all it gets 1 MiB at most, the newest lines first.
    let total = full.bytes, cut = 0, none = 0;
    const joins = Math.ceil(1.5 * 1048576 / full.bytes);
    for (let j = 0; j < joins; j++) {
      const h = await historyBytes(srv.port, room, '127.0.0.5');
      total += h.bytes;
      if (h.messages.length && h.messages.length < full.messages.length) {
        cut++;
        assert.equal(h.messages[h.messages.length - 1].id, last, 'the newest lines are kept');
      }
      if (!h.messages.length) none++;
    }
    assert.ok(total <= 1048576, `bytes of history sent to one address in a minute: ${total}`);
    assert.ok(cut <= 1 && none >= 1, JSON.stringify({ cut, none }));
    // Another address still gets all of it.
    assert.equal((await historyBytes(srv.port, room, '127.0.0.6')).bytes, full.bytes);
    a.close(); b.close();
  });
});

test('a room keeps 16384 bytes of chat text at most, stored near its size', async () => {
  await withChatWindow(100, [], async (srv) => {
    // 100 lines of 1200 bytes (300 four-byte characters): the newest 13
    // fit in 16384 bytes (a 14th would not).
    const text = '\u{1F600}'.repeat(300);
    const { a, b, room } = await fillChat(srv.port, text);
    const h = await historyBytes(srv.port, room, '127.0.0.7');
    assert.deepEqual(h.messages.map((m) => m.id), Array.from({ length: 13 }, (_, i) => 88 + i));
    assert.ok(h.messages.every((m) => m.text === text));
    const sql = (q) => storeQuery(srv.db, q);
    assert.equal(sql(`SELECT count(*) FROM chat WHERE room='${room}'`), '13');
    if (!PG) {
      // On disk (the table and its key's index): near the text kept, not
      // four times it.
      const used = Number(sql("SELECT sum(pgsize) FROM dbstat WHERE name IN ('chat', 'sqlite_autoindex_chat_1')"));
      assert.ok(used <= 1.6 * 13 * 1200 + 12288, `chat pages: ${used} bytes for ${13 * 1200} bytes of text`);
    }
    a.close(); b.close();
  });
});

test('a store of schema 5 gets the chat table with rowids, each room\'s lines trimmed to 16384 bytes', sqliteOnly, async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'owared-v5-')), 'v5.db');
  const tok = 'v5-south-token';
  const hash = createHash('sha256').update(tok).digest('hex');
  const now = Math.floor(Date.now() / 1000);
  const big = '\u{1F600}'.repeat(300); // 1200 bytes
  const lines = [];
  for (let i = 1; i <= 30; i++) lines.push(`('v5-room', ${i}, ${1764540000000 + i}, ${i % 2}, '', '${i === 30 ? 'short' : big}')`);
  execFileSync('sqlite3', [db, `
    PRAGMA journal_mode=WAL;
    CREATE TABLE rooms (id TEXT PRIMARY KEY, kind TEXT NOT NULL, created INTEGER NOT NULL,
      updated INTEGER NOT NULL, game_number INTEGER NOT NULL, version INTEGER NOT NULL,
      tok_south BLOB, tok_north BLOB, reason INTEGER NOT NULL, winner INTEGER NOT NULL,
      draw_offer INTEGER NOT NULL, rematch_offer INTEGER NOT NULL,
      moves BLOB NOT NULL DEFAULT x'', name_south TEXT NOT NULL DEFAULT '',
      name_north TEXT NOT NULL DEFAULT '',
      clock_kind INTEGER NOT NULL DEFAULT 0, clock_days INTEGER NOT NULL DEFAULT 0,
      clock_init_south INTEGER NOT NULL DEFAULT 0, clock_init_north INTEGER NOT NULL DEFAULT 0,
      clock_increment INTEGER NOT NULL DEFAULT 0,
      clock_left_south INTEGER NOT NULL DEFAULT 0, clock_left_north INTEGER NOT NULL DEFAULT 0,
      start TEXT NOT NULL DEFAULT '') WITHOUT ROWID;
    CREATE TABLE chat (room TEXT NOT NULL, id INTEGER NOT NULL, at INTEGER NOT NULL,
      side INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,
      PRIMARY KEY (room, id)) WITHOUT ROWID;
    CREATE TRIGGER chat_keep AFTER INSERT ON chat BEGIN
      DELETE FROM chat WHERE room=new.room AND id<=new.id-100; END;
    CREATE TRIGGER chat_gone AFTER DELETE ON rooms BEGIN DELETE FROM chat WHERE room=old.id; END;
    INSERT INTO rooms (id, kind, created, updated, game_number, version, tok_south, tok_north,
      reason, winner, draw_offer, rematch_offer, moves)
      VALUES ('v5-room', 'oware', ${now}, ${now}, 1, 9, X'${hash}', NULL, 0, -1, -1, -1, X'02');
    INSERT INTO chat VALUES ${lines.join(', ')};
    PRAGMA user_version=5;`]);
  const srv = await startServer([], { db });
  assert.ok(srv.lines.some((l) => /store_migrated from=5 to=8/.test(l)), srv.lines.join('\n'));
  const a = await Client.open(srv.port, { room: 'v5-room' });
  a.send({ type: 'join', room: 'v5-room', token: tok });
  await a.expect('welcome');
  await a.expect('state');
  // The newest lines whose texts fit in 16384 bytes: 'short' and 13 of 1200.
  const h = await a.expect('chat_history');
  assert.deepEqual(h.messages.map((m) => m.id), Array.from({ length: 14 }, (_, i) => 17 + i));
  a.send({ type: 'chat', text: 'after' });
  assert.equal((await a.expect('chat')).id, 31);
  a.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  const sql = (q) => execFileSync('sqlite3', [db, q]).toString().trim();
  assert.equal(sql('PRAGMA user_version'), '8');
  assert.doesNotMatch(sql("SELECT sql FROM sqlite_master WHERE name='chat'"), /WITHOUT ROWID/);
  assert.equal(sql("SELECT count(*) FROM chat WHERE room='v5-room'"), '15');
  assert.equal(sql("SELECT count(*) FROM sqlite_master WHERE type='trigger' AND name LIKE 'chat%'"), '2');
});
