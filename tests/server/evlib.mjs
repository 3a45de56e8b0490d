// evlib.mjs: what the club events' budget tests share (events-budget and
// events-scale): events created, entries, a player's view, rooms held.
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

