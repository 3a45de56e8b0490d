// events-budget.test.mjs: a club event's boards as rooms of the table
// (issue 49): the organiser's result ends the board's game in its room,
// a board cannot be aborted, board rooms count against their organiser's
// budgets and make way once over, a round gets all its rooms or none;
// the event table's budgets (per address, per network) and its squatters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopServer, Client } from './lib.mjs';

const ARGS = ['--max-conns-per-ip', '400', '--joins-per-ip-per-min', '1000000', '--max-msgs-per-sec', '100000'];

async function untilEvent(c, pred = () => true, what = 'event') {
  for (;;) {
    const m = await c.next(60000);
    if (m.type === 'error') throw new Error('error ' + JSON.stringify(m));
    if (m.type === what && pred(m)) return m;
  }
}

async function createEvent(port, fields, opts = {}) {
  const org = await Client.open(port, opts);
  org.send({ type: 'event_create', title: 'Club', kind: 'oware', format: 'swiss', rounds: 3, ...fields });
  const w = await org.expect('event_welcome');
  const ev = await org.expect('event');
  return { org, id: w.event, token: w.token, ev };
}

// n players entered from one connection (each join's welcome kept).
async function enterMany(port, id, n, prefix = 'P') {
  const c = await Client.open(port);
  const out = [];
  for (let i = 0; i < n; i++) c.send({ type: 'event_join', event: id, name: `${prefix}${i}` });
  while (out.length < n) {
    const m = await c.next(60000);
    if (m.type === 'error') throw new Error('join ' + JSON.stringify(m));
    if (m.type === 'event_welcome') out.push({ entry: m.entry, token: m.token });
  }
  c.close();
  return out;
}

// The next error, states before it skipped.
async function untilError(c, code) {
  for (;;) {
    const m = await c.next();
    if (m.type === 'state') continue;
    assert.equal(m.type, 'error', JSON.stringify(m));
    assert.equal(m.code, code, JSON.stringify(m));
    return m;
  }
}

async function asPlayer(port, id, token) {
  const c = await Client.open(port);
  c.send({ type: 'event_watch', event: id, token });
  const ev = await untilEvent(c);
  c.close();
  return ev;
}

async function seat(port, game) {
  const c = await Client.open(port);
  c.send({ type: 'join', room: game.room, token: game.token });
  await c.expect('welcome');
  await c.expect('state');
  return c;
}

// A two-player event started: its organiser, both players seated in
// their board's room (white south, black north).
async function startedPair(port, fields = {}) {
  const e = await createEvent(port, { rounds: 1, ...fields });
  const [p0, p1] = await enterMany(port, e.id, 2);
  e.org.send({ type: 'event_start', event: e.id, token: e.token });
  const ev = await untilEvent(e.org, (v) => v.state === 'running');
  const g0 = (await asPlayer(port, e.id, p0.token)).you.game;
  const g1 = (await asPlayer(port, e.id, p1.token)).you.game;
  const [w, b] = g0.side === 'south' ? [g0, g1] : [g1, g0];
  return { e, ev, white: await seat(port, w), black: await seat(port, b), room: g0.room };
}

test("the organiser's result ends the board's game in its room; a later end changes nothing", async () => {
  const srv = await startServer(ARGS);
  try {
    const { e, white, black } = await startedPair(srv.port, { clock: { initial: 600, increment: 5 } });
    white.send({ type: 'move', pit: 'c', ply: 0 });
    await black.untilState((s) => s.moves.length === 1);
    black.send({ type: 'move', pit: 'A', ply: 1 });
    const on = await white.untilState((s) => s.moves.length === 2);
    assert.equal(on.clock.running, 'south');
    e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'draw' });
    const ev = await untilEvent(e.org, (v) => v.schedule[0].boards[0].result === 'draw');
    assert.equal(ev.schedule[0].boards[0].by, 'organiser');
    for (const c of [white, black]) {
      const st = await c.untilState((s) => s.game.over);
      assert.equal(st.game.reason, 'organiser');
      assert.equal(st.game.winner, 'draw');
      assert.equal(st.clock.running, null);
    }
    // The room's game is over: a resignation there is refused and the
    // event keeps the organiser's draw.
    black.send({ type: 'resign' });
    const err = await untilError(black, 'game_over');
    assert.match(err.message, /over/);
    const after = await asPlayer(srv.port, e.id, null);
    assert.equal(after.schedule[0].boards[0].result, 'draw');
    assert.equal(after.state, 'over');
    // A double forfeit ends a game with no winner.
    const p = await startedPair(srv.port);
    p.e.org.send({ type: 'event_result', event: p.e.id, token: p.e.token, round: 1, board: 1, result: 'double_forfeit' });
    const st = await p.white.untilState((s) => s.game.over);
    assert.equal(st.game.reason, 'organiser');
    assert.equal(st.game.winner, null);
    for (const c of [white, black, p.white, p.black, e.org, p.e.org]) c.close();
  } finally {
    await stopServer(srv);
  }
});

test("a board's game cannot be aborted; a withdrawal's forfeit ends it in its room", async () => {
  const srv = await startServer(ARGS);
  try {
    const { e, white, black } = await startedPair(srv.port);
    white.send({ type: 'abort' });
    await untilError(white, 'event_game');
    black.send({ type: 'abort' });
    await untilError(black, 'event_game');
    const ev = await asPlayer(srv.port, e.id, null);
    assert.equal(ev.schedule[0].boards[0].result, null);
    // The organiser records the no-show: both see it at once.
    e.org.send({ type: 'event_result', event: e.id, token: e.token, round: 1, board: 1, result: 'white_forfeit' });
    const st = await black.untilState((s) => s.game.over);
    assert.equal(st.game.reason, 'organiser');
    assert.equal(st.game.winner, 'south');
    for (const c of [white, black, e.org]) c.close();
  } finally {
    await stopServer(srv);
  }
});
