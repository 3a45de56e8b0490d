// stall.test.mjs: a Swiss pairing never holds up the server (issue 49,
// item 2; docs/events.md "Pairing off the loop"). A 256-player Swiss
// where white always wins is the slowest pairing known (seconds for
// round 3 when it ran on the event loop); while its round 3 is paired,
// moves in an unrelated clocked room are answered within DEADLINE ms and
// no clock is charged more than that. Timing-bound: the suite
// test-server-timing runs with no other suite beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, stopServer, Client, tempDir } from './lib.mjs';
import { STALL_ARGS, untilEvent, bigSwiss } from './evlib.mjs';

// 50 ms is the goal on an idle machine; the test allows ten times that
// for a loaded one (the old code answered after 4.8 to 6.1 s).
const DEADLINE = Number(process.env.STALL_DEADLINE_MS || 500);
const PLAYERS = 256;
const ARGS = STALL_ARGS;
// A long legal game (tests/server/games.json's repetition game).
const MOVES = JSON.parse(readFileSync(new URL('./games.json', import.meta.url)))
  .find((g) => g.reason === 'repetition').moves;

// Every board of round r gets "white" from the organiser.
async function whiteWins(org, id, token, ev, r) {
  const boards = ev.schedule[r - 1].boards.filter((b) => b.black !== null);
  for (const b of boards)
    org.send({ type: 'event_result', event: id, token, round: r, board: b.board, result: 'white' });
  return untilEvent(org, (e) => e.schedule[r - 1].boards.every((b) => b.result));
}

test('a 256-player Swiss paired while an unrelated clocked room plays: every move answered within the deadline', async () => {
  const srv = await startServer(ARGS);
  try {
    const { org, id, token } = await bigSwiss(srv.port, { players: PLAYERS, auto: false });
    org.send({ type: 'event_start', event: id, token });
    let ev = await untilEvent(org, (e) => e.round === 1 && !e.pairing);
    ev = await whiteWins(org, id, token, ev, 1);
    org.send({ type: 'event_next', event: id, token });
    ev = await untilEvent(org, (e) => e.round === 2 && !e.pairing);
    ev = await whiteWins(org, id, token, ev, 2);

    // The unrelated room: 30 s a side, its clocks running after both
    // first moves.
    const a = await Client.open(srv.port);
    a.send({ type: 'create', side: 'south', clock: { initial: 30, increment: 0 } });
    const wa = await a.expect('welcome');
    await a.expect('state');
    const b = await Client.open(srv.port, { room: wa.room });
    b.send({ type: 'join', room: wa.room });
    await b.expect('welcome');
    await b.expect('state');
    await a.expect('state');
    let ply = 0, st = null;
    const move = async () => {
      const mover = ply % 2 === 0 ? a : b, side = ply % 2 === 0 ? 'south' : 'north';
      const before = st ? st.clock[side] : null;
      const t0 = performance.now();
      mover.send({ type: 'move', pit: MOVES[ply], ply });
      st = await mover.untilState((s) => s.moves.length === ply + 1, 120000);
      const ms = performance.now() - t0;
      await (mover === a ? b : a).untilState((s) => s.moves.length === ply + 1, 120000);
      ply++;
      return { ms, charged: before === null ? 0 : before - st.clock[side] };
    };
    await move();
    await move();

    // Round 3 (white always won: the slow case) is paired while the room
    // plays on: each move sent before the round is shown is answered in
    // time and charged no more than that.
    let round3 = null, sawPairing = false;
    org.send({ type: 'event_next', event: id, token });
    const shown = untilEvent(org, (e) => {
      if (e.pairing) sawPairing = true;
      return e.round === 3 && !e.pairing;
    }).then((e) => { round3 = e; });
    const times = [];
    while (!round3 && ply < 200) {
      const m = await move();
      times.push(m);
      assert.ok(m.ms <= DEADLINE, `move ${ply} answered after ${m.ms.toFixed(0)} ms (pairing under way: ${!round3})`);
      assert.ok(m.charged <= DEADLINE, `move ${ply} charged ${m.charged} ms`);
    }
    await shown;
    assert.ok(sawPairing, 'the event showed "pairing" while its round was paired');
    assert.ok(times.length >= 1);
    assert.equal(round3.schedule[2].boards.length, PLAYERS / 2);
    const worst = Math.max(...times.map((t) => t.ms));
    console.log(`# moves during the pairing: ${times.length}, slowest answer ${worst.toFixed(1)} ms`);
    a.close();
    b.close();
    org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('SIGTERM while an automatic round is paired: a clean stop, and the round is paired at the next start', async () => {
  const db = join(tempDir(), 'oware.db');
  let srv = await startServer(ARGS, { db });
  try {
    const { org, id, token } = await bigSwiss(srv.port, { players: PLAYERS, auto: true });
    org.send({ type: 'event_start', event: id, token });
    let ev = await untilEvent(org, (e) => e.round === 1 && !e.pairing);
    await whiteWins(org, id, token, ev, 1);
    ev = await untilEvent(org, (e) => e.round === 2 && !e.pairing);
    // The last result of round 2 starts round 3's pairing (the slow one).
    await whiteWins(org, id, token, ev, 2);
    // The stop comes as soon as the pairing shows (or, as the pairing now
    // takes a tenth of a second, once round 3 does: a newer view takes the
    // place of one still unsent); either way the stop is clean and round
    // 3 is there after the start.
    const paired = await untilEvent(org, (e) => e.round === 3 || e.pairing);
    assert.ok(paired.pairing || paired.round === 3);
    org.close();
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    if (srv.lines.some((l) => / event_round .*round=3/.test(l)))
      console.log('# round 3 was paired before the stop: the pairing at the start was not needed');

    srv = await startServer(ARGS, { db });
    const c = await Client.open(srv.port);
    c.send({ type: 'event_watch', event: id });
    ev = await untilEvent(c, (e) => e.round === 3 && !e.pairing);
    assert.equal(ev.schedule[2].boards.length, PLAYERS / 2);
    c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});
