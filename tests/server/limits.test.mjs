// limits.test.mjs: owared's bounds and HTTP side: message size (with
// fragments), flood, connections and rooms per address, rooms in total,
// spectators, Origin and subprotocol checks, static files, /healthz, /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { SLOW, startServer, stopServer, Client, twoPlayers, httpGet, withServer, untilConnections } from './lib.mjs';


test('oversize message: closed with 1009; fragments are reassembled', () =>
  withServer(['--max-message', '1024'], async (srv) => {
    const a = await Client.open(srv.port);
    // A valid message in three fragments.
    const text = JSON.stringify({ type: 'create', side: 'south', pad: 'x'.repeat(600) });
    a.ws.send(text.slice(0, 10), { fin: false });
    a.ws.send(text.slice(10, 300), { fin: false });
    a.ws.send(text.slice(300), { fin: true });
    await a.expect('welcome');
    await a.expect('state');
    // Fragments that together pass the limit.
    a.ws._socket.cork();
    a.ws.send('{"type":"resign","pad":"' + 'y'.repeat(700), { fin: false });
    a.ws.send('y'.repeat(700) + '"}', { fin: true });
    a.ws._socket.uncork();
    const c = await a.waitClose();
    assert.equal(c.code, 1009);
    const b = await Client.open(srv.port);
    b.send('{"x":"' + 'z'.repeat(2000) + '"}');
    assert.equal((await b.waitClose()).code, 1009);
    const m = await (await httpGet(srv.port, '/metrics')).text();
    assert.match(m, /oware_clients_dropped_total\{reason="oversize"\} 2/);
  }));

test('flood: rate_limited, then closed with 1008', () =>
  withServer(['--max-msgs-per-sec', '5'], async (srv) => {
    const a = await Client.open(srv.port);
    // One TCP write, so that nothing is still in flight when the server closes.
    a.ws._socket.cork();
    for (let i = 0; i < 30; i++) a.send({ type: 'resign' });
    a.ws._socket.uncork();
    for (let i = 0; i < 5; i++) await a.expectError('not_joined');
    await a.expectError('rate_limited');
    const c = await a.waitClose();
    assert.equal(c.code, 1008);
    assert.equal(c.reason, 'message flood');
  }));

test('connections per address: too_many_connections, then closed', () =>
  withServer(['--max-conns-per-ip', '2'], async (srv) => {
    const a = await Client.open(srv.port);
    const b = await Client.open(srv.port);
    const c = await Client.open(srv.port);
    await c.expectError('too_many_connections');
    assert.equal((await c.waitClose()).code, 1008);
    a.close();
    await untilConnections(srv.port, 1); // b's only
    const d = await Client.open(srv.port); // a's place is free again
    d.send({ type: 'create', side: 'south' });
    await d.expect('welcome');
    b.close(); d.close();
  }));

test('connections in total: --max-connections, then closed', () =>
  withServer(['--max-connections', '16'], async (srv) => {
    const cs = [];
    for (let i = 0; i < 16; i++) cs.push(await Client.open(srv.port));
    const extra = await Client.open(srv.port);
    await extra.expectError('too_many_connections');
    assert.equal((await extra.waitClose()).code, 1008);
    cs[0].close();
    await untilConnections(srv.port, 15);
    const d = await Client.open(srv.port); // a place is free again
    d.send({ type: 'create', side: 'south' });
    await d.expect('welcome');
    for (const c of [...cs.slice(1), d]) c.close();
  }));

test('rooms per address per minute and rooms in total', async () => {
  await withServer(['--rooms-per-ip-per-min', '2'], async (srv) => {
    const cs = [];
    for (let i = 0; i < 3; i++) {
      const c = await Client.open(srv.port);
      c.send({ type: 'create', side: 'south' });
      cs.push(c);
    }
    await cs[0].expect('welcome');
    await cs[1].expect('welcome');
    await cs[2].expectError('rate_limited');
    cs.forEach((c) => c.close());
  });
  await withServer(['--max-rooms', '1'], async (srv) => {
    const a = await Client.open(srv.port);
    a.send({ type: 'create', side: 'south' });
    await a.expect('welcome');
    const b = await Client.open(srv.port);
    b.send({ type: 'create', side: 'south' });
    await b.expectError('too_many_rooms');
    a.close(); b.close();
  });
});

test('spectators per room', () =>
  withServer(['--max-spectators', '1'], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    const s1 = await Client.open(srv.port, { room });
    s1.send({ type: 'join', room });
    assert.equal((await s1.expect('welcome')).seat, 'spectator');
    const s2 = await Client.open(srv.port, { room });
    s2.send({ type: 'join', room });
    await s2.expectError('too_many_spectators');
    a.close(); b.close(); s1.close(); s2.close();
  }));

test('slow reader: a client that sends but does not read is dropped as slow', () =>
  withServer(['--max-queue', '4', '--max-msgs-per-sec', '100000', '--sync', 'normal',
    '--ping-seconds', '1', '--hangup-seconds', '2'], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    const s = await Client.open(srv.port, { room });
    s.send({ type: 'join', room });
    await s.expect('welcome');
    s.ws.pause(); // the spectator stops reading
    // Offers and declines broadcast states until the laggard's socket and queue fill.
    let dropped = false;
    for (let i = 0; i < 20000 && !dropped; i++) {
      if (i % 10 === 0 && s.ws.readyState === 1) s.send({ type: 'claim' }); // answered, unread
      a.send({ type: 'draw', action: 'offer' });
      await a.untilState((st) => st.draw_offer === 'south');
      b.send({ type: 'draw', action: 'decline' });
      await a.untilState((st) => st.draw_offer === null);
      b.queue.length = 0;
      if (i % 100 === 99) {
        const m = await (await httpGet(srv.port, '/metrics')).text();
        dropped = /oware_clients_dropped_total\{reason="slow"\} 1/.test(m);
      }
    }
    assert.ok(dropped, 'the slow spectator was dropped');
    a.close(); b.close(); s.terminate();
  }));

test('Origin: own host allowed, foreign refused with 403, --allow-origin list', () =>
  withServer(['--allow-origin', 'https://good.example, https://other.example'], async (srv) => {
    const own = await Client.open(srv.port, { origin: `http://127.0.0.1:${srv.port}` });
    own.close();
    const listed = await Client.open(srv.port, { origin: 'https://good.example' });
    listed.close();
    await assert.rejects(Client.open(srv.port, { origin: 'https://evil.example' }),
      (e) => e.status === 403);
    await assert.rejects(Client.open(srv.port, { origin: `http://127.0.0.1:${srv.port + 1}` }),
      (e) => e.status === 403);
    // Without the subprotocol: refused.
    await assert.rejects(Client.open(srv.port, { protocol: null }), (e) => e.status === 400);
    const m = await (await httpGet(srv.port, '/metrics')).text();
    assert.match(m, /oware_upgrades_refused_total 2/);
  }));

test('static files, /healthz and /metrics', () =>
  withServer([], async (srv) => {
    let r = await httpGet(srv.port, '/');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /text\/html/);
    assert.match(await r.text(), /fixture/);
    assert.match(r.headers.get('cache-control') || '', /max-age=60/);
    assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    r = await httpGet(srv.port, '/t.wasm');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/wasm');
    r = await httpGet(srv.port, '/app.mjs');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /text\/javascript/);
    r = await httpGet(srv.port, '/nope.html');
    assert.equal(r.status, 404);

    const { a, b } = await twoPlayers(srv.port);
    a.send({ type: 'move', pit: 'c', ply: 0 });
    await a.expect('state'); await b.expect('state');
    b.send({ type: 'move', pit: 'a', ply: 1 });
    await b.expectError('illegal_move');

    r = await httpGet(srv.port, '/healthz');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /application\/json/);
    const h = await r.json();
    assert.equal(h.ok, true);
    assert.equal(h.rooms, 1);
    assert.equal(h.connections, 2);
    assert.equal(typeof h.uptime, 'number');

    r = await httpGet(srv.port, '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /text\/plain/);
    const m = await r.text();
    assert.match(m, /^oware_rooms 1$/m);
    assert.match(m, /^oware_connections 2$/m);
    assert.match(m, /^oware_moves_total 1$/m);
    assert.match(m, /^oware_rooms_created_total 1$/m);
    assert.match(m, /^oware_errors_total\{code="illegal_move"\} 1$/m);
    assert.match(m, /^# TYPE oware_errors_total counter$/m);
    a.close(); b.close();
  }));

test('client address: X-Forwarded-For only with --trust-proxy', async () => {
  const xff = (ip) => ({ headers: { 'X-Forwarded-For': `203.0.113.9, ${ip}` } });
  await withServer(['--trust-proxy', '--max-conns-per-ip', '1'], async (srv) => {
    const a = await Client.open(srv.port, xff('10.0.0.1'));
    const b = await Client.open(srv.port, xff('10.0.0.2'));
    const c = await Client.open(srv.port, xff('10.0.0.1'));
    await c.expectError('too_many_connections');
    a.send({ type: 'create', side: 'south' });
    await a.expect('welcome');
    b.send({ type: 'create', side: 'south' });
    await b.expect('welcome');
    a.close(); b.close();
  });
  await withServer(['--max-conns-per-ip', '1'], async (srv) => {
    const a = await Client.open(srv.port, xff('10.0.0.1'));
    const b = await Client.open(srv.port, xff('10.0.0.2'));
    await b.expectError('too_many_connections');
    a.close();
  });
});

test('keepalive: a client that answers no ping is hung up; one that does stays', () =>
  withServer(['--ping-seconds', '1', '--ping-seconds', '1', '--hangup-seconds', '2'], async (srv) => {
    const alive = await Client.open(srv.port);
    const dead = await Client.open(srv.port, { autoPong: false });
    const t0 = Date.now();
    const c = await dead.waitClose(6000);
    assert.ok(Date.now() - t0 >= 1500, 'not before the hang-up time');
    assert.notEqual(c.code, 1000);
    assert.equal(alive.closed, null);
    alive.send({ type: 'create', side: 'south' });
    await alive.expect('welcome');
    alive.close();
  }));

test('unix socket: /healthz and a game over --unix', async () => {
  const { tempDir } = await import('./lib.mjs');
  const { request } = await import('node:http');
  const sock = `${tempDir()}/owared.sock`;
  const srv = await startServer(['--unix', sock]);
  const body = await new Promise((res, rej) => {
    request({ socketPath: sock, path: '/healthz' }, (r) => {
      let d = '';
      r.on('data', (x) => { d += x; });
      r.on('end', () => res(d));
    }).on('error', rej).end();
  });
  assert.equal(JSON.parse(body).ok, true);
  const a = await Client.open(0, { url: `ws+unix://${sock}:/ws` });
  a.send({ type: 'create', side: 'south' });
  assert.equal((await a.expect('welcome')).seat, 'south');
  a.close();
  assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
});

test('spectators coming and going: no write, a count a second, never a player dropped; joins per address', () =>
  withServer(['--max-queue', '8', '--joins-per-ip-per-min', '400', '--max-spectators', '1000'], async (srv) => {
    const { a, b, room } = await twoPlayers(srv.port);
    const metric = async (name) => Number(new RegExp(`\\n${name} (\\d+)`).exec(
      await (await httpGet(srv.port, '/metrics')).text())[1]);
    const commits = await metric('oware_store_commits_total');
    b.ws.pause(); // a slow (not reading) player
    const t0 = Date.now();
    for (let i = 0; i < 150; i++) {
      const s = await Client.open(srv.port, { room });
      s.send({ type: 'join', room });
      await s.expect('welcome');
      const st = await s.expect('state');
      assert.equal(st.version, 2); // spectators change no version
      s.terminate();
    }
    assert.equal(await metric('oware_store_commits_total'), commits);
    await new Promise((r) => setTimeout(r, 1200));
    b.ws.resume();
    // The slow player is still there, and a's states came a few a second.
    assert.equal(b.closed, null);
    // At most four counts a second (PROTOCOL.md: three at once, the rest
    // together at the end of the second), however long the 300 visits
    // took on this machine (a second when quiet, ten times that when
    // loaded): each second's window starts with a change, so a run of s
    // seconds holds at most s + 1 of them.
    const states = a.queue.filter((m) => m.type === 'state');
    const seconds = Math.ceil((Date.now() - t0) / 1000);
    assert.ok(states.length <= 4 * (seconds + 1) && states.length < 150,
      `${states.length} states for 300 visits in ${seconds} s`);
    assert.equal(states.at(-1).spectators, 0);
    a.send({ type: 'move', pit: 'c', ply: 0 });
    await b.untilState((st) => st.moves.length === 1);
    // Joins per address per minute.
    let limited = 0;
    for (let i = 0; i < 260 && !limited; i++) {
      const s = await Client.open(srv.port, { room });
      s.send({ type: 'join', room });
      const m = await s.next();
      if (m.type === 'error') {
        assert.equal(m.code, 'rate_limited');
        limited = i + 1;
      }
      s.terminate();
    }
    assert.equal(limited, 400 - 150 - 1 + 1); // b's join counted too
    a.close(); b.close();
  }));

test('--max-handshakes: only that many connections have their headers read at once; the next waits its turn', () =>
  withServer(['--max-handshakes', '2'], async (srv) => {
    // Connections that never finish their request headers each hold a
    // header buffer (from their own addresses: a newcomer's would
    // otherwise be within its share, and evict one of its address's,
    // gate.c).
    const trickle = async (host) => {
      const s = await new Promise((res, rej) => {
        const c = connect({ port: srv.port, host: '127.0.0.1', localAddress: host }, () => res(c));
        c.on('error', rej);
      });
      s.on('error', () => {});
      s.gone = false;
      s.on('close', () => { s.gone = true; });
      s.write('GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      return s;
    };
    const opening = (host) => {
      const p = Client.open(srv.port, { localAddress: host }).then((c) => { p.opened = true; return c; });
      p.opened = false;
      return p;
    };
    const slow = [await trickle('127.0.0.3'), await trickle('127.0.0.4')];
    await new Promise((r) => setTimeout(r, 100));
    // A third, from another address, waits (not refused) while the two
    // are younger than a second ...
    const third = opening('127.0.0.2');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(third.opened, false, 'a third handshake was read while two held the buffers');
    // ... and is served as soon as one of them goes.
    slow[0].destroy();
    const c = await third;
    c.send({ type: 'create', side: 'south' });
    await c.expect('welcome');
    // The pool full again; a newcomer waits until the oldest holder has
    // been sending its head for a second, which then makes way.
    slow.push(await trickle('127.0.0.5'));
    const fourth = opening('127.0.0.6');
    const d = await fourth;
    d.send({ type: 'create', side: 'south' });
    await d.expect('welcome');
    for (const end = Date.now() + 3000 * SLOW; !slow[1].gone && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
    assert.equal(slow[1].gone, true, 'the oldest trickler was not made to go');
    assert.equal(slow[2].gone, false, 'a young trickler was made to go');
    const m = await (await httpGet(srv.port, '/metrics')).text();
    assert.match(m, /oware_handshakes_cut_total\{reason="evicted"\} 1\n/);
    c.close();
    d.close();
    slow[2].destroy();
  }));
