// Web Push (issue 53; PROTOCOL.md "Push"): a player of a room with a
// clock of days subscribes; when the opponent moves, offers a draw,
// resigns or the game ends, the server POSTs an encrypted push to a fake
// push service run here on the loopback (allowed only in the test build,
// OW_TEST_PUSH_LOOPBACK=1). Each push's headers are checked, its VAPID
// token verified with the server's public key, and its body decrypted
// with the subscription's private key, as a browser would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, startServer, stopServer, playMoves, twoPlayers, waitLine, httpGet, PG, storeQuery, tempDir } from './lib.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const TEST_BUILD = resolve(ROOT, process.env.OWARED_TEST_BUILD || 'build/fault/owared');
const CONTACT = 'mailto:ops@example.org';
const b64u = (b) => Buffer.from(b).toString('base64url');

// A fake push service: records each request; plan(path, n) gives the
// answer's status and headers for the n-th request (from 1) to a path.
async function fakeService(plan = () => ({ status: 201 })) {
  const seen = [];
  const waiters = [];
  const counts = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = (counts.get(req.url) || 0) + 1;
      counts.set(req.url, n);
      const r = { path: req.url, method: req.method, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      seen.push(r);
      const { status, headers = {} } = plan(req.url, n);
      res.writeHead(status, headers);
      res.end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise((r) => server.listen(0, '::', r)); // IPv4 and IPv6
  const port = server.address().port;
  return {
    port, seen,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    // The requests to path once there are n of them (10 s at most).
    async wait(path, n = 1, ms = 10000) {
      const until = Date.now() + ms;
      for (;;) {
        const got = seen.filter((r) => r.path === path);
        if (got.length >= n) return got;
        if (Date.now() > until) throw new Error(`${n} pushes to ${path} expected, ${got.length} came`);
        await new Promise((r) => { waiters.push(r); setTimeout(r, 100); });
      }
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

// A browser's side of a subscription: a P-256 key pair and an auth secret.
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
}

// RFC 8291 / RFC 8188: the plaintext of one push body for sub.
function decrypt(sub, body) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  assert.equal(idlen, 65, 'the key id is the sender\'s public key');
  assert.equal(rs, 4096);
  const asPublic = body.subarray(21, 21 + idlen);
  const secret = sub.ecdh.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, sub.auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const rec = body.subarray(21 + idlen);
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(rec.subarray(rec.length - 16));
  const plain = Buffer.concat([d.update(rec.subarray(0, rec.length - 16)), d.final()]);
  let end = plain.length - 1;
  while (end > 0 && plain[end] === 0) end--;
  assert.equal(plain[end], 2, 'the last record\'s delimiter');
  return JSON.parse(plain.subarray(0, end).toString());
}

// Checks a push's headers and VAPID token against the server's key, and
// returns its facts.
function openPush(req, sub, pushKey, origin) {
  assert.equal(req.method, 'POST');
  assert.equal(req.headers['content-encoding'], 'aes128gcm');
  assert.equal(req.headers['content-type'], 'application/octet-stream');
  assert.equal(req.headers.ttl, '86400');
  assert.equal(req.headers.urgency, 'normal');
  assert.equal(Number(req.headers['content-length']), req.body.length);
  const m = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(req.headers.authorization);
  assert.ok(m, 'authorization: ' + req.headers.authorization);
  assert.equal(m[4], pushKey);
  const point = Buffer.from(pushKey, 'base64url');
  const key = crypto.createPublicKey({ format: 'jwk', key: { kty: 'EC', crv: 'P-256',
    x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) } });
  assert.ok(crypto.verify('sha256', Buffer.from(m[1] + '.' + m[2]), { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(m[3], 'base64url')), 'the token is signed by the server\'s key');
  assert.deepEqual(JSON.parse(Buffer.from(m[1], 'base64url')), { typ: 'JWT', alg: 'ES256' });
  const claims = JSON.parse(Buffer.from(m[2], 'base64url'));
  assert.equal(claims.aud, origin);
  assert.equal(claims.sub, CONTACT);
  const left = claims.exp - Date.now() / 1000;
  assert.ok(left > 3600 && left <= 86400, 'exp in ' + left + ' s');
  return decrypt(sub, req.body);
}

async function pushServer(extra = [], env = {}) {
  assert.ok(existsSync(TEST_BUILD), 'the test build ' + TEST_BUILD + ' (make test-server builds it)');
  return startServer(['--push-contact', CONTACT, ...extra], { bin: TEST_BUILD,
    env: { OW_TEST_PUSH_LOOPBACK: '1', ...env } });
}

// A room with a clock of days: a south, b north.
async function daysRoom(port, { names = true } = {}) {
  const a = await Client.open(port);
  a.send({ type: 'create', side: 'south', clock: { days: 2 }, ...(names ? { name: 'Ana' } : {}) });
  const wa = await a.expect('welcome');
  await a.expect('state');
  const b = await Client.open(port, { room: wa.room });
  b.send({ type: 'join', room: wa.room, ...(names ? { name: 'Bolat' } : {}) });
  const wb = await b.expect('welcome');
  await b.expect('state');
  await a.expect('state');
  return { a, b, room: wa.room, ta: wa.token, tb: wb.token, wa, wb };
}

function subscribe(c, endpoint, sub) {
  c.send({ type: 'push', action: 'subscribe', subscription: { endpoint, expirationTime: null, keys: sub.keys } });
}

function pushRows(srv) {
  const q = 'SELECT count(*) FROM push';
  return PG ? Number(storeQuery(srv.db, q)) : Number(execFileSync('sqlite3', [srv.db, q]).toString().trim());
}

test('the opponent\'s move, draw offer and resignation reach a subscription; the end drops it', async () => {
  const svc = await fakeService();
  const srv = await pushServer();
  try {
    const { a, b, room, wa, wb } = await daysRoom(srv.port);
    assert.match(wa.push_key, /^[\w-]{87}$/);
    assert.equal(wb.push_key, wa.push_key);
    const subA = browserKeys(), subB = browserKeys();
    // A name (resolved off the loop, on the resolver's thread).
    subscribe(a, `http://localhost:${svc.port}/push/a`, subA);
    assert.deepEqual(await a.expect('push'), { type: 'push', action: 'subscribe' });
    subscribe(b, svc.url('/push/b'), subB);
    assert.deepEqual(await b.expect('push'), { type: 'push', action: 'subscribe' });

    const t0 = Date.now();
    await playMoves(a, b, ['c']);
    const [p1] = await svc.wait('/push/b');
    const f1 = openPush(p1, subB, wa.push_key, `http://127.0.0.1:${svc.port}`);
    const { deadline, ...rest } = f1;
    assert.deepEqual(rest, { room, kind: 'oware', game: 1, event: 'move', seat: 'north', by: 'Ana',
      ply: 1, move: 'c' });
    // Days run once both sides moved: not yet after the first move.
    assert.ok(deadline === null || Math.abs(deadline - (t0 + 2 * 86400000)) < 60000, 'deadline ' + deadline);

    await playMoves(a, b, ['A'], { from: 1 });
    const [p2] = await svc.wait('/push/a');
    const f2 = openPush(p2, subA, wa.push_key, `http://localhost:${svc.port}`);
    assert.equal(p2.headers.host, `localhost:${svc.port}`);
    assert.equal(f2.event, 'move');
    assert.equal(f2.seat, 'south');
    assert.equal(f2.by, 'Bolat');
    assert.equal(f2.move, 'A');
    assert.ok(Math.abs(f2.deadline - (Date.now() + 2 * 86400000)) < 60000, 'deadline ' + f2.deadline);
    // A player's own move is not pushed to him.
    assert.equal(svc.seen.filter((r) => r.path === '/push/b').length, 1);

    b.send({ type: 'draw', action: 'offer' });
    await a.expect('state');
    await b.expect('state');
    const [, p3] = await svc.wait('/push/a', 2);
    assert.equal(openPush(p3, subA, wa.push_key, `http://localhost:${svc.port}`).event, 'draw_offer');

    a.send({ type: 'resign' });
    await a.expect('state');
    await b.expect('state');
    const [, p4] = await svc.wait('/push/b', 2);
    const f4 = openPush(p4, subB, wa.push_key, `http://127.0.0.1:${svc.port}`);
    assert.equal(f4.event, 'end');
    assert.equal(f4.reason, 'resign');
    assert.equal(f4.winner, 'north');
    assert.equal(f4.deadline, null);
    // The game is over: both subscriptions went with it.
    for (const until = Date.now() + 5000; pushRows(srv) !== 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(pushRows(srv), 0);
    assert.equal(svc.seen.filter((r) => r.path === '/push/a').length, 2);
    const metrics = await (await httpGet(srv.port, '/metrics')).text();
    assert.match(metrics, /^oware_push_total\{result="sent"\} 4$/m);
    assert.match(metrics, /^oware_push_total\{result="gone"\} 0$/m);
    a.close();
    b.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    await svc.close();
  }
});

test('410 drops the subscription; 429 waits for its Retry-After; a restart keeps subscriptions', async () => {
  const svc = await fakeService((path, n) => path === '/push/gone' ? { status: 410 }
    : path === '/push/busy' && n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 201 });
  let srv = await pushServer();
  const db = srv.db;
  try {
    const { a, b, room, tb, wa } = await daysRoom(srv.port);
    const gone = browserKeys(), busy = browserKeys();
    subscribe(b, svc.url('/push/gone'), gone);
    await b.expect('push');
    subscribe(b, svc.url('/push/busy'), busy);
    await b.expect('push');
    assert.equal(pushRows(srv), 2);
    await playMoves(a, b, ['c']);
    await svc.wait('/push/gone');
    const [first, second] = await svc.wait('/push/busy', 2, 8000);
    assert.ok(second.at - first.at >= 950, 'retried after ' + (second.at - first.at) + ' ms');
    assert.equal(openPush(second, busy, wa.push_key, `http://127.0.0.1:${svc.port}`).event, 'move');
    assert.ok(await waitLine(srv, /push_gone room=\S+ side=1 status=410/));
    for (const until = Date.now() + 5000; pushRows(srv) !== 1 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(pushRows(srv), 1);
    a.close();
    b.close();

    // Kept across a restart: the same key, the same subscription.
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    srv = await startServer(['--push-contact', CONTACT], { bin: TEST_BUILD, db,
      env: { OW_TEST_PUSH_LOOPBACK: '1' } });
    const a2 = await Client.open(srv.port, { room });
    a2.send({ type: 'join', room, token: wa.token });
    const w2 = await a2.expect('welcome');
    assert.equal(w2.push_key, wa.push_key);
    await a2.expect('state');
    const b2 = await Client.open(srv.port, { room });
    b2.send({ type: 'join', room, token: tb });
    await b2.expect('welcome');
    await b2.untilState(() => true);
    await a2.untilState(() => true);
    b2.send({ type: 'move', pit: 'A', ply: 1 });
    await a2.untilState((s) => s.moves.length === 2);
    a2.send({ type: 'move', pit: 'd', ply: 2 });
    await b2.untilState((s) => s.moves.length === 3);
    const pushes = await svc.wait('/push/busy', 3);
    assert.equal(openPush(pushes[2], busy, wa.push_key, `http://127.0.0.1:${svc.port}`).move, 'd');
    assert.equal(svc.seen.filter((r) => r.path === '/push/gone').length, 1);
    a2.close();
    b2.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    await svc.close();
  }
});

test('refused subscriptions change nothing: private addresses, other hosts, spectators, no days', async () => {
  const svc = await fakeService();
  const srv = await pushServer();
  try {
    const { a, b, room } = await daysRoom(srv.port);
    const sub = browserKeys();
    const refused = [
      ['https://10.1.2.3/push', /private/],
      ['https://169.254.169.254/latest/meta-data', /private/],
      ['https://[fe80::1]/x', /private/],
      ['https://push.example.org/x', /--push-allow/],
      ['ftp://fcm.googleapis.com/x', /https/],
    ];
    for (const [endpoint, why] of refused) {
      subscribe(a, endpoint, sub);
      assert.match((await a.expectError('push_refused')).message, why, endpoint);
    }
    a.send({ type: 'push', action: 'subscribe', subscription: { endpoint: svc.url('/p'), keys: { p256dh: 'AAAA', auth: sub.keys.auth } } });
    assert.match((await a.expectError('bad_message')).message, /p256dh/);
    a.send({ type: 'push', action: 'subscribe', subscription: { endpoint: svc.url('/p') } });
    await a.expectError('bad_message');
    const spec = await Client.open(srv.port, { room });
    spec.send({ type: 'join', room });
    await spec.expect('welcome').then((w) => assert.equal(w.push_key, undefined));
    await spec.expect('state');
    await a.untilState((st) => st.spectators === 1);
    await b.untilState((st) => st.spectators === 1);
    subscribe(spec, svc.url('/p'), sub);
    await spec.expectError('not_a_player');
    // A room without a clock of days.
    const c = await Client.open(srv.port);
    c.send({ type: 'create', side: 'south' });
    assert.equal((await c.expect('welcome')).push_key, undefined, 'no key without a clock of days');
    await c.expect('state');
    subscribe(c, svc.url('/p'), sub);
    assert.match((await c.expectError('push_refused')).message, /clock of days/);
    assert.equal(pushRows(srv), 0);
    // A cancel of nothing is fine; one of a kept subscription takes it.
    subscribe(b, svc.url('/p'), sub);
    await b.expect('push');
    assert.equal(pushRows(srv), 1);
    b.send({ type: 'push', action: 'cancel', endpoint: svc.url('/p') });
    assert.deepEqual(await b.expect('push'), { type: 'push', action: 'cancel' });
    assert.equal(pushRows(srv), 0);
    // The per-address budget: 10 a minute (the refused ones did not count).
    let n = 1;
    for (; n <= 12; n++) {
      subscribe(b, svc.url('/q' + n), sub);
      const m = await b.next();
      if (m.type === 'error') { assert.equal(m.code, 'rate_limited'); break; }
    }
    assert.equal(n, 10, 'the 10th subscription in a minute (1 made above) is refused');
    assert.equal(pushRows(srv), 4, 'a seat keeps its newest four');
    for (const x of [a, b, spec, c]) x.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    await svc.close();
  }
});

// POST /api/push (PROTOCOL.md "Push from your games"): what the start
// page sends for a seat it holds, without joining the room.
function postPush(port, body, headers = {}) {
  return fetch(`http://127.0.0.1:${port}/api/push`, { method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body) });
}

test('POST /api/push: a seat subscribed without joining; refusals change nothing; cancel', async () => {
  const svc = await fakeService();
  const srv = await pushServer();
  try {
    const { a, b, room, ta, tb, wa } = await daysRoom(srv.port);
    const r0 = await httpGet(srv.port, '/api/push');
    assert.equal(r0.status, 200);
    assert.deepEqual(await r0.json(), { push_key: wa.push_key });
    assert.equal(r0.headers.get('cache-control'), 'no-store');
    for (const method of ['PUT', 'DELETE']) {
      const r = await fetch(`http://127.0.0.1:${srv.port}/api/push`, { method });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get('allow'), 'GET, POST');
    }
    const sub = browserKeys();
    const body = (token, endpoint = svc.url('/h/b'), r = room) => ({ room: r, token, action: 'subscribe',
      subscription: { endpoint, expirationTime: null, keys: sub.keys } });
    const refuse = async (b0, status, code, why) => {
      const r = await postPush(srv.port, b0);
      assert.equal(r.status, status, JSON.stringify(b0).slice(0, 80));
      const j = await r.json();
      assert.equal(j.error, code);
      if (why) assert.match(j.message, why);
      assert.equal(pushRows(srv), 0);
    };
    await refuse(body('x'.repeat(43)), 403, 'bad_token');
    await refuse(body(tb, 'https://10.1.2.3/push'), 403, 'push_refused', /private/);
    await refuse(body(tb, 'https://push.example.org/x'), 403, 'push_refused', /--push-allow/);
    await refuse(body(tb, svc.url('/h/b'), 'nosuchroom'), 404, 'no_room');
    await refuse('{"room":', 400, 'bad_request');
    await refuse({ room, token: tb, action: 'subscribe' }, 400, 'bad_request', /subscription/);
    await refuse({ ...body(tb), subscription: { endpoint: svc.url('/h/b'), keys: { p256dh: 'AAAA', auth: sub.keys.auth } } },
      400, 'bad_message', /p256dh/);
    const r1 = await fetch(`http://127.0.0.1:${srv.port}/api/push`, { method: 'POST', body: JSON.stringify(body(tb)),
      headers: { origin: 'https://evil.example' } });
    assert.equal(r1.status, 403);
    assert.equal((await r1.json()).error, 'bad_origin');
    // A room without a clock of days.
    const c = await twoPlayers(srv.port);
    await refuse(body(c.tb, svc.url('/h/b'), c.room), 403, 'push_refused', /clock of days/);

    const ok = await postPush(srv.port, body(tb));
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { push: 'subscribe' });
    assert.equal(pushRows(srv), 1);
    // Nothing reached the room: b is still its north, no one was replaced.
    await playMoves(a, b, ['c']);
    const [p] = await svc.wait('/h/b');
    const f = openPush(p, sub, wa.push_key, `http://127.0.0.1:${svc.port}`);
    assert.equal(f.room, room);
    assert.equal(f.seat, 'north');
    assert.equal(f.event, 'move');
    assert.equal(f.move, 'c');
    // South's token subscribes south, and cancelling takes only what it names.
    const subA = browserKeys();
    const oka = await postPush(srv.port, { room, token: ta, action: 'subscribe',
      subscription: { endpoint: svc.url('/h/a'), keys: subA.keys } });
    assert.equal(oka.status, 200);
    assert.equal(pushRows(srv), 2);
    const cancel = await postPush(srv.port, { room, token: tb, action: 'cancel', endpoint: svc.url('/h/b') });
    assert.equal(cancel.status, 200);
    assert.deepEqual(await cancel.json(), { push: 'cancel' });
    assert.equal(pushRows(srv), 1);
    await playMoves(a, b, ['A'], { from: 1 });
    const [pa] = await svc.wait('/h/a');
    assert.equal(openPush(pa, subA, wa.push_key, `http://127.0.0.1:${svc.port}`).seat, 'south');
    // The address's budget is the push message's: 2 kept above, 8 more.
    let n = 1;
    for (; n <= 10; n++) {
      const r = await postPush(srv.port, body(tb, svc.url('/q' + n)));
      if (r.status !== 200) { assert.equal(r.status, 429); assert.equal((await r.json()).error, 'rate_limited'); break; }
    }
    assert.equal(n, 9, 'the 11th subscription in a minute is refused');
    // Over: a subscription is refused, a cancel still accepted.
    a.send({ type: 'resign' });
    await a.expect('state');
    for (const until = Date.now() + 5000; pushRows(srv) !== 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    const over = await postPush(srv.port, { room, token: ta, action: 'subscribe',
      subscription: { endpoint: svc.url('/h/late'), keys: subA.keys } });
    assert.equal(over.status, 409);
    assert.equal((await over.json()).error, 'game_over');
    assert.equal(pushRows(srv), 0);
    assert.equal((await postPush(srv.port, { room, token: ta, action: 'cancel' })).status, 200);
    for (const x of [a, b, c.a, c.b]) x.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
    await svc.close();
  }
});

// A change of a subscription is answered only once its batch is committed,
// as a move is: a 200 before it could be lost with the batch.
test('POST /api/push: answered after its commit; a failed commit answers 503 and keeps nothing', PG ? { skip: 'SQLite only (the fault build fails its commits)' } : {}, async () => {
  const plan = join(tempDir(), 'plan');
  const setPlan = async (text) => {
    writeFileSync(plan, text);
    await new Promise((r) => setTimeout(r, 60)); // the server looks every 20 ms
  };
  writeFileSync(plan, '');
  const svc = await fakeService();
  const srv = await pushServer([], { OW_FAULT_FILE: plan });
  try {
    const { a, b, room, tb } = await daysRoom(srv.port);
    const sub = browserKeys();
    const body = { room, token: tb, action: 'subscribe',
      subscription: { endpoint: svc.url('/h/b'), expirationTime: null, keys: sub.keys } };
    await setPlan('fail commit 1\n# 1\n');
    const r = await postPush(srv.port, body);
    assert.equal(r.status, 503);
    const j = await r.json();
    assert.equal(j.error, 'internal');
    assert.match(j.message, /nothing changed/);
    assert.equal(pushRows(srv), 0);
    await setPlan('# 2\n');
    // The store is back within about 2 s (/healthz 200); then the row is
    // there when the answer is.
    for (const end = Date.now() + 5000; (await httpGet(srv.port, '/healthz')).status !== 200;) {
      assert.ok(Date.now() < end, 'the store back');
      await new Promise((res) => setTimeout(res, 100));
    }
    const ok = await postPush(srv.port, body);
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { push: 'subscribe' });
    assert.equal(pushRows(srv), 1);
    a.close(); b.close();
  } finally {
    await stopServer(srv);
    await svc.close();
  }
});

test('--push off: no key in the welcome, subscriptions refused; the ordinary build refuses the loopback', async () => {
  const srv = await pushServer(['--push', 'off']);
  try {
    const { a, b, wa } = await daysRoom(srv.port);
    assert.equal(wa.push_key, undefined);
    subscribe(a, 'http://127.0.0.1:9/p', browserKeys());
    assert.match((await a.expectError('push_refused')).message, /--push off/);
    assert.deepEqual(await (await httpGet(srv.port, '/api/push')).json(), { push_key: null });
    const r = await postPush(srv.port, { room: wa.room, token: wa.token, action: 'subscribe',
      subscription: { endpoint: 'http://127.0.0.1:9/p', keys: browserKeys().keys } });
    assert.equal(r.status, 403);
    assert.match((await r.json()).message, /--push off/);
    a.close();
    b.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
  const plain = await startServer([], { env: { OW_TEST_PUSH_LOOPBACK: '1' } });
  try {
    const { a, b, wa } = await daysRoom(plain.port);
    assert.match(wa.push_key, /^[\w-]{87}$/);
    subscribe(a, 'http://127.0.0.1:9/p', browserKeys());
    assert.match((await a.expectError('push_refused')).message, /https/);
    a.close();
    b.close();
  } finally {
    assert.deepEqual(await stopServer(plain), { code: 0, signal: null });
  }
});

// Several servers on one PostgreSQL: one key for all, and the server
// holding the room sends, whichever server the subscriber came through.
test('several servers: the same key; the room\'s holder sends, once', PG ? {} : { skip: 'PostgreSQL only (make test-server-pg)' }, async () => {
  const svc = await fakeService();
  const env = { OW_TEST_PUSH_LOOPBACK: '1' };
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--push-contact', CONTACT, '--node-id', 'A', '--lease-seconds', '3'], { bin: TEST_BUILD, db, env });
  const b = await startServer(['--push-contact', CONTACT, '--node-id', 'B', '--lease-seconds', '3'], { bin: TEST_BUILD, db, env });
  try {
    const s = await Client.open(a.port);
    s.send({ type: 'create', side: 'south', clock: { days: 1 }, name: 'Ana' });
    const ws = await s.expect('welcome');
    await s.expect('state');
    // North comes through B, which relays it to A (South holds A's room).
    const n = await Client.open(b.port, { room: ws.room });
    n.send({ type: 'join', room: ws.room });
    const wn = await n.expect('welcome');
    await n.expect('state');
    await s.expect('state');
    assert.equal(wn.push_key, ws.push_key, 'one key for every server');
    const sub = browserKeys();
    subscribe(n, svc.url('/push/n'), sub);
    assert.deepEqual(await n.expect('push'), { type: 'push', action: 'subscribe' });
    s.send({ type: 'move', pit: 'c', ply: 0 });
    await n.untilState((st) => st.moves.length === 1);
    const [p] = await svc.wait('/push/n');
    assert.equal(openPush(p, sub, ws.push_key, `http://127.0.0.1:${svc.port}`).by, 'Ana');
    const sent = async (srv) => Number(/^oware_push_total\{result="sent"\} (\d+)$/m
      .exec(await (await httpGet(srv.port, '/metrics')).text())[1]);
    for (const until = Date.now() + 5000; await sent(a) !== 1 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(await sent(a), 1);
    assert.equal(await sent(b), 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(svc.seen.length, 1, 'one push');
    s.close();
    n.close();
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
    await svc.close();
  }
});

test('several servers: POST /api/push to a server that does not hold the room', PG ? {} : { skip: 'PostgreSQL only (make test-server-pg)' }, async () => {
  const svc = await fakeService();
  const env = { OW_TEST_PUSH_LOOPBACK: '1' };
  const db = join(tempDir(), 'shared');
  const a = await startServer(['--push-contact', CONTACT, '--node-id', 'A', '--lease-seconds', '3'], { bin: TEST_BUILD, db, env });
  const b = await startServer(['--push-contact', CONTACT, '--node-id', 'B', '--lease-seconds', '3'], { bin: TEST_BUILD, db, env });
  try {
    const { a: s, b: n, room, tb, wa } = await daysRoom(a.port);
    const sub = browserKeys();
    const body = (token) => ({ room, token, action: 'subscribe',
      subscription: { endpoint: svc.url('/push/away'), keys: sub.keys } });
    const bad = await postPush(b.port, body('x'.repeat(43)));
    assert.equal(bad.status, 403);
    assert.equal((await bad.json()).error, 'bad_token');
    assert.equal(pushRows(b), 0);
    const ok = await postPush(b.port, body(tb));
    assert.equal(ok.status, 200, await ok.clone().text());
    assert.deepEqual(await ok.json(), { push: 'subscribe' });
    for (const until = Date.now() + 5000; pushRows(b) !== 1 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(pushRows(b), 1);
    // A, the holder, reads it from the database when South moves.
    await playMoves(s, n, ['c']);
    const [p] = await svc.wait('/push/away');
    const f = openPush(p, sub, wa.push_key, `http://127.0.0.1:${svc.port}`);
    assert.equal(f.room, room);
    assert.equal(f.seat, 'north');
    s.close();
    n.close();
  } finally {
    assert.deepEqual(await stopServer(a), { code: 0, signal: null });
    assert.deepEqual(await stopServer(b), { code: 0, signal: null });
    await svc.close();
  }
});
