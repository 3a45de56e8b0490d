// evlib.mjs: what the club events' tests and benches share: events
// created, entries, a player's view, rooms held, and the big Swiss of the
// scale, load and stall runs with their server flags.
import assert from 'node:assert/strict';
import { Client, httpGet } from './lib.mjs';

export const ARGS = ['--max-conns-per-ip', '400', '--joins-per-ip-per-min', '1000000', '--max-msgs-per-sec', '100000'];

export async function untilEvent(c, pred = () => true, what = 'event') {
  for (;;) {
    const m = await c.next(60000);
    if (m.type === 'error') throw new Error('error ' + JSON.stringify(m));
    if (m.type === what && pred(m)) return m;
  }
}

export async function createEvent(port, fields, opts = {}) {
  const org = await Client.open(port, { localAddress: opts.localAddress });
  org.send({ type: 'event_create', title: 'Club', kind: 'oware', format: 'swiss', rounds: 3, ...fields });
  const w = await org.expect('event_welcome');
  let ev = await org.expect('event');
  if (!opts.keepEntries) {
    // One address enters every player of these tests (the default is 8).
    org.send({ type: 'event_entries', event: w.event, token: w.token, per_address: 256 });
    ev = await untilEvent(org, (v) => v.per_address === 256);
  }
  return { org, id: w.event, token: w.token, ev };
}

// n players entered from one connection (each join's welcome kept).
export async function enterMany(port, id, n, prefix = 'P') {
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

// The next error, states and events before it skipped.
export async function untilError(c, code) {
  for (;;) {
    const m = await c.next();
    if (m.type === 'state' || m.type === 'event') continue;
    assert.equal(m.type, 'error', JSON.stringify(m));
    assert.equal(m.code, code, JSON.stringify(m));
    return m;
  }
}

// The event as a token's holder sees it: the shared view with its own
// part (`you`, sent apart as event_you) put back in.
export async function asPlayer(port, id, token) {
  const c = await Client.open(port);
  c.send({ type: 'event_watch', event: id, token });
  const ev = await untilEvent(c);
  const own = token ? await untilEvent(c, () => true, 'event_you') : {};
  c.close();
  return { ...ev, you: own.you };
}

export async function seat(port, game) {
  const c = await Client.open(port);
  c.send({ type: 'join', room: game.room, token: game.token });
  await c.expect('welcome');
  await c.expect('state');
  return c;
}

// A two-player event started: its organiser, both players seated in
// their board's room (white south, black north).
export async function startedPair(port, fields = {}) {
  const e = await createEvent(port, { rounds: 1, ...fields });
  const [p0, p1] = await enterMany(port, e.id, 2);
  e.org.send({ type: 'event_start', event: e.id, token: e.token });
  const ev = await untilEvent(e.org, (v) => v.state === 'running' && !v.pairing);
  const g0 = (await asPlayer(port, e.id, p0.token)).you.game;
  const g1 = (await asPlayer(port, e.id, p1.token)).you.game;
  const [w, b] = g0.side === 'south' ? [g0, g1] : [g1, g0];
  return { e, ev, white: await seat(port, w), black: await seat(port, b), room: g0.room };
}

export async function metric(port, name) {
  const text = await (await httpGet(port, '/metrics')).text();
  const m = text.match(new RegExp(`^${name} (\\d+)$`, 'm'));
  return m ? Number(m[1]) : null;
}

// A room created by a connection that stays (it never makes way).
export async function heldRoom(port, localAddress) {
  const c = await Client.open(port, { localAddress });
  c.send({ type: 'create', side: 'south' });
  const w = await c.next();
  if (w.type === 'error') return { c, error: w };
  await c.expect('state');
  return { c, room: w.room };
}


// The server's flags for the runs with a big event: many connections and
// joins from the loopback address, no budget on the organiser's changes
// or views (each test sets the one it tests); one address creates the
// event, and its 128 boards count against it.
export const SCALE_ARGS = ['--max-conns-per-ip', '400', '--joins-per-ip-per-min', '100000',
  '--max-msgs-per-sec', '10000', '--event-changes-per-min', '0', '--event-views-per-ip-per-min', '0',
  '--max-rooms-per-ip', '1000', '--max-rooms-per-net', '1000'];
// ... and for a pairing beside a clocked room (stall.test, the stall
// bench): more of everything, and a deeper queue for the 256 followers.
export const STALL_ARGS = ['--max-conns-per-ip', '600', '--joins-per-ip-per-min', '100000',
  '--max-msgs-per-sec', '100000', '--rooms-per-ip-per-min', '100000', '--max-queue', '1024',
  '--max-rooms-per-ip', '1000', '--max-rooms-per-net', '1000',
  '--event-changes-per-min', '0', '--event-views-per-ip-per-min', '0'];

// A name of 24 characters for entry i (names make most of a view).
const nameOf = (i) => `Player ${String(i).padStart(3, '0')} of the club`.padEnd(24, '.').slice(0, 24);

// A Swiss of `players` entered from connections of their own, 16 at a
// time, from one address (the organiser allows it): the organiser's
// client, the event's id and token, and the players' tokens by entry.
export async function bigSwiss(port, { players = 256, rounds = 9, auto = true } = {}) {
  const org = await Client.open(port);
  org.send({ type: 'event_create', title: 'A big club night <script>', kind: 'oware', format: 'swiss',
    rounds, clock: null, auto });
  const w = await org.expect('event_welcome');
  const id = w.event, token = w.token;
  org.send({ type: 'event_entries', event: id, token, per_address: 256 });
  await untilEvent(org, (e) => e.per_address === 256);
  const tokens = [];
  for (let i = 0; i < players; i += 16) {
    const batch = [];
    for (let j = i; j < Math.min(players, i + 16); j++) {
      batch.push((async () => {
        const c = await Client.open(port);
        c.send({ type: 'event_join', event: id, name: nameOf(j) });
        const pw = await c.expect('event_welcome');
        c.close();
        tokens[pw.entry] = pw.token;
      })());
    }
    await Promise.all(batch);
  }
  await untilEvent(org, (e) => e.players.length === players);
  return { org, id, token, tokens };
}
