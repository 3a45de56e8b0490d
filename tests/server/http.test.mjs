// http.test.mjs: the HTTP endpoint against requests written by hand on raw
// sockets (issue 30): trickled bodies, missing and ambiguous framing,
// pipelined requests. Each test is bounded in time; loopback only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import http from 'node:http';
import { readFileSync, writeFileSync, utimesSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, gunzipSync, brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { SLOW, startServer, stopServer, tempDir, withServer } from './lib.mjs';

// A raw connection that collects what the server sends and when it closes.
function rawOpen(port) {
  return new Promise((res, rej) => {
    const s = connect({ port, host: '127.0.0.1' }, () => res(s));
    s.data = '';
    s.gone = false;
    s.goneAt = 0;
    s.on('data', (d) => { s.data += d.toString('latin1'); });
    s.on('close', () => { s.gone = true; s.goneAt = Date.now(); });
    s.on('error', () => {});
    s.once('error', rej);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(pred, ms) {
  const end = Date.now() + ms * SLOW;
  while (!pred() && Date.now() < end) await sleep(10);
  return pred();
}

// The answers in text, each {status, headers, body}; a head whose body has
// not fully arrived is returned with cut: true.
function answers(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const e = text.indexOf('\r\n\r\n', i);
    if (e < 0) { out.push({ cut: true }); break; }
    const [line, ...lines] = text.slice(i, e).split('\r\n');
    const headers = {};
    for (const l of lines) {
      const k = l.indexOf(':');
      headers[l.slice(0, k).toLowerCase()] = l.slice(k + 1).trim();
    }
    const len = Number(headers['content-length'] || 0);
    const body = text.slice(e + 4, e + 4 + len);
    out.push({ status: Number(line.split(' ')[1]), headers, body, cut: body.length < len });
    i = e + 4 + len;
  }
  return out;
}

const BODY = '{"rooms":[]}';
const post = (extra, body = BODY) =>
  `POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n\r\n${body}`;

test('a body trickled one byte a second is cut off 5 s after the headers, unanswered', () =>
  withServer([], async (srv) => {
    const socks = await Promise.all([0, 1, 2].map(() => rawOpen(srv.port)));
    const t0 = Date.now();
    for (const s of socks) s.write('POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n');
    for (let i = 0; i < 9 && !socks.every((s) => s.gone); i++) {
      for (const s of socks) if (!s.gone) s.write('x');
      await sleep(1000);
    }
    for (const s of socks) {
      assert.ok(s.gone, 'still open after 9 s of trickling');
      assert.ok(s.goneAt - t0 >= 4500 && s.goneAt - t0 < 7000, `closed after ${s.goneAt - t0} ms`);
      assert.equal(s.data, '');
    }
    assert.equal(srv.lines.filter((l) => / http_dropped reason=body_timeout seconds=5 addr=127.0.0.1$/.test(l)).length, 3);
    // The server still answers.
    const r = await fetch(`http://127.0.0.1:${srv.port}/api/rooms`, { method: 'POST', body: BODY });
    assert.equal(r.status, 200);
  }));

test('headers trickled a byte at a time are cut off 10 s after their first byte', () =>
  withServer([], async (srv) => {
    const head = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(100)}\r\n\r\n`;
    const s = await rawOpen(srv.port);
    const t0 = Date.now();
    for (let i = 0; i < head.length && !s.gone && Date.now() - t0 < 14000; i++) {
      s.write(head[i]);
      await sleep(250);
    }
    assert.ok(s.gone, 'still open after 14 s');
    assert.ok(s.goneAt - t0 >= 9500 && s.goneAt - t0 < 12000, `closed after ${s.goneAt - t0} ms`);
    assert.equal(s.data, '');
  }));

test('a POST without Content-Length gets 411 at once, and the connection closes', () =>
  withServer([], async (srv) => {
    for (const extra of ['Content-Type: application/json', 'Transfer-Encoding: chunked']) {
      const s = await rawOpen(srv.port);
      const t0 = Date.now();
      s.write(post(extra, extra.includes('chunked') ? 'c\r\n' + BODY + '\r\n0\r\n\r\n' : ''));
      assert.ok(await until(() => s.gone, 3000), extra);
      assert.ok(Date.now() - t0 < 2000);
      const [a, more] = answers(s.data);
      assert.equal(a.status, 411, extra);
      assert.equal(a.cut, false);
      assert.equal(a.headers.connection, 'close');
      assert.deepEqual(JSON.parse(a.body), { error: 'bad_request', message: 'a Content-Length is required' });
      assert.equal(more, undefined);
    }
  }));

test('ambiguous framing is refused with 400 and a close: two lengths, a sign, a length beside chunked', () =>
  withServer([], async (srv) => {
    const bad = [
      `Content-Length: ${BODY.length}\r\nContent-Length: ${BODY.length + 1}`,
      `Content-Length: ${BODY.length}\r\nContent-Length: ${BODY.length}`,
      `Content-Length: +${BODY.length}`,
      `Content-Length: ${BODY.length}, ${BODY.length}`,
      `Content-Length: 0x0c`,
      `Content-Length: ${BODY.length}\r\nTransfer-Encoding: chunked`,
    ];
    for (const extra of bad) {
      const s = await rawOpen(srv.port);
      s.write(post(extra) + 'x');
      assert.ok(await until(() => s.gone, 3000), extra);
      const got = answers(s.data);
      assert.equal(got.length, 1, extra);
      assert.equal(got[0].status, 400, extra);
      assert.equal(got[0].headers.connection, 'close');
      assert.equal(JSON.parse(got[0].body).error, 'bad_request');
    }
    // A GET that announces a body is refused the same way (plain 400).
    for (const extra of ['Content-Length: 5', 'Transfer-Encoding: chunked']) {
      const s = await rawOpen(srv.port);
      s.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n${extra}\r\n\r\nhello`);
      assert.ok(await until(() => s.gone, 3000), extra);
      const got = answers(s.data);
      assert.equal(got.length, 1, extra);
      assert.equal(got[0].status, 400, extra);
      assert.equal(got[0].cut, false);
      assert.equal(got[0].headers.connection, 'close');
    }
    // One plain length still works.
    const s = await rawOpen(srv.port);
    s.write(post(`Content-Length: ${BODY.length}`));
    assert.ok(await until(() => s.gone, 3000));
    const [a] = answers(s.data);
    assert.equal(a.status, 200);
    assert.deepEqual(JSON.parse(a.body), { rooms: [] });
  }));

test('pipelined requests: every answer that starts is whole, then the connection closes', () =>
  withServer([], async (srv) => {
    const cases = [
      [post(`Content-Length: ${BODY.length}`).repeat(2), 1, true],
      ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5), 1, true],
      ['GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3), 1, true],
      // A request behind a file (served by lws, which keeps the
      // connection) may get an error, but a whole one.
      ['GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n' + post(`Content-Length: ${BODY.length}`), 1, false],
      ['GET /index.html HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 1, false],
    ];
    for (const [text, min, close] of cases) {
      const s = await rawOpen(srv.port);
      s.write(text);
      assert.ok(await until(() => s.gone, 5000), text);
      const got = answers(s.data);
      assert.ok(got.length >= min, `${got.length} answers to ${JSON.stringify(text)}`);
      assert.equal(got[0].status, 200);
      for (const a of got) {
        assert.equal(a.cut, false, JSON.stringify(text));
        if (close) assert.equal(a.status, 200, JSON.stringify(text));
      }
      // Our own answers tell the client the connection ends.
      if (close) assert.equal(got.at(-1).headers.connection, 'close');
    }
    assert.ok(!srv.lines.some((l) => / (error|warn) /.test(l) && !/ fd_limit /.test(l)),
      srv.lines.join('\n'));
  }));

// An upgrade request written by hand (lib.mjs's clients send proper ones).
function upgradeText({ protocol = 'oware.v1', origin, xff } = {}) {
  const h = ['GET /ws HTTP/1.1', 'Host: 127.0.0.1', 'Upgrade: websocket', 'Connection: Upgrade',
    'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    `Sec-WebSocket-Protocol: ${protocol}`];
  if (origin) h.push(`Origin: ${origin}`);
  if (xff) h.push(`X-Forwarded-For: ${xff}`);
  return h.join('\r\n') + '\r\n\r\n';
}

async function refusedUpgrade(port, opts) {
  const s = await rawOpen(port);
  s.write(Buffer.from(upgradeText(opts), 'latin1'));
  await until(() => s.data.includes('\r\n\r\n') || s.gone, 3000);
  s.destroy();
  return Number(s.data.split(' ')[1]);
}

test('client-given values are escaped in the log: no terminal escape, quote or fake pair', () =>
  withServer(['--trust-proxy'], async (srv) => {
    const origin = 'http://e\x1b[31mvil" addr=6.6.6.6 x="\\';
    assert.equal(await refusedUpgrade(srv.port, { origin, xff: '10.0.0.1' }), 403);
    assert.equal(await refusedUpgrade(srv.port, { protocol: 'chat', xff: '10.0.0.2 x" addr=6.6.6.6\x1b' }), 400);
    await until(() => srv.lines.filter((l) => / upgrade_refused /.test(l)).length >= 2, 2000);
    const lines = srv.lines.filter((l) => / upgrade_refused /.test(l));
    assert.equal(lines.length, 2, srv.lines.join('\n'));
    for (const l of lines) {
      assert.ok(!/[\x00-\x1f\x7f]/.test(l), l);
      assert.ok(!l.includes('addr=6.6.6.6'), l);
      assert.equal(l.match(/ addr=/g).length, 1, l);
    }
    assert.match(lines[0], / origin="http:\/\/e\\x1b\[31mvil\\x22\\x20addr\\x3d6.6.6.6\\x20x\\x3d\\x22\\x5c" length=\d+ host="127.0.0.1" addr=10.0.0.1$/);
    assert.match(lines[1], / reason=subprotocol addr=10.0.0.2$/);
    // The last X-Forwarded-For entry up to a space is the address: escaped.
    assert.equal(await refusedUpgrade(srv.port, { protocol: 'chat', xff: '1.2.3.4, 10.0.0.3"\x1b[0m' }), 400);
    await until(() => srv.lines.filter((l) => / upgrade_refused /.test(l)).length >= 3, 2000);
    assert.match(srv.lines.filter((l) => / upgrade_refused /.test(l))[2],
      / reason=subprotocol addr=10.0.0.3\\x22\\x1b\[0m$/);
  }));

test('repeated lines from one address are throttled: 10 a minute, then counted', () =>
  withServer([], async (srv) => {
    for (let i = 0; i < 40; i++) assert.equal(await refusedUpgrade(srv.port, { protocol: 'chat' }), 400);
    // Another kind of line from the same address has a budget of its own.
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`http://127.0.0.1:${srv.port}/api/rooms`, { method: 'POST', body: '{bad' });
      assert.equal(r.status, 400);
    }
    await stopServer(srv);
    await until(() => srv.lines.some((l) => / info stopped /.test(l)), 3000);
    assert.equal(srv.lines.filter((l) => / upgrade_refused reason=subprotocol addr=127.0.0.1$/.test(l)).length, 10);
    assert.equal(srv.lines.filter((l) => / api_refused code=bad_request status=400 addr=127.0.0.1$/.test(l)).length, 3);
    // What was held back is told, with its count (at the latest at the stop).
    const told = srv.lines.filter((l) => / log_suppressed /.test(l));
    assert.deepEqual(told.map((l) => l.replace(/^\S+ /, '')),
      ['info log_suppressed event=upgrade_refused addr=127.0.0.1 lines=30 seconds=60']);
  }));

// A GET with node:http (no decompression): {status, headers, body}.
function get(port, path, headers = {}, localAddress) {
  return new Promise((res, rej) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, localAddress, agent: false }, (r) => {
      const parts = [];
      r.on('data', (d) => parts.push(d));
      r.on('end', () => res({ status: r.statusCode, headers: r.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', rej);
  });
}

// A web root with a large file, its compressed copy, and a small script.
function webRoot() {
  const dir = tempDir();
  const big = Buffer.alloc(300 * 1024);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251 < 200 ? 65 + (i % 3) : i & 255;
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(dir, 'big.egdb'), big);
  writeFileSync(join(dir, 'big.egdb.gz'), gzipSync(big, { level: 9 }));
  writeFileSync(join(dir, 'app.js'), 'export const x = 1;\n'.repeat(200));
  writeFileSync(join(dir, 'app.js.gz'), gzipSync(readFileSync(join(dir, 'app.js'))));
  return { dir, big };
}

test('static files: a fresh .gz copy for clients that accept gzip, with its own ETag and Vary', async () => {
  const { dir, big } = webRoot();
  await withServer(['--web-root', dir], async (srv) => {
    const gz = readFileSync(join(dir, 'big.egdb.gz'));
    const z = await get(srv.port, '/big.egdb', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(z.status, 200);
    assert.equal(z.headers['content-encoding'], 'gzip');
    assert.equal(z.headers['content-type'], 'application/octet-stream');
    assert.equal(Number(z.headers['content-length']), gz.length);
    assert.equal(z.headers.vary, 'Accept-Encoding');
    assert.ok(z.body.equals(gz));
    assert.ok(gunzipSync(z.body).equals(big));
    const plain = await get(srv.port, '/big.egdb');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.ok(plain.body.equals(big));
    assert.notEqual(plain.headers.etag, z.headers.etag);
    // q=0 refuses gzip; "*" accepts it unless gzip is named with q=0.
    for (const [ae, zipped] of [['gzip;q=0', false], ['identity', false], ['br, *', true],
      ['*;q=0.5, gzip;q=0', false], ['x-gzip', true], ['GZIP ; q=0.3', true]]) {
      const r = await get(srv.port, '/big.egdb', { 'accept-encoding': ae });
      assert.equal(r.headers['content-encoding'], zipped ? 'gzip' : undefined, ae);
      assert.ok(r.body.equals(zipped ? gz : big), ae);
    }
    // Each copy revalidates with its own ETag.
    let r = await get(srv.port, '/big.egdb', { 'accept-encoding': 'gzip', 'if-none-match': z.headers.etag });
    assert.equal(r.status, 304);
    r = await get(srv.port, '/big.egdb', { 'if-none-match': z.headers.etag });
    assert.equal(r.status, 200);
    assert.ok(r.body.equals(big));
    r = await get(srv.port, '/app.js', { 'accept-encoding': 'gzip' });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.headers['content-type'], 'text/javascript');
    assert.equal(gunzipSync(r.body).toString(), readFileSync(join(dir, 'app.js'), 'utf8'));
    // A copy older than its file is not used.
    const old = new Date(Date.now() - 60000);
    utimesSync(join(dir, 'app.js.gz'), old, old);
    r = await get(srv.port, '/app.js', { 'accept-encoding': 'gzip' });
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.body.toString(), readFileSync(join(dir, 'app.js'), 'utf8'));
  });
});

test('static files: a .br copy before a .gz one; under /v/ kept a year; modules without page headers', async () => {
  const { dir } = webRoot();
  const src = readFileSync(join(dir, 'app.js'));
  writeFileSync(join(dir, 'app.js.br'), brotliCompressSync(src));
  mkdirSync(join(dir, 'v'));
  symlinkSync('..', join(dir, 'v', '0123456789abcdef'));
  await withServer(['--web-root', dir], async (srv) => {
    const br = await get(srv.port, '/app.js', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.equal(br.headers['content-type'], 'text/javascript');
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.ok(brotliDecompressSync(br.body).equals(src));
    assert.equal(br.headers['cache-control'], 'must-revalidate, private, max-age=60');
    // br only where it is accepted; gzip when br is refused or has no copy.
    for (const [ae, enc] of [['gzip', 'gzip'], ['br;q=0, *', 'gzip'], ['*', 'br'], ['BR', 'br'],
      ['br;q=0', undefined], ['identity', undefined], ['x-gzip, br;q=0.1', 'br']]) {
      const r = await get(srv.port, '/app.js', { 'accept-encoding': ae });
      assert.equal(r.headers['content-encoding'], enc, ae);
      assert.equal(r.headers.vary, 'Accept-Encoding', ae);
      const body = enc === 'br' ? brotliDecompressSync(r.body) : enc === 'gzip' ? gunzipSync(r.body) : r.body;
      assert.ok(body.equals(src), ae);
    }
    const gz = await get(srv.port, '/app.js', { 'accept-encoding': 'gzip' });
    assert.notEqual(gz.headers.etag, br.headers.etag);
    let r = await get(srv.port, '/app.js', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag });
    assert.equal(r.status, 304);
    // A folder named after the content: kept a year, the same file and headers.
    const v = await get(srv.port, '/v/0123456789abcdef/app.js', { 'accept-encoding': 'br' });
    assert.equal(v.status, 200);
    assert.equal(v.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(v.headers['content-encoding'], 'br');
    assert.ok(brotliDecompressSync(v.body).equals(src));
    for (const h of ['content-security-policy', 'referrer-policy', 'x-frame-options', 'x-content-type-options']) {
      assert.ok(v.headers[h], h);
    }
    // As one of the page's modules: without what only a page or a worker reads.
    r = await get(srv.port, '/v/0123456789abcdef/app.js', { 'sec-fetch-dest': 'script' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-security-policy'], undefined);
    assert.equal(r.headers['referrer-policy'], undefined);
    assert.equal(r.headers['x-frame-options'], undefined);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    // Its headers depend on Sec-Fetch-Dest: a shared cache is told so.
    assert.equal(r.headers.vary, 'Accept-Encoding, Sec-Fetch-Dest');
    assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
    r = await get(srv.port, '/v/0123456789abcdef/app.js', { 'sec-fetch-dest': 'worker' });
    assert.ok(r.headers['content-security-policy']);
    assert.equal(r.headers.vary, 'Accept-Encoding, Sec-Fetch-Dest');
    r = await get(srv.port, '/app.js', { 'sec-fetch-dest': 'script' });
    assert.ok(r.headers['content-security-policy'], 'outside /v/ every file keeps them');
    assert.equal(r.headers.vary, 'Accept-Encoding');
    assert.equal(r.headers['cache-control'], 'must-revalidate, private, max-age=60');
    r = await get(srv.port, '/v/fedcba9876543210/app.js');
    assert.equal(r.status, 404);
    // A .br copy older than its file is not used: the .gz one is.
    const old = new Date(Date.now() - 60000);
    utimesSync(join(dir, 'app.js.br'), old, old);
    r = await get(srv.port, '/app.js', { 'accept-encoding': 'gzip, br' });
    assert.equal(r.headers['content-encoding'], 'gzip');
  });
});

test('large static files count against 32 MiB a minute per address; a revalidation costs nothing', async () => {
  const { dir, big } = webRoot();
  await withServer(['--web-root', dir], async (srv) => {
    const gz = readFileSync(join(dir, 'big.egdb.gz'));
    const budget = 32 * 1024 * 1024;
    // Uncompressed: floor(budget / size) answers, then 429.
    const n = Math.floor(budget / big.length);
    let etag;
    for (let i = 0; i < n; i++) {
      const r = await get(srv.port, '/big.egdb');
      assert.equal(r.status, 200, `request ${i}`);
      etag = r.headers.etag;
    }
    let r = await get(srv.port, '/big.egdb');
    assert.equal(r.status, 429);
    assert.equal(r.headers.connection, 'close');
    // The compressed copy is smaller but the budget is spent.
    r = await get(srv.port, '/big.egdb', { 'accept-encoding': 'gzip' });
    assert.equal(r.status, gz.length <= budget - n * big.length ? 200 : 429);
    // A revalidation still answers; small files are not counted.
    r = await get(srv.port, '/big.egdb', { 'if-none-match': etag });
    assert.equal(r.status, 304);
    r = await get(srv.port, '/app.js');
    assert.equal(r.status, 200);
    // Another address has its own budget.
    r = await get(srv.port, '/big.egdb', {}, '127.0.0.2');
    assert.equal(r.status, 200);
    assert.ok(r.body.equals(big));
    await until(() => srv.lines.some((l) => / http_refused reason=file_budget bytes=\d+ addr=127.0.0.1$/.test(l)), 2000);
  });
});

// A request of any method without a body, written by hand (node would
// announce an empty body, which the server refuses first), read until the
// server closes: {status, headers, body, bytes} (bytes: all it sent).
async function request(port, method, path) {
  const s = await rawOpen(port);
  s.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await until(() => s.gone, 3000);
  s.destroy();
  return { ...answers(s.data)[0], bytes: s.data.length };
}

test('static files answer GET and HEAD only: 405 with Allow otherwise, the file neither sent nor counted', async () => {
  const { dir, big } = webRoot();
  await withServer(['--web-root', dir], async (srv) => {
    for (const m of ['PUT', 'OPTIONS', 'PATCH', 'DELETE', 'POST']) {
      for (const path of ['/big.egdb', '/app.js', '/', '/no-such-file']) {
        const r = await request(srv.port, m, path);
        assert.equal(r.status, 405, `${m} ${path}`);
        assert.equal(r.headers.allow, 'GET, HEAD', `${m} ${path}`);
        assert.equal(r.headers.connection, 'close', `${m} ${path}`);
        assert.ok(r.bytes < 400, `${m} ${path}: ${r.bytes} bytes`);
      }
    }
    const head = await new Promise((res, rej) => http.request({ host: '127.0.0.1', port: srv.port,
      method: 'HEAD', path: '/big.egdb', agent: false }, (r) => {
      r.resume();
      r.on('end', () => res(r));
    }).on('error', rej).end());
    assert.equal(head.statusCode, 200);
    assert.equal(Number(head.headers['content-length']), big.length);
    // Neither the refusals nor the HEAD were counted: the whole budget is left.
    const n = Math.floor(32 * 1024 * 1024 / big.length);
    for (let i = 0; i < n; i++) assert.equal((await get(srv.port, '/big.egdb')).status, 200, `GET ${i}`);
    assert.equal((await get(srv.port, '/big.egdb')).status, 429);
    // Past the budget, another method still gets no file.
    for (const m of ['PUT', 'OPTIONS', 'PATCH', 'DELETE']) {
      const r = await request(srv.port, m, '/big.egdb');
      assert.equal(r.status, 405, m);
      assert.ok(r.bytes < 400, m);
    }
    // The server's own routes keep their answers, naming the method each takes.
    for (const [m, path, allow] of [['DELETE', '/healthz', 'GET'], ['HEAD', '/metrics', 'GET'],
      ['PUT', '/api/rooms', 'POST'], ['HEAD', '/api/rooms', 'POST'], ['GET', '/api/rooms', 'POST'],
      ['OPTIONS', '/api/events/x', 'GET'], ['HEAD', '/api/events/x', 'GET']]) {
      const r = await request(srv.port, m, path);
      assert.equal(r.status, 405, `${m} ${path}`);
      assert.equal(r.headers.allow, allow, `${m} ${path}`);
    }
    // HEAD of a path that names nothing: the 404 of a GET, without its page.
    const nope = await request(srv.port, 'HEAD', '/no/such/file');
    assert.equal(nope.status, 404);
    assert.equal(nope.headers['content-length'], '0');
    assert.ok(nope.bytes < 300);
    assert.ok(srv.lines.some((l) => / http_refused reason=method addr=127.0.0.1$/.test(l)));
  });
});

test('only files of 256 KiB or more count against the budget: one of 250 KiB does not (i18n.js is 73 KB)', async () => {
  const { dir, big } = webRoot();
  const mid = Buffer.alloc(250 * 1024, 'x');
  writeFileSync(join(dir, 'i18n.js'), mid);
  await withServer(['--web-root', dir], async (srv) => {
    const n = Math.floor(32 * 1024 * 1024 / big.length);
    for (let i = 0; i < n; i++) assert.equal((await get(srv.port, '/big.egdb')).status, 200, `GET ${i}`);
    assert.equal((await get(srv.port, '/big.egdb')).status, 429);
    for (let i = 0; i < 3; i++) {
      const r = await get(srv.port, '/i18n.js');
      assert.equal(r.status, 200, `i18n.js ${i}`);
      assert.equal(r.body.length, mid.length);
    }
  });
});

test('a path that names nothing gets the 404 page, however long, with the page\'s security headers', async () => {
  const { dir } = webRoot();
  const page = '<!doctype html><html><head><title>404</title></head><body>nothing here</body></html>\n';
  writeFileSync(join(dir, '404.html'), page);
  await withServer(['--web-root', dir], async (srv) => {
    const check = (r, what) => {
      assert.equal(r.status, 404, what);
      assert.equal(r.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline';"
        + " img-src data:; form-action 'none'; frame-ancestors 'none'", what);
      assert.equal(r.headers['x-frame-options'], 'DENY', what);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
      assert.equal(r.headers['referrer-policy'], 'no-referrer', what);
    };
    for (const len of [10, 62, 63, 64, 65, 200, 2000]) {
      const path = '/' + 'a'.repeat(len - 1);
      const r = await get(srv.port, path);
      check(r, `${len} bytes`);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8', `${len} bytes`);
      assert.match(r.body.toString(), /<head><base href="\.\/">.*nothing here/s, `${len} bytes`);
    }
    const deep = await get(srv.port, '/a/b/' + 'c'.repeat(100));
    check(deep, 'deep');
    assert.match(deep.body.toString(), /<base href="\.\/\.\.\/\.\.\/">/);
  });
  // Without the page: the bare one, with the same headers.
  const bare = tempDir();
  writeFileSync(join(bare, 'index.html'), '<!doctype html><title>t</title>');
  await withServer(['--web-root', bare], async (srv) => {
    const r = await get(srv.port, '/nothing');
    assert.equal(r.status, 404);
    assert.equal(r.headers['x-frame-options'], 'DENY');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.ok(r.headers['content-security-policy']);
  });
});

// A masked client text frame (payloads under 126 bytes).
function textFrame(text) {
  const p = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const body = Buffer.from(p.map((b, i) => b ^ mask[i & 3]));
  return Buffer.concat([Buffer.from([0x81, 0x80 | p.length]), mask, body]);
}

// Opens a WebSocket by hand: the socket once its 101 came, or null when
// the server closed it first.
async function wsOpen(port) {
  const s = await rawOpen(port);
  s.write(upgradeText());
  await until(() => s.data.includes('\r\n\r\n') || s.gone, 3000);
  return s.data.startsWith('HTTP/1.1 101') ? s : null;
}

test('one flood closes its connection only; a second within a minute bans the address for 10 s', () =>
  withServer(['--max-msgs-per-sec', '5'], async (srv) => {
    const flood = Buffer.concat(Array.from({ length: 30 }, () => textFrame('{"type":"resign"}')));
    const a = await wsOpen(srv.port);
    assert.ok(a);
    a.write(flood);
    assert.ok(await until(() => a.gone, 3000));
    assert.ok(a.data.includes('message flood'));
    // The address is not shut out: a new connection plays on.
    const b = await wsOpen(srv.port);
    assert.ok(b, 'a second connection after one flood is accepted');
    b.write(textFrame('{"type":"create","side":"south"}'));
    assert.ok(await until(() => b.data.includes('"welcome"'), 3000));
    // A second flood: now new connections are closed at once.
    b.write(flood);
    assert.ok(await until(() => b.gone, 3000));
    assert.equal(await wsOpen(srv.port), null);
    // Another address is not concerned.
    const other = await new Promise((res) => {
      const s = connect({ port: srv.port, host: '127.0.0.1', localAddress: '127.0.0.2' }, () => res(s));
      s.data = '';
      s.on('data', (d) => { s.data += d.toString('latin1'); });
      s.on('error', () => {});
    });
    other.write(upgradeText());
    assert.ok(await until(() => other.data.startsWith('HTTP/1.1 101'), 3000));
    other.destroy();
  }));

test('an open-files limit below --max-sockets-per-ip plus the reserve: warned at start, clamped to half', async () => {
  const srv = await startServer([], { wrap: ['prlimit', '--nofile=200:200', '--'] });
  try {
    const half = (200 - 32) / 2;
    assert.ok(srv.lines.some((l) => l.endsWith(` warn fd_limit open_files=200 max_sockets_per_ip=256 max_conns_per_ip=32 clamped_to=${half} (half the descriptors left after 32 kept back; raise the open-files limit)`)),
      srv.lines.join('\n'));
    const socks = [];
    for (let i = 0; i < half + 20; i++) socks.push(await rawOpen(srv.port));
    await until(() => socks.filter((s) => s.gone).length >= 20, 3000);
    assert.equal(socks.filter((s) => !s.gone).length, half);
    // Descriptors are left for everyone else.
    const r = await get(srv.port, '/healthz', {}, '127.0.0.2');
    assert.equal(r.status, 200);
    for (const s of socks) s.destroy();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});

test('refusals of the server\'s own paths close the connection and say so (a keep-alive client is not cut)', () =>
  withServer(['--metrics-from', '127.0.0.2'], async (srv) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const go = (path, method = 'GET') => new Promise((res, rej) => {
      const req = http.request({ host: '127.0.0.1', port: srv.port, path, method, agent }, (r) => {
        r.resume();
        r.on('end', () => res({ status: r.statusCode, connection: r.headers.connection }));
      });
      req.on('error', rej);
      req.end();
    });
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await go('/metrics'), { status: 403, connection: 'close' });
      assert.deepEqual(await go('/healthz'), { status: 200, connection: 'close' });
      assert.deepEqual(await go('/healthz', 'DELETE'), { status: 405, connection: 'close' });
      assert.equal((await go('/index.html')).status, 200);
    }
    agent.destroy();
  }));
