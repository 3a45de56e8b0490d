// events-scale.test.mjs: issue 49 at the scale it was found (the slow
// suite, test-server-scale, run alone): a 256-player Swiss taken to round
// 32 by double forfeits (4,096 board rooms through a table of 1,000), and
// 500 events tried from 25 addresses of one /24.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopServer, Client } from './lib.mjs';
import { ARGS, untilEvent, createEvent, enterMany, metric, heldRoom } from './evlib.mjs';

test('a 256-player Swiss taken to round 32 by double forfeits: 4,096 board rooms, and the table stays open', async () => {
  // --max-queue: the organiser sends a round's 128 results at once and
  // reads the views (each waiting for its own commit) as they come.
  // 128 double forfeits a round, 32 rounds: past the organiser's budget
  // of changes a minute (--event-changes-per-min), which this test is not about.
  const srv = await startServer([...ARGS, '--max-rooms', '1000', '--max-rooms-per-ip', '128', '--max-queue', '1024',
    '--event-changes-per-min', '0', '--event-views-per-ip-per-min', '0']);
  try {
    const e = await createEvent(srv.port, { rounds: 32 });
    await enterMany(srv.port, e.id, 256);
    e.org.send({ type: 'event_start', event: e.id, token: e.token });
    let ev = await untilEvent(e.org, (v) => v.state === 'running');
    const rooms = new Set();
    for (let r = 1; r <= 32; r++) {
      const boards = ev.schedule[r - 1].boards;
      assert.equal(boards.length, 128, `round ${r}`);
      for (const b of boards) rooms.add(b.room);
      for (const b of boards)
        e.org.send({ type: 'event_result', event: e.id, token: e.token, round: r, board: b.board, result: 'double_forfeit' });
      ev = await untilEvent(e.org, (v) => v.round === r + 1 || v.state === 'over');
      assert.equal(ev.pairing_error, null, `round ${r + 1}`);
      assert.ok(await metric(srv.port, 'oware_rooms') <= 1000);
    }
    assert.equal(ev.state, 'over');
    assert.equal(rooms.size, 4096);
    assert.equal(await metric(srv.port, 'oware_rooms'), 1000);
    // The table is full of finished rooms: a newcomer's room and another
    // club's round find their places.
    const newcomer = await heldRoom(srv.port, '127.0.1.1');
    assert.equal(newcomer.error, undefined);
    const club = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.2.1' });
    await enterMany(srv.port, club.id, 10, 'Q');
    club.org.send({ type: 'event_start', event: club.id, token: club.token });
    const started = await untilEvent(club.org, (v) => v.state === 'running');
    assert.equal(started.schedule[0].boards.filter((b) => b.room).length, 5);
    for (const c of [newcomer.c, club.org, e.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('500 events tried from 25 addresses of one /24: the network holds 50, another club still creates its own', async () => {
  const srv = await startServer(ARGS);
  try {
    let made = 0, refused = 0;
    const open = [];
    for (let a = 1; a <= 25; a++) {
      const c = await Client.open(srv.port, { localAddress: `127.0.0.${a}` });
      for (let i = 0; i < 20; i++)
        c.send({ type: 'event_create', title: `Squat ${a}.${i}`, kind: 'oware', format: 'swiss', rounds: 3 });
      for (let got = 0; got < 20;) {
        const m = await c.next();
        if (m.type === 'event_welcome') { made++; got++; }
        else if (m.type === 'error') {
          assert.equal(m.code, 'too_many_events', JSON.stringify(m));
          assert.match(m.message, /this network/);
          refused++;
          got++;
        }
      }
      open.push(c);
    }
    assert.equal(made, 50);
    assert.equal(refused, 450);
    assert.equal(await metric(srv.port, 'oware_events'), 50);
    const club = await createEvent(srv.port, { rounds: 3 }, { localAddress: '127.0.1.1' });
    assert.equal(club.ev.state, 'entry');
    for (const c of [...open, club.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});
