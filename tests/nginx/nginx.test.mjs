// nginx.test.mjs: the shipped nginx sites (deploy/nginx/) in front of the
// real server, on loopback ports, with a throwaway certificate: at the root
// and under /oware/, the page loads, a room is created and played over the
// WebSocket, a reconnect keeps the seat, the logged client address is the
// forwarded one only with --trust-proxy, and a foreign Origin is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join, resolve } from 'node:path';
import http from 'node:http';
import https from 'node:https';
import WebSocket from 'ws';
import { startServer, stopServer, tempDir, Client } from '../server/lib.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const NGINX = process.env.NGINX || '/usr/sbin/nginx';
const dir = tempDir();
let trusted, untrusted, nginx;
const port = {};

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
  });
}

function waitPort(p, ms = 5000) {
  const until = Date.now() + ms;
  return new Promise((res, rej) => {
    const attempt = () => {
      const s = connect(p, '127.0.0.1');
      s.once('connect', () => { s.destroy(); res(); });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > until) rej(new Error('nginx did not listen on ' + p));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

// A site template made concrete the way a self-hoster would edit it: our
// ports and certificate, loopback only, the upstream where owared listens.
function site(template, { domain, http, https, upstream, rename }) {
  let s = readFileSync(join(ROOT, 'deploy/nginx', template), 'utf8');
  s = s.replace(/^\s*listen \[::\].*$/gm, '')
    .replace(/listen 80;/g, `listen 127.0.0.1:${http};`)
    .replace(/listen 443 ssl http2;/g, `listen 127.0.0.1:${https} ssl http2;`)
    .replaceAll(`/etc/letsencrypt/live/${domain}/fullchain.pem`, join(dir, 'cert.pem'))
    .replaceAll(`/etc/letsencrypt/live/${domain}/privkey.pem`, join(dir, 'key.pem'))
    .replaceAll('root /var/www/html;', `root ${dir};`)
    .replace(/server 127\.0\.0\.1:8080;/g, `server 127.0.0.1:${upstream};`);
  if (rename) s = s.replace(/\boware_rooms\b/g, rename);
  assert.ok(s.includes(`127.0.0.1:${upstream}`), 'the template names the upstream');
  return s;
}

// GET url, trusting the test's own certificate; no redirects followed.
function fetchTls(url) {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((res, rej) => {
    const req = mod.get(url, { ca: readFileSync(join(dir, 'cert.pem')) }, (r) => {
      const chunks = [];
      r.on('data', (d) => chunks.push(d));
      r.on('end', () => {
        const body = Buffer.concat(chunks);
        res({
          status: r.statusCode,
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
    origin, localAddress, headers, ca: readFileSync(join(dir, 'cert.pem')),
  });
  const c = new Client(ws);
  return new Promise((res, rej) => {
    ws.once('open', () => res(c));
    ws.once('unexpected-response', (req, resp) => rej(Object.assign(new Error('refused ' + resp.statusCode), { status: resp.statusCode })));
    ws.once('error', rej);
  });
}

before(async () => {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  trusted = await startServer(['--trust-proxy', '--web-root', join(ROOT, 'web')]);
  untrusted = await startServer(['--web-root', join(ROOT, 'web')]);
  for (const k of ['rootHttp', 'rootHttps', 'prefixHttp', 'prefixHttps', 'plainHttp', 'plainHttps'])
    port[k] = await freePort();
  const sites = [
    site('oware-rooms.conf', { domain: 'oware.example.org', http: port.rootHttp, https: port.rootHttps, upstream: trusted.port }),
    site('oware-rooms-prefix.conf', { domain: 'example.org', http: port.prefixHttp, https: port.prefixHttps, upstream: trusted.port }),
    site('oware-rooms.conf', { domain: 'oware.example.org', http: port.plainHttp, https: port.plainHttps, upstream: untrusted.port, rename: 'oware_rooms_untrusted' }),
  ];
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(dir, d), { recursive: true });
  sites.forEach((s, i) => writeFileSync(join(dir, `site${i}.conf`), s));
  const runAsRoot = process.getuid && process.getuid() === 0 ? 'user root;\n' : '';
  writeFileSync(join(dir, 'nginx.conf'), `${runAsRoot}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 128; }
http {
  access_log ${dir}/logs/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site0.conf;
  include ${dir}/site1.conf;
  include ${dir}/site2.conf;
}
`);
  execFileSync(NGINX, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  for (const k of Object.keys(port)) await waitPort(port[k]);
});

after(async () => {
  if (nginx) { nginx.kill('SIGQUIT'); await new Promise((r) => nginx.once('exit', r)); }
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
