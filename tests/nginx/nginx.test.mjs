// nginx.test.mjs: the shipped nginx sites (deploy/nginx/) in front of the
// real server, on loopback ports, with a throwaway certificate: at the root
// and under /oware/, the page loads, a room is created and played over the
// WebSocket, a reconnect keeps the seat, the logged client address is the
// forwarded one only with --trust-proxy, and a foreign Origin is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import http from 'node:http';
import https from 'node:https';
import WebSocket from 'ws';
import { startServer, stopServer, Client } from '../server/lib.mjs';
import { startNginx } from './nginx.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
let trusted, untrusted, nginx;
const port = {};

// GET url (with headers), trusting the test's own certificate; no
// redirects followed; the body as sent (not decompressed).
function fetchTls(url, headers = {}) {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((res, rej) => {
    const req = mod.get(url, { ca: nginx.cert, headers }, (r) => {
      const chunks = [];
      r.on('data', (d) => chunks.push(d));
      r.on('end', () => {
        const body = Buffer.concat(chunks);
        res({
          status: r.statusCode,
          body,
          headers: { get: (k) => r.headers[k.toLowerCase()] ?? null },
          text: async () => body.toString(),
          json: async () => JSON.parse(body.toString()),
        });
      });
    });
    req.on('error', rej);
    req.setTimeout(5000, () => req.destroy(new Error('timeout ' + url)));
  });
}

function openWs(url, { origin, token, localAddress, headers } = {}) {
  const ws = new WebSocket(url, ['oware.v1'], {
    origin, localAddress, headers, ca: nginx.cert,
  });
  const c = new Client(ws);
  return new Promise((res, rej) => {
    ws.once('open', () => res(c));
    ws.once('unexpected-response', (req, resp) => rej(Object.assign(new Error('refused ' + resp.statusCode), { status: resp.statusCode })));
    ws.once('error', rej);
  });
}

before(async () => {
  trusted = await startServer(['--trust-proxy', '--web-root', join(ROOT, 'web')]);
  untrusted = await startServer(['--web-root', join(ROOT, 'web')]);
  nginx = await startNginx([
    { template: 'oware-rooms.conf', upstream: trusted.port },
    { template: 'oware-rooms-prefix.conf', upstream: trusted.port },
    { template: 'oware-rooms.conf', upstream: untrusted.port, rename: 'oware_rooms_untrusted' },
  ]);
  [port.rootHttp, port.rootHttps] = [nginx.sites[0].http, nginx.sites[0].https];
  [port.prefixHttp, port.prefixHttps] = [nginx.sites[1].http, nginx.sites[1].https];
  [port.plainHttp, port.plainHttps] = [nginx.sites[2].http, nginx.sites[2].https];
});

after(async () => {
  if (nginx) await nginx.stop();
  if (trusted) await stopServer(trusted);
  if (untrusted) await stopServer(untrusted);
});

test('the page, the wasm engine and /healthz load through nginx at the root', async () => {
  const base = `https://127.0.0.1:${port.rootHttps}/`;
  const page = await fetchTls(base);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<script type="module" src="[^"/][^"]*"/, 'module script by relative URL');
  const wasm = await fetchTls(base + 'engine.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  const health = await (await fetchTls(base + 'healthz')).json();
  assert.equal(health.ok, true);
  const redirect = await fetchTls(`http://127.0.0.1:${port.rootHttp}/?room=x`);
  assert.equal(redirect.status, 301);
  assert.equal(redirect.headers.get('location'), `https://127.0.0.1/?room=x`);
});

test('the page loads under /oware/ with the prefix stripped', async () => {
  const base = `https://127.0.0.1:${port.prefixHttps}/oware/`;
  const page = await fetchTls(base);
  assert.equal(page.status, 200);
  assert.equal(await page.text(), await (await fetchTls(`https://127.0.0.1:${port.rootHttps}/`)).text());
  const bare = await fetchTls(`https://127.0.0.1:${port.prefixHttps}/oware`);
  assert.equal(bare.status, 301);
  assert.match(bare.headers.get('location'), /\/oware\/$/);
  const wasm = await fetchTls(base + 'engine.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  const outside = await fetchTls(`https://127.0.0.1:${port.prefixHttps}/engine.wasm`);
  assert.equal(outside.status, 404, 'nothing is served outside the prefix');
});

test('under /oware/: brotli copies, the modules under v/<hash>/ kept a year, the page revalidated', async () => {
  const base = `https://127.0.0.1:${port.prefixHttps}/oware/`;
  const boot = await (await fetchTls(base + 'boot.js')).text();
  const ver = /^import '\.\/(v\/[0-9a-f]{16})\/app\.js';$/m.exec(boot);
  assert.ok(ver, boot);
  const app = await fetchTls(`${base}${ver[1]}/app.js`, { 'accept-encoding': 'gzip, deflate, br', 'sec-fetch-dest': 'script' });
  assert.equal(app.status, 200);
  assert.equal(app.headers.get('content-encoding'), 'br');
  assert.equal(app.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(app.headers.get('vary'), /Accept-Encoding/);
  assert.equal(app.headers.get('content-security-policy'), null, 'a module needs no page headers');
  assert.equal(brotliDecompressSync(app.body).toString().split('\n').length,
    readFileSync(join(ROOT, 'web/app.js'), 'utf8').split('\n').length, 'the same lines');
  const page = await fetchTls(base, { 'accept-encoding': 'gzip, br' });
  assert.equal(page.headers.get('content-encoding'), 'br');
  assert.equal(page.headers.get('cache-control'), 'must-revalidate, private, max-age=60');
  assert.ok(page.headers.get('content-security-policy'));
  const again = await fetchTls(base, { 'accept-encoding': 'gzip, br', 'if-none-match': page.headers.get('etag') });
  assert.equal(again.status, 304);
  for (const [f, type] of [['sw.js', 'text/javascript'], ['sw-files.js', 'text/javascript'],
    ['manifest.webmanifest', 'application/manifest+json'], [`${ver[1]}/engine.wasm`, 'application/wasm']]) {
    const r = await fetchTls(base + f, { 'accept-encoding': 'br' });
    assert.equal(r.status, 200, f);
    assert.equal(r.headers.get('content-type'), type, f);
  }
});

// Creates a room at wsUrl, joins it, plays, drops the creator and reclaims
// the seat with its token; returns the room id.
async function playThrough(origin, wsUrl, extra = {}) {
  const a = await openWs(wsUrl, { origin, ...extra });
  a.send({ type: 'create', side: 'south' });
  const wa = await a.expect('welcome');
  assert.equal(wa.seat, 'south');
  assert.ok(wa.token.length >= 22);
  await a.expect('state');
  const b = await openWs(`${wsUrl}?room=${wa.room}`, { origin });
  b.send({ type: 'join', room: wa.room });
  const wb = await b.expect('welcome');
  assert.equal(wb.seat, 'north');
  await b.expect('state');
  await a.expect('state');
  const moves = ['c', 'A', 'f', 'F'];
  for (let ply = 0; ply < moves.length; ply++) {
    (ply % 2 ? b : a).send({ type: 'move', pit: moves[ply], ply });
    for (const c of [a, b]) {
      const st = await c.expect('state');
      assert.deepEqual(st.moves, moves.slice(0, ply + 1));
    }
  }
  a.terminate();
  await b.untilState((s) => s.seats.south.connected === false);
  const again = await openWs(`${wsUrl}?room=${wa.room}`, { origin });
  again.send({ type: 'join', room: wa.room, token: wa.token });
  const w = await again.expect('welcome');
  assert.equal(w.seat, 'south');
  const st = await again.expect('state');
  assert.deepEqual(st.moves, moves);
  const expected = JSON.parse(execFileSync(join(ROOT, 'build/oware'), ['play', ...moves]).toString());
  assert.deepEqual(st.game, expected);
  await b.untilState((s) => s.seats.south.connected === true);
  again.send({ type: 'move', pit: st.game.legal[0], ply: 4 });
  const after = await b.untilState((s) => s.moves.length === 5);
  assert.equal(after.moves[4], st.game.legal[0]);
  again.close();
  b.close();
  return wa.room;
}

test('a room is created, played and rejoined over wss at the root', async () => {
  const origin = `https://127.0.0.1:${port.rootHttps}`;
  await playThrough(origin, `wss://127.0.0.1:${port.rootHttps}/ws`);
});

test('a room is created, played and rejoined over wss under /oware/', async () => {
  const origin = `https://127.0.0.1:${port.prefixHttps}`;
  await playThrough(origin, `wss://127.0.0.1:${port.prefixHttps}/oware/ws`);
});

test('the logged client address is the forwarded one only with --trust-proxy', async () => {
  // The test connects from 127.0.0.2 and forges an X-Forwarded-For of its
  // own: a trusting server must log what nginx saw (127.0.0.2), never the
  // forged entry; a server that does not trust the proxy logs nginx itself.
  const forged = { 'X-Forwarded-For': '203.0.113.9' };
  const t = await playThrough(`https://127.0.0.1:${port.rootHttps}`,
    `wss://127.0.0.1:${port.rootHttps}/ws`, { localAddress: '127.0.0.2', headers: forged });
  const u = await playThrough(`https://127.0.0.1:${port.plainHttps}`,
    `wss://127.0.0.1:${port.plainHttps}/ws`, { localAddress: '127.0.0.2', headers: forged });
  const created = (srv, room) => srv.lines.find((l) => l.includes('room_created') && l.includes(room));
  assert.match(created(trusted, t), /addr=127\.0\.0\.2\b/);
  assert.match(created(untrusted, u), /addr=127\.0\.0\.1\b/);
  for (const l of [...trusted.lines, ...untrusted.lines]) assert.ok(!l.includes('203.0.113.9'), l);
});

test('an upgrade from a foreign Origin is refused through nginx', async () => {
  for (const url of [`wss://127.0.0.1:${port.rootHttps}/ws`, `wss://127.0.0.1:${port.prefixHttps}/oware/ws`]) {
    await assert.rejects(openWs(url, { origin: 'https://evil.example' }), (e) => e.status === 403);
  }
  const ok = await openWs(`wss://127.0.0.1:${port.rootHttps}/ws`, { origin: `https://127.0.0.1:${port.rootHttps}` });
  ok.close();
});

// POST url with a JSON body, trusting the test's own certificate.
function postTls(url, body, headers = {}) {
  return new Promise((res, rej) => {
    const data = JSON.stringify(body);
    const req = https.request(url, { method: 'POST', ca: nginx.cert,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...headers } }, (r) => {
      const chunks = [];
      r.on('data', (d) => chunks.push(d));
      r.on('end', () => res({ status: r.statusCode, json: () => JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', rej);
    req.setTimeout(5000, () => req.destroy(new Error('timeout ' + url)));
    req.end(data);
  });
}

test('POST /api/rooms (your games) through nginx, at the root and under /oware/', async () => {
  const origin = `https://127.0.0.1:${port.prefixHttps}`;
  const a = await openWs(`wss://127.0.0.1:${port.prefixHttps}/oware/ws`, { origin });
  a.send({ type: 'create', side: 'north', name: 'Ana' });
  const w = await a.expect('welcome');
  await a.expect('state');
  for (const [base, o] of [[`https://127.0.0.1:${port.prefixHttps}/oware/`, origin],
    [`https://127.0.0.1:${port.rootHttps}/`, `https://127.0.0.1:${port.rootHttps}`]]) {
    const r = await postTls(base + 'api/rooms', { rooms: [{ room: w.room, token: w.token }, { room: 'gone' }] },
      { origin: o });
    assert.equal(r.status, 200, base);
    const { rooms } = r.json();
    assert.equal(rooms[0].seat, 'north');
    assert.deepEqual(rooms[0].names, { south: null, north: 'Ana' });
    assert.deepEqual(rooms[1], { room: 'gone', found: false });
  }
  const foreign = await postTls(`https://127.0.0.1:${port.rootHttps}/api/rooms`, { rooms: [] },
    { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  a.close();
});
