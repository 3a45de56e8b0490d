// events.test.mjs: club events through the protocol (PROTOCOL.md "Club
// events"): a 30-player, 7-round Swiss and a 9-player double round robin
// played to the end with random results (room games, draws, forfeits, a
// withdrawal, a late entry), each round's pairing checked against the
// pairing module (build/pair_trf on the event's own TRF) or the Berger
// tables, the standings against a computation of this test; a kill -9 in
// the middle of a round; the exports; bad input refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { startServer, stopServer, Client, httpGet, tempDir, storeQuery, sqliteOnly } from './lib.mjs';

const PAIR_TRF = resolve(process.env.PAIR_TRF || 'build/pair_trf');
const ARGS = ['--max-conns-per-ip', '400', '--joins-per-ip-per-min', '100000', '--max-msgs-per-sec', '10000'];

// A small deterministic random source (the runs repeat).
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

async function untilEvent(c, pred = () => true) {
  for (;;) {
    const m = await c.next();
    if (m.type === 'error') throw new Error('error ' + JSON.stringify(m));
    if (m.type === 'event' && pred(m)) return m;
  }
}

// The `event_you` that follows the event a socket with a token gets
// (its own part of the view), as ev.you.
async function withYou(c, ev) {
  const y = await c.expect('event_you');
  assert.equal(y.event, ev.event);
  assert.equal(y.version, ev.version);
  return { ...ev, you: y.you };
}

async function createEvent(port, fields) {
  const org = await Client.open(port);
  org.send({ type: 'event_create', ...fields });
  const w = await org.expect('event_welcome');
  assert.equal(w.role, 'organiser');
  assert.equal(w.token.length, 43);
  const ev = await withYou(org, await org.expect('event'));
  assert.equal(ev.you.role, 'organiser');
  return { org, id: w.event, token: w.token, ev };
}

// The organiser lets one address enter up to 256 players (all of this
// test's come from 127.0.0.1; the default is 8).
async function allowEntries(o) {
  o.org.send({ type: 'event_entries', event: o.id, token: o.token, per_address: 256 });
  return untilEvent(o.org, (e) => e.per_address === 256);
}

async function enter(port, id, name) {
  const c = await Client.open(port);
  c.send({ type: 'event_join', event: id, name });
  const w = await c.expect('event_welcome');
  assert.equal(w.role, 'player');
  const ev = await withYou(c, await c.expect('event'));
  assert.equal(ev.you.entry, w.entry);
  c.close();
  return { name, entry: w.entry, token: w.token };
}

// Sends an organiser's message and waits for the event to reach version
// v + 1 (every action changes it once, twice when it also pairs).
async function act(org, msg, pred) {
  org.send(msg);
  return untilEvent(org, pred);
}

// The event as a player with token sees it (you.game: the seat token).
async function asPlayer(port, id, token) {
  const c = await Client.open(port);
  c.send({ type: 'event_watch', event: id, token });
  const ev = await withYou(c, await untilEvent(c));
  c.close();
  return ev;
}

// Plays board's game in its room: white resigns (black wins), black
// resigns, or both agree a draw. Returns the result the event must show.
async function playInRoom(port, id, white, black, how) {
  const gw = (await asPlayer(port, id, white.token)).you.game;
  const gb = (await asPlayer(port, id, black.token)).you.game;
  assert.equal(gw.room, gb.room);
  assert.equal(gw.side, 'south');
  assert.equal(gb.side, 'north');
  const cw = await Client.open(port);
  cw.send({ type: 'join', room: gw.room, token: gw.token });
  assert.equal((await cw.expect('welcome')).seat, 'south');
  const st = await cw.expect('state');
  assert.equal(st.event, id);
  if (how === 'draw') {
    const cb = await Client.open(port);
    cb.send({ type: 'join', room: gb.room, token: gb.token });
    assert.equal((await cb.expect('welcome')).seat, 'north');
    await cb.expect('state');
    cw.send({ type: 'draw', action: 'offer' });
    await cb.untilState((s) => s.draw_offer === 'south');
    cb.send({ type: 'draw', action: 'accept' });
    const end = await cb.untilState((s) => s.game.over);
    assert.equal(end.game.winner, 'draw');
    cb.send({ type: 'rematch', action: 'offer' });
    await cb.expectError('event_game');
    cb.close();
  } else if (how === 'white') {
    const cb = await Client.open(port);
    cb.send({ type: 'join', room: gb.room, token: gb.token });
    await cb.expect('welcome');
    await cb.expect('state');
    cb.send({ type: 'resign' });
    await cb.untilState((s) => s.game.over);
    cb.close();
  } else {
    cw.send({ type: 'resign' });
    await cw.untilState((s) => s.game.over);
  }
  cw.close();
  return how;
}

// ---- an independent computation of points and tie-breaks ----

const PTS = { white: [1, 0], black: [0, 1], draw: [0.5, 0.5], white_forfeit: [1, 0],
  black_forfeit: [0, 1], double_forfeit: [0, 0] };

// Each player's rounds: [{opp, score, played, unplayed}] by entry.
function histories(ev) {
  const h = new Map(ev.players.filter((p) => p.number).map((p) => [p.entry, []]));
  for (const r of ev.schedule) {
    if (r.boards.some((b) => b.result === null)) continue;
    const seen = new Set();
    for (const b of r.boards) {
      if (b.black === null) {
        h.get(b.white).push({ opp: null, score: b.result === 'bye' ? 1 : 0, played: false });
        seen.add(b.white);
        continue;
      }
      const [sw, sb] = PTS[b.result];
      const played = !b.result.includes('forfeit');
      h.get(b.white).push({ opp: b.black, score: sw, played });
      h.get(b.black).push({ opp: b.white, score: sb, played });
      seen.add(b.white).add(b.black);
    }
    for (const p of ev.players) {
      if (!p.number || seen.has(p.entry)) continue;
      // Not paired this round: a late entry's missed round (H, ½) or a
      // withdrawn player's (Z, 0).
      const late = r.round <= p.late;
      h.get(p.entry).push({ opp: null, score: late ? 0.5 : 0, played: false });
    }
  }
  return h;
}

function points(h) {
  return new Map([...h].map(([e, rs]) => [e, rs.reduce((a, r) => a + r.score, 0)]));
}

// ---- C.07 before 2023 (rules fide_2017) ----

// Swiss Buchholz and Cut-1 with docs/events.md's virtual opponent.
function buchholz2009(h) {
  const n = [...h.values()][0]?.length || 0;
  const adj = new Map([...h].map(([e, rs]) => [e, rs.reduce((a, r) => a + (r.played ? r.score : 0.5), 0)]));
  const out = new Map();
  for (const [e, rs] of h) {
    const vals = [];
    let before = 0;
    rs.forEach((r, i) => {
      if (r.played) vals.push(adj.get(r.opp));
      else vals.push(before + (1 - r.score) + 0.5 * (n - (i + 1)));
      before += r.score;
    });
    const sum = vals.reduce((a, v) => a + v, 0);
    out.set(e, { bh: sum, cut1: vals.length ? sum - Math.min(...vals) : 0 });
  }
  return out;
}

// Round robin Sonneborn-Berger: forfeits count as games against the
// opponent's actual points; the bye counts nothing (both rule sets).
function sonnebornRR(h, pts) {
  return new Map([...h].map(([e, rs]) => [e, rs.reduce((a, r) => a + (r.opp === null ? 0 : r.score * pts.get(r.opp)), 0)]));
}

// ---- C.07 of 2024 (rules fide_2025), docs/events.md "Standings" ----

// A voluntary unplayed round (16.1.2): a bye of ½ or 0, a forfeit lost.
const vur = (r) => !r.played && r.score < 1;

// Art. 16.3: an opponent counts a player at his points, except that a
// bye of ½ or 0 followed only by VURs (or in the last round) is a draw.
function adjusted2024(h) {
  return new Map([...h].map(([e, rs]) => {
    let last = 0;
    rs.forEach((r, i) => { if (!vur(r)) last = i + 1; });
    return [e, rs.reduce((a, r, i) => a + (r.opp === null && r.score < 1 && i >= last ? 0.5 : r.score), 0)];
  }));
}

// Swiss BH, BH-C1 and SB: an unplayed round a dummy of the player's own
// points (16.4); Cut-1 cuts a VUR's value first (16.5).
function swiss2024(h, pts) {
  const adj = adjusted2024(h), out = new Map();
  for (const [e, rs] of h) {
    const vals = rs.map((r) => (r.played ? adj.get(r.opp) : pts.get(e)));
    const bh = vals.reduce((a, v) => a + v, 0);
    const cut = rs.some(vur) ? pts.get(e) : Math.min(...vals);
    const sb = rs.reduce((a, r, i) => a + r.score * vals[i], 0);
    out.set(e, { bh, cut1: vals.length ? bh - cut : 0, sb });
  }
  return out;
}

// Art. 6 among the players g: 6.2 when all have met, their points among
// them (an opponent met twice counts the average, 6.1.2) rank them and
// each set still level is ranked again; 6.3 when not, the best is placed
// only when out of the others' reach (a win for each game not played),
// and Art. 6 applies again to the rest. A value: the players of the
// group placed below.
function deRank(g, avg, base, out) {
  const de = new Map(), max = new Map();
  let all = true;
  for (const e of g) {
    let s = 0, m = 0;
    for (const o of g) {
      if (o === e) continue;
      const a = avg(e, o);
      s += a ?? 0;
      m += a ?? 1;
    }
    de.set(e, s);
    max.set(e, m);
    if (s !== m) all = false;
  }
  const ord = [...g].sort((a, b) => de.get(b) - de.get(a) || max.get(b) - max.get(a));
  if (g.length >= 2 && all && de.get(ord[0]) !== de.get(ord[ord.length - 1])) {
    for (let p = 0; p < ord.length;) {
      let q = p + 1;
      while (q < ord.length && de.get(ord[q]) === de.get(ord[p])) q++;
      deRank(ord.slice(p, q), avg, base + ord.length - q, out);
      p = q;
    }
    return;
  }
  const reach = Math.max(0, ...ord.slice(1).map((e) => max.get(e)));
  if (g.length >= 2 && !all && de.get(ord[0]) > reach) {
    out.set(ord[0], base + g.length - 1);
    deRank(ord.slice(1), avg, base, out);
    return;
  }
  for (const e of g) out.set(e, base);
}

// The direct encounter of each group tied on `key`, counting the games
// `counts` keeps.
function directEncounter2024(h, key, counts) {
  const groups = new Map();
  for (const e of h.keys()) {
    const k = key(e);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(e);
  }
  const avg = (e, o) => {
    const games = h.get(e).filter((r) => r.opp === o && counts(r));
    return games.length ? games.reduce((a, r) => a + r.score, 0) / games.length : null;
  };
  const out = new Map();
  for (const g of groups.values()) deRank(g, avg, 0, out);
  return out;
}

// Round robin: WIN (7.1), KS (9.2: points against those with half their
// games' points or more).
function wins2024(h) {
  return new Map([...h].map(([e, rs]) => [e, rs.filter((r) => r.score === 1).length]));
}
function koya2024(h, pts) {
  const games = new Map([...h].map(([e, rs]) => [e, rs.filter((r) => r.opp !== null).length]));
  return new Map([...h].map(([e, rs]) => [e, rs.reduce((a, r) =>
    a + (r.opp !== null && pts.get(r.opp) >= games.get(r.opp) / 2 ? r.score : 0), 0)]));
}

// The tie-breaks the server should give each entry, in its order.
function expectedTiebreaks(ev, h, pts) {
  const old = ev.rules === 'fide_2017', swiss = ev.format === 'swiss';
  if (old && swiss) {
    const bh = buchholz2009(h);
    return { names: ['buchholz_cut1', 'buchholz', 'sonneborn_berger', 'seeds'],
      of: (e) => [bh.get(e).cut1, bh.get(e).bh] };
  }
  const sb = sonnebornRR(h, pts);
  if (old) return { names: ['sonneborn_berger', 'direct_encounter', 'seeds'], of: (e) => [sb.get(e)] };
  if (swiss) {
    const t = swiss2024(h, pts);
    const de = directEncounter2024(h, (e) => `${pts.get(e)} ${t.get(e).cut1} ${t.get(e).bh}`, (r) => r.played);
    return { names: ['buchholz_cut1', 'buchholz', 'direct_encounter', 'sonneborn_berger', 'seeds'],
      of: (e) => [t.get(e).cut1, t.get(e).bh, de.get(e), t.get(e).sb] };
  }
  const de = directEncounter2024(h, (e) => `${pts.get(e)}`, (r) => r.opp !== null);
  const win = wins2024(h), ks = koya2024(h, pts);
  return { names: ['direct_encounter', 'number_of_wins', 'sonneborn_berger', 'koya', 'seeds'],
    of: (e) => [de.get(e), win.get(e), sb.get(e), ks.get(e)] };
}

function checkStandings(ev) {
  const h = histories(ev);
  const pts = points(h);
  for (const s of ev.standings) assert.equal(s.points, pts.get(s.entry), `points of entry ${s.entry}`);
  const want = expectedTiebreaks(ev, h, pts);
  assert.deepEqual(ev.tiebreaks, want.names);
  for (const s of ev.standings) {
    want.of(s.entry).forEach((v, i) =>
      assert.equal(s.tiebreaks[i], v, `${ev.tiebreaks[i]} of entry ${s.entry} (${ev.rules})`));
  }
  // Best first: points, then the tie-breaks in order.
  for (let i = 1; i < ev.standings.length; i++) {
    const a = ev.standings[i - 1], b = ev.standings[i];
    const ka = [a.points, ...a.tiebreaks], kb = [b.points, ...b.tiebreaks];
    const k = ka.findIndex((v, j) => v !== kb[j]);
    assert.ok(k < 0 || ka[k] > kb[k], `standings order at ${i}: ${JSON.stringify(a)} before ${JSON.stringify(b)}`);
  }
}

// ---- pairings against the module ----

// The next round as pair_trf (server/rules/pair_dutch.c alone) pairs the event's
// TRF, withdrawn players marked absent for that round: [[white, black]]
// by starting rank (black 0: the bye).
async function modulePairing(port, ev) {
  let trf = await (await httpGet(port, `/api/events/${ev.event}/trf`)).text();
  const withdrawn = new Set(ev.players.filter((p) => p.withdrawn && p.number).map((p) => p.number));
  trf = trf.split(/\r?\n/).map((line) => {
    if (!line.startsWith('001') || !withdrawn.has(Number(line.slice(4, 8)))) return line;
    const at = 91 + 10 * ev.round;
    return line.padEnd(at, ' ') + '0000 - Z';
  }).join('\n');
  const file = join(tempDir(), 'event.trf');
  writeFileSync(file, trf);
  const lines = execFileSync(PAIR_TRF, [file]).toString().trim().split('\n');
  return lines.slice(1).map((l) => l.trim().split(/\s+/).map(Number));
}

function serverPairing(ev, round) {
  const num = (e) => (e === null ? 0 : ev.players[e].number);
  return ev.schedule[round - 1].boards.map((b) => [num(b.white), num(b.black)]);
}

// The Berger table's pairs of round r (unordered) for n players.
function berger(n, r) {
  const m = n % 2 ? n + 1 : n, k = m - 1, pairs = [];
  for (let a = 1; a <= k; a++) {
    for (let b = a + 1; b <= k; b++) if ((a + b) % k === (r + 1) % k) pairs.push([a, b]);
    if ((2 * a) % k === (r + 1) % k) pairs.push([a, m]);
  }
  return pairs.filter(([a, b]) => a <= n && b <= n).map((p) => p.sort((x, y) => x - y).join('-')).sort();
}

// Gives every board of the current round without a result one, by the
// rooms or the organiser, at random; returns the event after it.
async function finishRound(port, o, players, rand, { roomGames = 2 } = {}) {
  let ev = o.last;
  const round = ev.round;
  const boards = ev.schedule[round - 1].boards.filter((b) => b.result === null && b.black !== null);
  let inRooms = 0;
  for (const b of boards) {
    const white = players.get(b.white), black = players.get(b.black);
    const x = rand();
    if (inRooms < roomGames && x < 0.5) {
      inRooms++;
      const how = ['white', 'black', 'draw'][Math.floor(rand() * 3)];
      await playInRoom(port, o.id, white, black, how);
      ev = await untilEvent(o.org, (e) => e.schedule[round - 1].boards[b.board - 1].result !== null);
      const got = ev.schedule[round - 1].boards[b.board - 1];
      assert.equal(got.result, how);
      assert.equal(got.by, 'room');
      assert.ok(Array.isArray(got.seeds));
    } else {
      const result = x < 0.7 ? 'white' : x < 0.8 ? 'draw' : x < 0.93 ? 'black'
        : x < 0.97 ? 'white_forfeit' : x < 0.99 ? 'black_forfeit' : 'double_forfeit';
      const seeds = result.includes('forfeit') ? null : [20 + Math.floor(rand() * 10), 18];
      ev = await act(o.org, { type: 'event_result', event: o.id, token: o.token, round, board: b.board, result, seeds },
        (e) => e.schedule[round - 1].boards[b.board - 1].result === result);
      assert.equal(ev.schedule[round - 1].boards[b.board - 1].by, 'organiser');
    }
  }
  o.last = ev;
  return ev;
}

// Each event of the two below runs under the rules in force (C.07 of
// 2024) and under the older ones (C.07 before 2023), which it keeps.
const RULES = [{ name: 'the rules in force' }, { name: 'the 2017 rules', rules: 'fide_2017' }];

for (const { name, rules } of RULES) test(`a 30-player, 7-round Swiss (${name}): pairings of the module, standings, a late entry and a withdrawal`, async () => {
  const srv = await startServer(ARGS);
  try {
    const rand = rng(41);
    const o = await createEvent(srv.port, { title: 'Thursday Swiss', kind: 'oware', format: 'swiss', rounds: 7,
      clock: { initial: 600, increment: 5 }, auto: false, ...(rules ? { rules } : {}) });
    assert.equal(o.ev.rules, rules || 'fide_2025');
    await allowEntries(o);
    assert.equal(o.ev.state, 'entry');
    assert.equal(o.ev.join_open, true);
    const players = new Map();
    for (let i = 0; i < 30; i++) {
      const p = await enter(srv.port, o.id, `Player ${i + 1}`);
      players.set(p.entry, p);
    }
    // A name taken (ASCII case ignored) is refused and changes nothing.
    const dup = await Client.open(srv.port);
    dup.send({ type: 'event_join', event: o.id, name: 'player 3' });
    await dup.expectError('name_taken');
    dup.close();
    o.last = await untilEvent(o.org, (e) => e.players.length === 30);
    // Only the organiser starts.
    const p1 = await Client.open(srv.port);
    p1.send({ type: 'event_start', event: o.id, token: players.get(0).token });
    await p1.expectError('not_organiser');
    p1.close();
    o.last = await act(o.org, { type: 'event_start', event: o.id, token: o.token }, (e) => e.round === 1);
    assert.equal(o.last.state, 'running');
    assert.equal(o.last.schedule[0].boards.length, 15);
    for (let round = 1; round <= 7; round++) {
      if (round > 1) {
        const want = await modulePairing(srv.port, o.last);
        o.last = await act(o.org, { type: 'event_next', event: o.id, token: o.token }, (e) => e.round === round);
        assert.deepEqual(serverPairing(o.last, round), want, `round ${round}'s pairing`);
      }
      if (round === 2) {
        // A late entry: a half-point bye for each round started.
        const late = await enter(srv.port, o.id, 'Late Comer');
        players.set(late.entry, late);
        o.last = await untilEvent(o.org, (e) => e.players.length === 31);
        assert.equal(o.last.players[late.entry].late, 2);
      }
      if (round === 3) {
        // A withdrawal: his game of the round is lost by forfeit.
        const quitter = players.get(o.last.schedule[2].boards[0].white);
        const c = await Client.open(srv.port);
        c.send({ type: 'event_withdraw', event: o.id, token: quitter.token });
        const ev = await untilEvent(c, (e) => e.players[quitter.entry].withdrawn);
        assert.equal(ev.schedule[2].boards[0].result, 'black_forfeit');
        c.close();
        o.last = await untilEvent(o.org, (e) => e.players[quitter.entry].withdrawn);
      }
      if (round === 4) {
        const c = await Client.open(srv.port);
        c.send({ type: 'event_join', event: o.id, name: 'Too Late' });
        await c.expectError('entries_closed');
        c.close();
      }
      await finishRound(srv.port, o, players, rand, { roomGames: round <= 2 ? 2 : 0 });
      checkStandings(o.last);
    }
    o.last = await act(o.org, { type: 'event_next', event: o.id, token: o.token }, (e) => e.state === 'over');
    checkStandings(o.last);
    assert.equal(o.last.standings.length, 31);
    // The random results covered what a club sees: every kind of result.
    const seen = new Set(o.last.schedule.flatMap((r) => r.boards.map((b) => b.result)));
    for (const r of ['white', 'black', 'draw', 'white_forfeit', 'black_forfeit', 'bye']) assert.ok(seen.has(r), r);
    // The exports.
    const csv = await httpGet(srv.port, `/api/events/${o.id}/csv`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type'), /^text\/csv/);
    assert.match(csv.headers.get('content-disposition'), new RegExp(`attachment; filename="${o.id}.csv"`));
    const rows = (await csv.text()).split('\r\n').filter(Boolean);
    assert.equal(rows[0], `place,number,name,points,${rules ? 'buchholz_cut1,buchholz,sonneborn_berger' :
      'buchholz_cut1,buchholz,direct_encounter,sonneborn_berger'},seeds,games,wins,draws,losses,withdrawn`);
    assert.equal(rows.length, 32);
    const json = await (await httpGet(srv.port, `/api/events/${o.id}`)).json();
    assert.equal(json.you, undefined);
    assert.deepEqual(json.standings, o.last.standings);
    assert.equal((await httpGet(srv.port, '/api/events/00000000-0000-0000-0000-000000000000')).status, 404);
    o.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

for (const { name, rules } of RULES) test(`a 9-player double round robin (${name}): the Berger tables, a withdrawal, the standings`, async () => {
  const srv = await startServer(ARGS);
  try {
    const rand = rng(7);
    const o = await createEvent(srv.port, { title: 'Togyz double', kind: 'togyz', format: 'double_round_robin',
      ...(rules ? { rules } : {}) });
    await allowEntries(o);
    const players = new Map();
    for (let i = 0; i < 9; i++) {
      const p = await enter(srv.port, o.id, `Ойыншы ${i + 1}`);
      players.set(p.entry, p);
    }
    o.last = await act(o.org, { type: 'event_start', event: o.id, token: o.token }, (e) => e.round === 1);
    assert.equal(o.last.rounds, 18);
    const late = await Client.open(srv.port);
    late.send({ type: 'event_join', event: o.id, name: 'Late' });
    await late.expectError('event_state');
    late.close();
    let round = 1;
    while (o.last.state === 'running') {
      round = o.last.round;
      const ev = o.last;
      const pairs = ev.schedule[round - 1].boards.filter((b) => b.black !== null)
        .map((b) => [ev.players[b.white].number, ev.players[b.black].number].sort((x, y) => x - y).join('-')).sort();
      assert.deepEqual(pairs, berger(9, round > 9 ? round - 9 : round), `round ${round}`);
      const bye = ev.schedule[round - 1].boards.filter((b) => b.black === null);
      assert.equal(bye.length, 1);
      assert.equal(bye[0].result, 'rr_bye');
      if (round > 9) {
        // The second cycle is the first with the colours swapped.
        const first = ev.schedule[round - 10].boards.filter((b) => b.black !== null).map((b) => `${b.black}-${b.white}`).sort();
        const now = ev.schedule[round - 1].boards.filter((b) => b.black !== null).map((b) => `${b.white}-${b.black}`).sort();
        assert.deepEqual(now, first);
      }
      if (round === 12) {
        const c = await Client.open(srv.port);
        c.send({ type: 'event_withdraw', event: o.id, token: players.get(4).token });
        await untilEvent(c, (e) => e.players[4].withdrawn);
        c.close();
        o.last = await untilEvent(o.org, (e) => e.players[4].withdrawn);
      }
      await finishRound(srv.port, o, players, rand, { roomGames: round <= 2 ? 1 : 0 });
      // auto: the next round (or the end) comes by itself.
      const next = (e) => e.round > round || e.state === 'over';
      if (!next(o.last)) o.last = await untilEvent(o.org, next);
      checkStandings(o.last);
    }
    assert.equal(round, 18);
    // A withdrawn player's games after he left are forfeits won by his opponents.
    for (const r of o.last.schedule.slice(12)) {
      for (const b of r.boards) {
        if (b.black === null) continue;
        if (b.white === 4) assert.equal(b.result, 'black_forfeit');
        if (b.black === 4) assert.equal(b.result, 'white_forfeit');
      }
    }
    const trf = await (await httpGet(srv.port, `/api/events/${o.id}/trf`)).text();
    assert.match(trf, /^012 Togyz double/m);
    assert.equal(trf.split('\n').filter((l) => l.startsWith('001')).length, 9);
    o.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('kill -9 in the middle of a round: entries, pairings and results are all there, nothing paired twice', async () => {
  let srv = await startServer(ARGS);
  const db = srv.db;
  const o = await createEvent(srv.port, { title: 'Crash', kind: 'oware', format: 'swiss', rounds: 3, auto: true });
  const players = new Map();
  for (let i = 0; i < 6; i++) {
    const p = await enter(srv.port, o.id, `P${i}`);
    players.set(p.entry, p);
  }
  o.last = await act(o.org, { type: 'event_start', event: o.id, token: o.token }, (e) => e.round === 1);
  const [b1, b2] = o.last.schedule[0].boards;
  o.last = await act(o.org, { type: 'event_result', event: o.id, token: o.token, round: 1, board: 1, result: 'draw', seeds: [24, 24] },
    (e) => e.schedule[0].boards[0].result === 'draw');
  await playInRoom(srv.port, o.id, players.get(b2.white), players.get(b2.black), 'black');
  o.last = await untilEvent(o.org, (e) => e.schedule[0].boards[1].result === 'black');
  const before = o.last;
  assert.equal((await stopServer(srv, 'SIGKILL')).signal, 'SIGKILL');

  srv = await startServer(ARGS, { db });
  const org = await Client.open(srv.port);
  org.send({ type: 'event_watch', event: o.id, token: o.token });
  let ev = await withYou(org, await untilEvent(org));
  assert.equal(ev.you.role, 'organiser');
  assert.deepEqual(ev.players, before.players);
  assert.deepEqual(ev.schedule, before.schedule);
  assert.equal(ev.version, before.version);
  assert.equal(ev.round, 1);
  // The player's game of board 3 is still reachable with its seat token.
  const b3 = ev.schedule[0].boards[2];
  const g = (await asPlayer(srv.port, o.id, players.get(b3.white).token)).you.game;
  assert.equal(g.room, b3.room);
  const c = await Client.open(srv.port);
  c.send({ type: 'join', room: g.room, token: g.token });
  assert.equal((await c.expect('welcome')).seat, 'south');
  c.close();
  org.send({ type: 'event_result', event: o.id, token: o.token, round: 1, board: 3, result: 'white', seeds: [30, 10] });
  ev = await untilEvent(org, (e) => e.round === 2);
  assert.equal(ev.schedule.length, 2);
  assert.equal(ev.schedule[0].boards[0].result, 'draw');
  org.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

// The seat token the server derived before (issue 49, item 12) from
// what the store holds: the player's token hash (event_log.tok) and the
// room's id.
function derivedSeat(tokHex, room) {
  return createHash('sha256').update(Buffer.concat([Buffer.from('evseat1:'),
    Buffer.from(tokHex, 'hex'), Buffer.from(room)])).digest('base64url');
}

// What a join of room with token gets: the seat, or the error code.
async function trySeat(port, room, token) {
  const c = await Client.open(port, { room });
  c.send({ type: 'join', room, token });
  const m = await c.next();
  c.close();
  return m.type === 'welcome' ? m.seat : m.type === 'error' ? m.code : m.type;
}

test('the rules: those in force unless the organiser asks for 2017\'s; an event made before the option keeps 2017\'s', sqliteOnly, async () => {
  const dir = tempDir(), db = join(dir, 'oware.db');
  let srv = await startServer(ARGS, { db });
  try {
    const now = await createEvent(srv.port, { title: 'Now', kind: 'oware', format: 'swiss', rounds: 3 });
    assert.equal(now.ev.rules, 'fide_2025');
    const old = await createEvent(srv.port, { title: 'Old', kind: 'oware', format: 'swiss', rounds: 3, rules: 'fide_2017' });
    assert.equal(old.ev.rules, 'fide_2017');
    const c = await Client.open(srv.port);
    for (const rules of ['fide_2024', 2017, true, ''])
      c.send({ type: 'event_create', title: 'x', kind: 'oware', format: 'swiss', rounds: 3, rules });
    for (let i = 0; i < 4; i++) await c.expectError('bad_message');
    c.close();
    assert.equal((await stopServer(srv)).code, 0);
    // What a server before the option stored: version 1 of the settings.
    storeQuery(db, `UPDATE events SET settings='1 oware 3 3 0 0 0 0 0 1' || char(10) || 'Now' WHERE id='${now.id}'`);
    srv = await startServer(ARGS, { db });
    const w = await Client.open(srv.port);
    for (const [o, rules] of [[now, 'fide_2017'], [old, 'fide_2017']]) {
      w.send({ type: 'event_watch', event: o.id });
      const ev = await untilEvent(w, (e) => e.event === o.id);
      assert.equal(ev.rules, rules);
    }
    w.close();
    assert.equal(storeQuery(db, `SELECT count(*) FROM events`), '2');
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('seat tokens: a copy of the store gives no seat; rounds paired before keep their derived tokens', sqliteOnly, async () => {
  const dir = tempDir(), db = join(dir, 'oware.db');
  let srv = await startServer(ARGS, { db });
  try {
    const o = await createEvent(srv.port, { title: 'Seats', kind: 'oware', format: 'round_robin' });
    const ama = await enter(srv.port, o.id, 'Ama');
    const kofi = await enter(srv.port, o.id, 'Kofi');
    o.org.send({ type: 'event_start', event: o.id, token: o.token });
    const ev = await untilEvent(o.org, (e) => e.round === 1);
    const board = ev.schedule[0].boards[0], room = board.room;
    const white = board.white === ama.entry ? ama : kofi, black = white === ama ? kofi : ama;
    // What a copy of the database holds: each join's token hash.
    const hashes = storeQuery(db, `SELECT hex(tok) FROM event_log WHERE event='${o.id}' AND tok IS NOT NULL ORDER BY seq`)
      .split('\n');
    assert.equal(hashes.length, 2);
    for (const h of hashes)
      assert.equal(await trySeat(srv.port, room, derivedSeat(h, room)), 'bad_token');
    // Each player's view gives the seat his own token takes.
    const seen = await asPlayer(srv.port, o.id, white.token);
    assert.equal(seen.you.game.room, room);
    assert.equal(seen.you.game.token, white.token);
    assert.equal(await trySeat(srv.port, room, seen.you.game.token), 'south');
    assert.equal(await trySeat(srv.port, room, (await asPlayer(srv.port, o.id, black.token)).you.game.token), 'north');
    o.org.close();
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });

    // An event stored before: its round written without the mark " t",
    // its room holding the hashes of the derived tokens.
    const derived = [white, black].map((p) => derivedSeat(hashes[p.entry], room));
    const sha = (t) => createHash('sha256').update(t).digest('hex');
    storeQuery(db, `UPDATE event_log SET body = replace(body, 'R 1 1 t', 'R 1 1') WHERE event='${o.id}'`);
    storeQuery(db, `UPDATE rooms SET tok_south = x'${sha(derived[0])}', tok_north = x'${sha(derived[1])}' WHERE id='${room}'`);
    srv = await startServer(ARGS, { db });
    const old = await asPlayer(srv.port, o.id, white.token);
    assert.equal(old.you.game.token, derived[0]);
    assert.equal(await trySeat(srv.port, room, derived[0]), 'south');
    assert.equal(await trySeat(srv.port, room, white.token), 'bad_token');
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('bad input is refused and changes nothing', async () => {
  const srv = await startServer(ARGS);
  try {
    const c = await Client.open(srv.port);
    const bad = [
      [{ type: 'event_create', title: 'x', kind: 'chess', format: 'swiss', rounds: 3 }, 'bad_message'],
      [{ type: 'event_create', title: 'x', kind: 'oware', format: 'swiss' }, 'bad_message'],
      [{ type: 'event_create', title: 'x', kind: 'oware', format: 'round_robin', rounds: 3 }, 'bad_message'],
      [{ type: 'event_create', title: 'x', kind: 'oware', format: 'swiss', rounds: 33 }, 'bad_message'],
      [{ type: 'event_create', title: '', kind: 'oware', format: 'swiss', rounds: 3 }, 'bad_message'],
      [{ type: 'event_create', title: 'x', kind: 'oware', format: 'swiss', rounds: 3, max_players: 1 }, 'bad_message'],
      [{ type: 'event_create', title: 'x', kind: 'oware', format: 'swiss', rounds: 3, clock: { south: 60, north: 120 } }, 'bad_message'],
      [{ type: 'event_watch', event: 'nope' }, 'no_event'],
    ];
    for (const [msg, code] of bad) {
      c.send(msg);
      await c.expectError(code);
    }
    const o = await createEvent(srv.port, { title: 'Checks', kind: 'oware', format: 'round_robin', max_players: 2 });
    const a = await enter(srv.port, o.id, 'Ama');
    c.send({ type: 'event_join', event: o.id, name: '' });
    await c.expectError('bad_message');
    c.send({ type: 'event_watch', event: o.id, token: 'x'.repeat(43) });
    await c.expectError('bad_token');
    c.send({ type: 'event_start', event: o.id, token: o.token });
    await c.expectError('too_few_players');
    await enter(srv.port, o.id, 'Kofi');
    c.send({ type: 'event_join', event: o.id, name: 'Third' });
    await c.expectError('event_full');
    c.send({ type: 'event_result', event: o.id, token: o.token, round: 1, board: 1, result: 'white' });
    await c.expectError('event_state');
    c.send({ type: 'event_result', event: o.id, token: o.token, round: 1, board: 1, result: 'won' });
    await c.expectError('bad_message');
    c.send({ type: 'event_withdraw', event: o.id, token: o.token });
    await c.expectError('bad_message'); // the organiser names the entry
    const ev = await asPlayer(srv.port, o.id, a.token);
    assert.equal(ev.players.length, 2);
    assert.equal(ev.state, 'entry');
    assert.equal(ev.version, 3);
    o.org.send({ type: 'event_start', event: o.id, token: o.token });
    await untilEvent(o.org, (e) => e.round === 1);
    for (const [round, board] of [[1, 2], [2, 1]]) {
      c.send({ type: 'event_result', event: o.id, token: o.token, round, board, result: 'white' });
      await c.expectError('bad_board');
    }
    c.send({ type: 'event_next', event: o.id, token: o.token });
    await c.expectError('round_pending');
    // A connection following an event may not enter a room.
    c.send({ type: 'event_watch', event: o.id });
    await untilEvent(c);
    c.send({ type: 'create', side: 'south' });
    await c.expectError('already_joined');
    c.close();
    o.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

// Issue 49, item 9: a name that looks like a player's is that name
// (name_taken), a word the event page, TRF and CSV use is no name
// (name_reserved), a side's look-alike is a bad name as in rooms; each
// changes nothing, and honest distinct names enter.
test('look-alike names and the event\'s own words are refused and change nothing', async () => {
  const srv = await startServer(ARGS);
  try {
    const o = await createEvent(srv.port, { title: 'Names', kind: 'oware', format: 'swiss', rounds: 5 });
    const a = await enter(srv.port, o.id, 'Ama');
    await enter(srv.port, o.id, 'Jos\u00e9');
    await enter(srv.port, o.id, 'Kofi');
    const c = await Client.open(srv.port);
    const taken = ['\u0410m\u0430', '\u0391ma', '\uff21\uff4d\uff41', '\u{1D400}ma', 'Jose\u0301', 'Jose',
      'Kofi\u3164', 'K0fi'];
    for (const name of taken) {
      c.send({ type: 'event_join', event: o.id, name });
      assert.match((await c.expectError('name_taken')).message, /taken/, name);
    }
    const words = ['bye', '(bye)', 'organiser', 'withdrawn', 'white_forfeit', 'Draw', '1-0', '?',
      'Ama (withdrawn)', 'Tablas', '\u041d\u0438\u0447\u044c\u044f'];
    for (const name of words) {
      c.send({ type: 'event_join', event: o.id, name });
      assert.match((await c.expectError('name_reserved')).message, /word of the event/, name);
    }
    c.send({ type: 'event_join', event: o.id, name: '\u0405\u043euth' });   // Ѕоuth, Cyrillic
    assert.match((await c.expectError('bad_message')).message, /^name: reads as the name of a side \(South\)$/);
    c.send({ type: 'event_join', event: o.id, name: '\u049a\u0430\u0440\u0430\u043b\u0430\u0440' }); // Қаралар
    assert.match((await c.expectError('bad_message')).message, /^name: reads as the name of a side/);
    let ev = await asPlayer(srv.port, o.id, a.token);
    assert.deepEqual(ev.players.map((p) => p.name), ['Ama', 'Jos\u00e9', 'Kofi']);
    assert.equal(ev.version, 4);
    for (const name of ['Amma', 'Byers', 'Lo'])
      await enter(srv.port, o.id, name);
    ev = await asPlayer(srv.port, o.id, a.token);
    assert.deepEqual(ev.players.map((p) => p.name), ['Ama', 'Jos\u00e9', 'Kofi', 'Amma', 'Byers', 'Lo']);
    c.close();
    o.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('limits: events held in all and per address', async () => {
  const srv = await startServer([...ARGS, '--max-events', '3', '--max-events-per-ip', '2']);
  try {
    const fields = { title: 'Limit', kind: 'oware', format: 'swiss', rounds: 3 };
    const a = await createEvent(srv.port, fields);
    await createEvent(srv.port, fields);
    const c = await Client.open(srv.port);
    c.send({ type: 'event_create', ...fields });
    assert.match((await c.expectError('too_many_events')).message, /this address/);
    c.close();
    const other = await Client.open(srv.port, { localAddress: '127.0.0.2' });
    other.send({ type: 'event_create', ...fields });
    await other.expect('event_welcome');
    await other.expect('event');
    other.close();
    // Full: nothing idle long enough to make way; the first event is still there.
    const d = await Client.open(srv.port, { localAddress: '127.0.0.3' });
    d.send({ type: 'event_create', ...fields });
    assert.match((await d.expectError('too_many_events')).message, /maximum of events/);
    d.send({ type: 'event_watch', event: a.id });
    assert.equal((await untilEvent(d)).event, a.id);
    d.close();
    const metrics = await (await httpGet(srv.port, '/metrics')).text();
    assert.match(metrics, /^oware_events 3$/m);
    assert.match(metrics, /^oware_events_created_total 3$/m);
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

// A GET from another loopback address (for the per-address budgets).
function getFrom(port, path, { localAddress = '127.0.0.1', headers = {} } = {}) {
  return new Promise((res, rej) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, localAddress, headers }, (r) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (d) => { body += d; });
      r.on('end', () => res({ status: r.statusCode, headers: r.headers, body }));
    });
    req.on('error', rej);
    req.end();
  });
}

test('every follower gets the same view; a token\'s own part comes apart in event_you, only when it changed', async () => {
  const srv = await startServer(ARGS);
  try {
    const o = await createEvent(srv.port, { title: 'Shared', kind: 'oware', format: 'swiss', rounds: 3 });
    const ps = [];
    for (const name of ['Ama', 'Kofi', 'Esi', 'Yaw']) ps.push(await enter(srv.port, o.id, name));
    const raw = [];
    const follow = async (token) => {
      const c = await Client.open(srv.port);
      const texts = [];
      c.ws.on('message', (d) => texts.push(d.toString()));
      c.send(token ? { type: 'event_watch', event: o.id, token } : { type: 'event_watch', event: o.id });
      await untilEvent(c);
      raw.push(texts);
      return c;
    };
    const anon = await follow(null);
    const p0 = await follow(ps[0].token);
    const p1 = await follow(ps[1].token);
    o.org.send({ type: 'event_start', event: o.id, token: o.token });
    for (const c of [anon, p0, p1]) await untilEvent(c, (e) => e.round === 1);
    const you1 = await p1.expect('event_you');
    assert.equal(you1.you.entry, ps[1].entry);
    assert.equal(you1.you.game.round, 1);
    // The same bytes for all three, with no `you`.
    const views = raw.map((texts) => texts.filter((t) => t.startsWith('{"type":"event",')).at(-1));
    assert.equal(views[0], views[1]);
    assert.equal(views[0], views[2]);
    assert.equal(JSON.parse(views[0]).you, undefined);
    // A change that leaves a player's part as it was sends it no event_you.
    const b = JSON.parse(views[0]).schedule[0].boards.find((x) => x.white !== ps[0].entry && x.black !== ps[0].entry);
    o.org.send({ type: 'event_result', event: o.id, token: o.token, round: 1, board: b.board, result: 'draw' });
    const v = await untilEvent(p0, (e) => e.schedule[0].boards[b.board - 1].result === 'draw');
    o.org.send({ type: 'event_result', event: o.id, token: o.token, round: 1, board: b.board, result: 'white' });
    await untilEvent(p0, (e) => e.version === v.version + 1);
    assert.equal(p0.queue.filter((m) => m.type === 'event_you').length, 0);
    for (const c of [anon, p0, p1, o.org]) c.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('exports: one text a version with its ETag (304 to If-None-Match), the API\'s headers', async () => {
  const srv = await startServer(ARGS);
  try {
    const o = await createEvent(srv.port, { title: 'Club <script>alert(1)</script>', kind: 'oware', format: 'swiss', rounds: 3 });
    await enter(srv.port, o.id, 'Ama');
    for (const tail of ['', '/trf', '/csv']) {
      const r = await getFrom(srv.port, `/api/events/${o.id}${tail}`);
      assert.equal(r.status, 200, tail);
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.equal(r.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
      assert.equal(r.headers['referrer-policy'], 'no-referrer');
      assert.equal(r.headers['cache-control'], 'no-cache');
      const etag = r.headers.etag;
      assert.match(etag, /^"[0-9a-f]{16}"$/);
      const again = await getFrom(srv.port, `/api/events/${o.id}${tail}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304, tail);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      const other = await getFrom(srv.port, `/api/events/${o.id}${tail}`, { headers: { 'if-none-match': '"0000000000000000"' } });
      assert.equal(other.status, 200);
      assert.equal(other.body, r.body);
    }
    const before = (await getFrom(srv.port, `/api/events/${o.id}`)).headers.etag;
    await enter(srv.port, o.id, 'Kofi');
    const after = await getFrom(srv.port, `/api/events/${o.id}`, { headers: { 'if-none-match': before } });
    assert.equal(after.status, 200, 'a new version: a new text');
    assert.notEqual(after.headers.etag, before);
    assert.equal(JSON.parse(after.body).players.length, 2);
    // Every answer of the API has the headers: errors, /healthz, /api/rooms.
    for (const path of ['/api/events/nope', '/healthz', '/api/rooms']) {
      const r = await getFrom(srv.port, path);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(r.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'", path);
      assert.equal(r.headers['referrer-policy'], 'no-referrer', path);
    }
    o.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('views and exports count against --event-views-per-ip-per-min; an organiser\'s changes against --event-changes-per-min', async () => {
  const srv = await startServer([...ARGS, '--event-views-per-ip-per-min', '6000', '--event-changes-per-min', '4']);
  try {
    // auto: false: no round is paired by itself between the results below
    // (a pairing refuses changes meanwhile, `pairing`).
    const o = await createEvent(srv.port, { title: 'Budgets', kind: 'oware', format: 'swiss', rounds: 3, auto: false });
    const ps = [];
    for (const name of ['Ama', 'Kofi']) ps.push(await enter(srv.port, o.id, name));
    // Watches from 127.0.0.2 until its bytes are spent: then rate_limited.
    const c = await Client.open(srv.port, { localAddress: '127.0.0.2' });
    let sent = 0, n = 0;
    for (;;) {
      c.send({ type: 'event_watch', event: o.id });
      const m = await c.next();
      if (m.type === 'error') {
        assert.equal(m.code, 'rate_limited');
        assert.match(m.message, /event views/);
        break;
      }
      assert.equal(m.type, 'event');
      sent += JSON.stringify(m).length;
      n++;
      assert.ok(n < 100, 'refused at last');
    }
    assert.ok(sent >= 6000 && sent < 6000 + 2000, `${sent} bytes sent before the refusal`);
    // Its exports too: 429 with Retry-After; a 304 would cost nothing.
    const r = await getFrom(srv.port, `/api/events/${o.id}`, { localAddress: '127.0.0.2' });
    assert.equal(r.status, 429);
    assert.equal(r.headers['retry-after'], '60');
    assert.equal(JSON.parse(r.body).error, 'rate_limited');
    // Another address is not touched; its exports count the same way.
    assert.equal((await getFrom(srv.port, `/api/events/${o.id}/csv`, { localAddress: '127.0.0.3' })).status, 200);
    let codes = [];
    for (let i = 0; i < 20; i++) codes.push((await getFrom(srv.port, `/api/events/${o.id}`, { localAddress: '127.0.0.3' })).status);
    assert.ok(codes.includes(200) && codes.at(-1) === 429, codes.join(','));
    c.close();
    // The organiser: start and three results pass, the fifth change is
    // refused and changes nothing.
    let last = await act(o.org, { type: 'event_start', event: o.id, token: o.token }, (e) => e.round === 1 && !e.pairing);
    for (const result of ['white', 'black', 'draw']) {
      last = await act(o.org, { type: 'event_result', event: o.id, token: o.token, round: 1, board: 1, result },
        (e) => e.schedule[0].boards[0].result === result);
    }
    o.org.send({ type: 'event_result', event: o.id, token: o.token, round: 1, board: 1, result: 'white' });
    for (;;) {
      const m = await o.org.next();
      if (m.type === 'error') {
        assert.equal(m.code, 'rate_limited');
        assert.match(m.message, /changes to this event/);
        break;
      }
    }
    const now = await asPlayer(srv.port, o.id, ps[0].token);
    assert.equal(now.version, last.version);
    assert.equal(now.schedule[0].boards[0].result, 'draw');
    // A player's own action is not the organiser's: it is not counted.
    const p = await Client.open(srv.port);
    p.send({ type: 'event_withdraw', event: o.id, token: ps[1].token });
    await untilEvent(p, (e) => e.players[ps[1].entry].withdrawn);
    p.close();
    o.org.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});
