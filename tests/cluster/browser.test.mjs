// browser.test.mjs (make test-cluster-browser, under tests/cluster/with-pg.sh):
// what players see on a site of three owared on one PostgreSQL behind nginx
// with the shipped cluster site (deploy/nginx/oware-rooms-cluster.conf),
// in real Chromium pages over https:
//  1. A creates a room with the start page's buttons and copies the share
//     link; B opens it: B's connection reaches the server nginx routes the
//     room to, which relays it to the creator's server (A is connected
//     there: it keeps the room), and they play by clicking pits; when A
//     reloads, its page reaches the room's server too, the creator's
//     server gives the room up (B's relay follows: 4002), and both end on
//     the room's server and play on.
//  2. A's "Your games" lists the room (and the rooms A left waiting, held by
//     other servers) the same whichever server answers POST /api/rooms.
//  3. kill -9 of the room's server mid-game: both pages show the
//     reconnecting line, then the room again on another server (after the
//     3 s lease), the same moves; play goes on and no move is lost.
//  4. The killed server started again (same node id and port): once nginx
//     routes the room to it again, B's reload is relayed to the room's
//     holder (A is there), A's reload brings the room back, B's page follows
//     (4002) by itself; play goes on.
//  5. PostgreSQL stopped and the room's server killed: the joins that
//     reach the others get `internal` (nothing changed) and the pages send
//     them again every second, showing the reconnecting line; PostgreSQL
//     back, the room comes back with the same moves and play goes on.
//  6. A move clicked while the room's server hangs (SIGSTOP), which then
//     dies: the page sends it again once the room is back elsewhere, and it
//     is played once.
// And, between 2 and 3, a club event: created on the start page, joined
// by two players' pages from its link, started; its page's connections
// (ws?event=) meet on the server nginx routes the event to, which holds
// it; the players play their board in its room (routed by the room's own
// id, perhaps to another server) to a resignation, and the result shows
// on the organiser's page and in the export from any server.
// Screenshots go to $SCREENSHOTS (make: build/screenshots/cluster).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadEngine, Game } from '../../web/engine.js';
import { root, launchBrowser, openPlayer, ready, readBoard, waitMoves, shot, seatOf, expectBoard, playToResignation } from '../browser/lib.mjs';
import { startServer, stopServer, storeQuery, tempDir, PG } from '../server/lib.mjs';
import { startNginx } from '../nginx/nginx.mjs';

if (!PG) throw new Error('needs PostgreSQL: run through tests/cluster/with-pg.sh (make test-cluster-browser)');
await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));

const LEASE = 3;
const NODES = ['n1', 'n2', 'n3'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let db, nginx, browser, base;
const servers = []; // {node, srv}
const pages = [];

before(async () => {
  db = path.join(tempDir(), 'cluster');
  for (const node of NODES) {
    const srv = await startServer(['--lease-seconds', String(LEASE), '--web-root', path.join(root, 'web')],
      { db, node });
    servers.push({ node, srv });
  }
  nginx = await startNginx([{ template: 'oware-rooms-cluster.conf', upstream: servers.map((s) => s.srv.port) }]);
  base = `https://127.0.0.1:${nginx.sites[0].https}/`;
  browser = await launchBrowser();
}, { timeout: 60000 });

after(async () => {
  if (browser) await browser.close();
  if (nginx) await nginx.stop();
  for (const { srv } of servers) {
    if (srv.proc.exitCode === null && srv.proc.signalCode === null) srv.proc.kill('SIGCONT'); // test 6 failed midway
    await stopServer(srv);
  }
}, { timeout: 30000 });

async function player(name, locale) {
  const p = await openPlayer(browser, { name, locale, ignoreHTTPSErrors: true });
  pages.push(p);
  return p;
}

function noProblems() {
  const all = pages.flatMap((p) => p.problems);
  assert.deepEqual(all, [], all.join('\n'));
}

// Polls fn until it returns a truthy value (returned), or fails after ms.
async function until(fn, ms, what) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

// GET through nginx, trusting the test's certificate.
function getTls(url) {
  return new Promise((res, rej) => {
    const req = https.get(url, { ca: nginx.cert }, (r) => {
      r.resume();
      r.on('end', () => res(r.statusCode));
    });
    req.on('error', rej);
    req.setTimeout(5000, () => req.destroy(new Error('timeout ' + url)));
  });
}

// nginx's access log (nginx.mjs: `URI UPSTREAM STATUS` a line): the node of
// the server that answered each request whose URI starts with prefix.
function answeredBy(prefix) {
  const log = fs.readFileSync(path.join(nginx.dir, 'logs/access.log'), 'utf8');
  return log.split('\n').filter((l) => l.startsWith(prefix + ' ')).map((l) => {
    const up = l.split(' ').slice(1, -1).join(' ').split(', ').at(-1); // the last one tried answered
    const s = servers.find((x) => up === `127.0.0.1:${x.srv.port}`);
    return s ? s.node : up;
  });
}

// The server nginx routes room's connections to now: a request naming the
// room (any URL with ?room= is hashed like the WebSocket's), then the log.
async function routeOf(room, arg = 'room') {
  const uri = `/healthz?${arg}=${room}&probe=${Math.random().toString(36).slice(2)}`;
  assert.equal(await getTls(base + uri.slice(1)), 200);
  return until(() => answeredBy(uri)[0], 5000, 'the access log');
}

const holder = (room) => storeQuery(db,
  `SELECT i.node FROM rooms r JOIN incarnations i ON i.id = r.holder WHERE r.id = '${room}'`);
const storedMoves = (room) => storeQuery(db, `SELECT encode(moves, 'hex') FROM rooms WHERE id = '${room}'`);
const hexOf = (moves) => moves.map((m) => ('abcdefABCDEF'.indexOf(m)).toString(16).padStart(2, '0')).join('');

async function metric(node, name) {
  const { srv } = servers.find((s) => s.node === node);
  const text = await (await fetch(`http://127.0.0.1:${srv.port}/metrics`)).text();
  const esc = name.replace(/[{}"]/g, (c) => `\\${c}`);
  const m = new RegExp(`^${esc} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}
const alive = () => servers.filter((s) => s.srv.proc.exitCode === null && s.srv.proc.signalCode === null);
// Open WebSocket connections per living server: {n1: 2, n2: 0, ...}.
async function connections() {
  const out = {};
  for (const { node } of alive()) out[node] = await metric(node, 'oware_connections');
  return out;
}

// Clicks letter on the page of the side to move; both pages show it.
async function playMove(players, game, letter) {
  const side = game.state().turn;
  let mover;
  for (const p of players) if (await seatOf(p) === side) mover = p;
  assert.ok(mover, `nobody holds ${side}`);
  assert.deepEqual((await readBoard(mover)).legal, game.legal().slice().sort(), `legal pits on ${mover.name}`);
  await mover.click(`#board .pit.legal[data-pit="${letter}"]`);
  game.play(letter);
  for (const p of players) {
    await waitMoves(p, game.moves.length);
    await expectBoard(p, game, `after ${game.moves.join(' ')}`);
  }
}

// Both pages in the room, connected, both players shown online.
// Each page is waited for in turn, so the first may have been moved again
// (4002) while the second came back: done only when all show it at once.
async function bothOnline(players, timeout) {
  const online = () => document.querySelector('#conn').hidden && !!document.body.dataset.seat &&
    document.querySelectorAll('.player.online').length === 2;
  for (const until = Date.now() + timeout; ;) {
    for (const p of players) {
      await p.waitForFunction(online, null, { timeout: Math.max(1, until - Date.now()) });
    }
    let all = true;
    for (const p of players) all = all && await p.evaluate(online);
    if (all) return;
  }
}

let A, B, room, link, roomNode, createdOn, movedTo;
const game = Game.start();
const waitingRooms = [];

test('A creates a room through nginx, B opens the link; both end on the room\'s server and play', { timeout: 90000 }, async () => {
  A = await player('A', 'en-US');
  B = await player('B', 'es-ES');
  // A create reaches any server (nginx spreads requests without a room);
  // the room's connections go where its id hashes. Create until the two
  // differ, so that the join moves the room (a creator on the right server
  // already is the plain one-server case); the others stay waiting.
  for (let i = 0; ; i++) {
    assert.ok(i < 12, 'a room created on a server other than its own');
    await A.goto(base);
    await ready(A);
    if (i === 0) await A.fill('#start-name', 'Ama');
    await A.check('input[name="side"][value="south"]');
    await A.click('#create');
    await A.waitForSelector('#share:not([hidden])');
    link = await A.inputValue('#share-link');
    assert.match(link, new RegExp(`^${base.replace(/[.]/g, '\\.')}\\?room=[\\w-]+$`));
    room = new URL(link).searchParams.get('room');
    createdOn = holder(room);
    assert.ok(NODES.includes(createdOn), `the creator's server holds the new room (${createdOn})`);
    roomNode = await routeOf(room);
    if (roomNode !== createdOn) break;
    waitingRooms.push(room);
  }
  await shot(A, 'cluster-waiting-en');
  await A.click('#share-copy');
  assert.equal(await A.evaluate(() => navigator.clipboard.readText()), link);

  // B, with a name, opens the link A sent.
  await B.goto(base);
  await ready(B);
  await B.evaluate(() => localStorage.setItem('oware.name', 'Kofi'));
  await B.goto(link);
  await ready(B);
  await bothOnline([A, B], 15000);
  assert.equal(await seatOf(A), 'south');
  assert.equal(await seatOf(B), 'north');
  await A.waitForSelector('#share', { state: 'hidden' });
  assert.match(await A.textContent('#player-top'), /Kofi/);
  assert.match(await B.textContent('#player-top'), /Ama/);

  // A is on the creator's server, which keeps the room; B reached the
  // room's server, which relays it there.
  assert.equal(holder(room), createdOn);
  await until(async () => {
    const c = await connections();
    return NODES.every((n) => c[n] === (n === createdOn ? 2 : n === roomNode ? 1 : 0)) && c;
  }, 10000, `A and B's relay on ${createdOn}, B on ${roomNode}`);
  assert.ok(await metric(roomNode, 'oware_relays_total') >= 1, 'the room\'s server relays B');
  for (const m of ['c', 'A']) await playMove([A, B], game, m);

  // A reloads: its page reaches the room's server, the creator's server
  // has no player of its own left and gives the room up.
  await A.reload();
  await ready(A);
  // A's new connection may reach the restarted server before the holder
  // has seen its old one close: it is relayed too, and the room follows
  // as soon as the holder's last direct player is gone.
  await until(async () => holder(room) === roomNode, 10000, `the room back on ${roomNode}`);
  await bothOnline([A, B], 15000);
  await until(async () => {
    const c = await connections();
    return NODES.every((n) => c[n] === (n === roomNode ? 2 : 0)) && c;
  }, 10000, `both connections on ${roomNode} only`);
  assert.ok(await metric(createdOn, 'oware_rooms_released_total') >= 1, 'the creator\'s server gave the room up');
  assert.ok(await metric(roomNode, 'oware_rooms_taken_total') >= 1, 'the room\'s server took it');
  for (const p of [A, B]) await expectBoard(p, game, 'on the room\'s server');

  for (const m of ['f', 'F']) await playMove([A, B], game, m);
  assert.equal(storedMoves(room), hexOf(game.moves));
  await shot(B, 'cluster-playing-es');
  noProblems();
});

test('A\'s "Your games" lists the room the same whichever server answers', { timeout: 60000 }, async () => {
  // A to move (South, after four moves): "your move", against Kofi.
  assert.equal(game.state().turn, 'south');
  const answered = new Set();
  for (let i = 0; i < 30 && (answered.size < 2 || ![...answered].some((n) => n !== roomNode)); i++) {
    const before = answeredBy('/api/rooms').length;
    if (i === 0) await A.goto(base); else await A.reload();
    await ready(A);
    await A.waitForSelector('#games:not([hidden]) .game-item');
    const list = await A.$$eval('#games-list .game-item', (els) => els.map((e) => ({
      room: e.dataset.room, state: e.dataset.state, title: e.querySelector('.game-title').textContent,
      detail: e.querySelector('.game-detail').textContent,
    })));
    assert.equal(list.length, 1 + waitingRooms.length, JSON.stringify(list));
    assert.equal(list[0].room, room);
    assert.equal(list[0].state, 'yours');
    assert.equal(list[0].title, 'Against Kofi');
    assert.match(list[0].detail, /^you play South · your move · /);
    assert.deepEqual(list.slice(1).map((g) => g.room).sort(), waitingRooms.slice().sort());
    for (const g of list.slice(1)) {
      assert.equal(g.state, 'waiting');
      assert.equal(g.title, 'Waiting for your opponent');
    }
    const by = await until(() => {
      const all = answeredBy('/api/rooms');
      return all.length > before && all.at(-1);
    }, 5000, 'POST /api/rooms in the access log');
    answered.add(by);
    if (i === 0) await shot(A, 'cluster-games-en');
  }
  assert.ok(answered.size >= 2, `several servers answered: ${[...answered]}`);
  // Back into the room with one click.
  await A.click(`#games-list .game-item[data-room="${room}"] a`);
  await bothOnline([A, B], 15000);
  await expectBoard(A, game, 'back in');
  noProblems();
});

test('a club event through nginx: joined, its board played in a room, the result on the organiser\'s page', { timeout: 90000 }, async () => {
  const org = await player('ev-organiser');
  await org.goto(base);
  await ready(org);
  await org.fill('#ev-form-name', 'Cluster club');
  await org.check('input[name="ev-format"][value="round_robin"]');
  await org.click('#ev-form-create');
  await org.waitForFunction(() => /[?&]event=/.test((document.querySelector('#ev-public-link') || {}).value || ''));
  const evLink = await org.inputValue('#ev-public-link');
  const id = new URL(evLink).searchParams.get('event');
  const ps = [];
  for (const name of ['Ama', 'Kofi']) {
    const p = await player(`ev-${name}`);
    await p.goto(evLink);
    await ready(p);
    await p.waitForSelector('#ev-join:not([hidden])');
    await p.fill('#ev-join-name', name);
    await p.click('#ev-join-go');
    await p.waitForSelector('#ev-you:not([hidden])');
    ps.push(p);
  }
  await org.waitForFunction(() => document.querySelectorAll('#ev-player-list li').length === 2);
  // The event stays where it was created while the organiser's page is
  // connected there; the players' pages (routed by the event's id) are
  // relayed there when that is another server.
  const evNode = await routeOf(id, 'event');
  const evHolder = () => storeQuery(db, `SELECT i.node FROM events e JOIN incarnations i ON i.id = e.holder WHERE e.id = '${id}'`);
  const createdAt = evHolder();
  if (createdAt !== evNode) assert.equal(await metric(evNode, 'oware_relays_open'), 2, 'the players relayed');
  await org.click('#ev-start');
  await org.waitForSelector('#ev-round-list .ev-round[data-key="1"]');
  for (const p of ps) {
    await p.waitForSelector('#ev-you-play:not([hidden])');
    await p.click('#ev-you-play');
    await p.waitForFunction(() => document.body.dataset.mode === 'online' && ['south', 'north'].includes(document.body.dataset.seat));
  }
  await bothOnline(ps, (LEASE + 10) * 1000);
  const boardRoom = new URL(ps[0].url()).searchParams.get('room');
  await playToResignation(ps);
  assert.equal(holder(boardRoom), await routeOf(boardRoom), 'the board is played where nginx routes its room');
  const li = '#ev-round-list .ev-round[data-key="1"] .ev-board[data-key="1"]';
  await org.waitForFunction((sel) => document.querySelector(sel).dataset.result !== 'none', li, { timeout: 15000 });
  await shot(org, 'cluster-event-result');
  const ev = JSON.parse(await new Promise((res, rej) => {
    https.get(`${base}api/events/${id}`, { ca: nginx.cert }, (r) => {
      let body = '';
      r.on('data', (d) => { body += d; });
      r.on('end', () => (r.statusCode === 200 ? res(body) : rej(new Error(`status ${r.statusCode}`))));
    }).on('error', rej);
  }));
  assert.equal(ev.schedule[0].boards[0].by, 'room');
  assert.equal(ev.state, 'over');
  for (const p of ps) {
    await p.click('#act-event');
    await p.waitForSelector('#ev-you:not([hidden])');
  }
  // The organiser's reload reaches the event's route: the event goes there
  // (the relayed pages follow, 4002), and every page shows it again.
  await org.reload();
  await ready(org);
  await until(() => evHolder() === evNode, (LEASE + 10) * 1000, `the event held by ${evNode}`);
  for (const p of [org, ...ps]) {
    await p.waitForFunction((sel) => document.querySelector(sel)?.dataset.result === 'white' ||
      document.querySelector(sel)?.dataset.result === 'black', li, { timeout: 15000 });
  }
  noProblems();
  for (const p of [org, ...ps]) await p.close();
});

test('kill -9 of the room\'s server mid-game: both pages reconnect to another, the same moves, play goes on', { timeout: 60000 }, async (t) => {
  await playMove([A, B], game, game.legal()[0]);
  const killed = servers.find((s) => s.node === roomNode);
  killed.srv.proc.kill('SIGKILL');
  await killed.srv.exited;
  const t0 = Date.now();
  // The reconnecting line on both pages, in each one's language.
  await A.waitForFunction(() => /Reconnecting/.test(document.querySelector('#conn-text').textContent) &&
    !document.querySelector('#conn').hidden, null, { timeout: 10000 });
  await B.waitForFunction(() => /Reconectando/.test(document.querySelector('#conn-text').textContent) &&
    !document.querySelector('#conn').hidden, null, { timeout: 10000 });
  await shot(B, 'cluster-reconnecting-es');
  // Back within the lease and a few seconds (nginx sends them to the next
  // server, whose join waits for the dead one's lease to run out). Until
  // then a page whose socket reopened must not look live: the reconnecting
  // line stays and no pit responds.
  let waited = 0;
  await until(async () => {
    // The pages first: a page that got its room back was answered after
    // the take was stored, so the holder read next is the new one.
    const looks = await Promise.all([A, B].map((p) => p.evaluate(() => ({
      live: document.querySelector('#conn').hidden, legal: document.querySelectorAll('#board .pit.legal').length,
      online: document.querySelectorAll('.player.online').length,
    }))));
    const dead = holder(room) === roomNode;
    if (dead) {
      waited++;
      for (const l of looks) assert.deepEqual(l, { live: false, legal: 0, online: 0 }, 'a page looks live while its room is still the dead server\'s');
    }
    return !dead && looks.every((l) => l.live && l.online === 2);
  }, (LEASE + 12) * 1000, 'both pages back in the room');
  assert.ok(waited > 0, 'the pages were seen waiting for the take');
  t.diagnostic(`both pages back in the room ${Date.now() - t0} ms after the kill (lease ${LEASE} s)`);
  await bothOnline([A, B], 5000);
  for (const p of [A, B]) await expectBoard(p, game, 'after the kill');
  const now = holder(room);
  assert.ok(NODES.includes(now) && now !== roomNode, `another server holds the room (${now})`);
  movedTo = now;
  assert.equal(await routeOf(room), now, 'nginx routes the room to its new holder');
  await until(async () => {
    const c = await connections();
    return Object.keys(c).every((n) => c[n] === (n === now ? 2 : 0)) && c;
  }, 10000, `both connections on ${now} only`);
  assert.equal(storedMoves(room), hexOf(game.moves), 'nothing lost');
  for (let i = 0; i < 4 && !game.over; i++) await playMove([A, B], game, game.legal().at(i % 2 ? -1 : 0));
  assert.equal(storedMoves(room), hexOf(game.moves), 'every move after the kill stored once');
  await shot(A, 'cluster-after-kill-en');
  noProblems();
});

test('the killed server started again: a reload brings the room back to it, the other page follows, play goes on', { timeout: 60000 }, async () => {
  const back = servers.find((s) => s.node === roomNode);
  const port = back.srv.port;
  back.srv = await startServer(['--lease-seconds', String(LEASE), '--web-root', path.join(root, 'web'),
    '--port', String(port)], { db, node: roomNode });
  assert.equal(back.srv.port, port);
  // The room stays where it is until a new connection is routed here
  // (nginx tries the server again once its fail_timeout has passed).
  assert.equal(holder(room), movedTo);
  await until(async () => (await routeOf(room)) === roomNode, 20000, `nginx routing the room to ${roomNode} again`);
  const released = await metric(movedTo, 'oware_rooms_released_total');
  // B's reload reaches the restarted server, which relays it (A is still
  // on the room's holder); A's reload then brings the room back.
  await B.reload();
  await ready(B);
  await bothOnline([A, B], 15000);
  assert.equal(holder(room), movedTo);
  await A.reload();
  await ready(A);
  await bothOnline([A, B], 15000);
  assert.equal(holder(room), roomNode);
  assert.equal(await metric(movedTo, 'oware_rooms_released_total'), released + 1);
  await until(async () => {
    const c = await connections();
    return NODES.every((n) => c[n] === (n === roomNode ? 2 : 0)) && c;
  }, 10000, `both connections on ${roomNode} only`);
  for (const p of [A, B]) await expectBoard(p, game, 'back on the restarted server');
  for (let i = 0; i < 2 && !game.over; i++) await playMove([A, B], game, game.legal()[0]);
  assert.equal(storedMoves(room), hexOf(game.moves));
  noProblems();
});

const pgtmp = (...args) => execFileSync('sh', [path.join(root, 'tests/cluster/pgtmp.sh'), ...args], { stdio: 'ignore' });
const internals = async () => {
  let n = 0;
  for (const { node } of alive()) n += await metric(node, 'oware_errors_total{code="internal"}');
  return n;
};

test('PostgreSQL stopped and the room\'s server killed: the pages join again until the room is back', { timeout: 60000 }, async () => {
  const dir = process.env.OW_TEST_PGDIR, port = process.env.OW_TEST_PGPORT;
  assert.ok(dir && port, 'run through tests/cluster/with-pg.sh');
  const holderNode = holder(room);
  const before = await internals();
  pgtmp('stop', dir, 'fast');
  let started = false;
  try {
    const dead = servers.find((s) => s.node === holderNode).srv;
    dead.proc.kill('SIGKILL');
    await dead.exited; // alive() then leaves it out of internals()
    for (const p of [A, B]) {
      await p.waitForFunction(() => /Reconnecting|Reconectando/.test(document.querySelector('#conn-text').textContent) &&
        !document.querySelector('#conn').hidden, null, { timeout: 10000 });
    }
    // Their joins reach the living servers, which cannot take the room.
    await until(async () => (await internals()) >= before + 2, 15000, 'joins answered internal');
    for (const p of [A, B]) {
      assert.equal(await p.evaluate(() => document.querySelector('#conn').hidden), false, `${p.name} shows the line`);
      assert.equal((await readBoard(p)).legal.length, 0, `no pit responds on ${p.name}`);
    }
    await shot(A, 'cluster-database-down-en');
  } finally {
    pgtmp('start', dir, port);
    started = true;
  }
  assert.ok(started);
  await bothOnline([A, B], (LEASE + 20) * 1000);
  const now = holder(room);
  assert.ok(NODES.includes(now) && now !== holderNode, `a living server holds the room (${now})`);
  for (const p of [A, B]) await expectBoard(p, game, 'after the database came back');
  assert.equal(storedMoves(room), hexOf(game.moves), 'nothing lost');
  for (let i = 0; i < 2 && !game.over; i++) await playMove([A, B], game, game.legal().at(-1));
  assert.equal(storedMoves(room), hexOf(game.moves));
  noProblems();
});

test('a move clicked just before its server dies is sent again and played once on the next server', { timeout: 60000 }, async () => {
  const holderNode = holder(room);
  const victim = servers.find((s) => s.node === holderNode).srv;
  assert.ok(alive().length >= 2, 'a server left to take the room');
  const side = game.state().turn;
  const mover = (await seatOf(A)) === side ? A : B;
  const other = mover === A ? B : A;
  const letter = game.legal()[0];
  victim.proc.kill('SIGSTOP');
  await mover.click(`#board .pit.legal[data-pit="${letter}"]`);
  await sleep(300); // the move waits in the hung server's socket
  assert.equal(storedMoves(room), hexOf(game.moves), 'not stored by the hung server');
  victim.proc.kill('SIGKILL');
  await victim.exited;
  game.play(letter);
  for (const p of [mover, other]) {
    await waitMoves(p, game.moves.length, (LEASE + 15) * 1000);
    await bothOnline([A, B], 10000);
    await expectBoard(p, game, 'the move sent again');
  }
  assert.equal(storedMoves(room), hexOf(game.moves), 'the move stored once');
  assert.notEqual(holder(room), holderNode);
  if (!game.over) await playMove([A, B], game, game.legal().at(-1));
  assert.equal(storedMoves(room), hexOf(game.moves));
  await shot(mover, 'cluster-move-resent');
  noProblems();
});
