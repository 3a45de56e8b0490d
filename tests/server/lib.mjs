// lib.mjs: helpers for the server tests: start build/owared on an ephemeral
// port with a temporary database, and a WebSocket client with a message queue.
import { after } from 'node:test';
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import WebSocket from 'ws';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const OWARED = resolve(ROOT, process.env.OWARED || 'build/owared');
// OW_TEST_SLOW (a number, default 1): how much slower than an ordinary
// build on a quiet machine the server under test may be. Every wait for a
// condition scales its deadline by it (never a fixed sleep); the
// sanitizer suite sets 3 (docs/testing.md).
export const SLOW = Math.max(1, Number(process.env.OW_TEST_SLOW) || 1);
const TIMEOUT = 5000 * SLOW;

// OW_TEST_PG (a PostgreSQL URI, `make test-server-pg`): every server runs
// on PostgreSQL instead, each database path standing for a schema of its
// own (created here), so that a restart on the same path finds its rooms.
// Tests that open the SQLite file themselves are skipped (sqliteOnly).
export const PG = process.env.OW_TEST_PG || '';
export const sqliteOnly = PG ? { skip: 'reads the SQLite file itself' } : {};
const PSQL = PG && (execFileSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1'])
  .toString().trim() + '/psql');
const pgSchemas = new Set();
export function pgStore(db) {
  const schema = 't_' + createHash('sha256').update(db).digest('hex').slice(0, 16);
  if (!pgSchemas.has(schema)) {
    execFileSync(PSQL, [PG, '-qAtc', `CREATE SCHEMA IF NOT EXISTS ${schema}`]);
    pgSchemas.add(schema);
  }
  return `${PG}?options=-csearch_path%3D${schema}`;
}
// Runs q (SQL both stores understand) on the store of db: its output, trimmed.
export function storeQuery(db, q) {
  return (PG ? execFileSync(PSQL, [pgStore(db), '-qAtc', q])
    : execFileSync('sqlite3', [db, q])).toString().trim();
}

// PostgreSQL only: a session of its own on the store of db that runs the
// statements sql in a transaction left open (a SELECT ... FOR UPDATE holds
// its rows: a server's write of them waits); resolves once they ran, with
// end() to commit and close it.
export function storeHold(db, sql) {
  const p = spawn(PSQL, [pgStore(db), '-qAt', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise((res) => p.on('exit', (code) => res(code)));
  running.add(p); // killed if a failed test leaves it open
  p.on('exit', () => running.delete(p));
  p.stderr.on('data', (d) => { err += d; });
  return new Promise((res, rej) => {
    p.stdout.on('data', (d) => {
      out += d;
      if (out.includes('held\n')) res({ end: async () => { p.stdin.end('COMMIT;\n'); assert.equal(await exited, 0, err); } });
    });
    exited.then((code) => rej(new Error(`psql exited ${code}: ${err}`)));
    p.stdin.write(`BEGIN;\n${sql};\nSELECT 'held';\n`);
  });
}

// A temporary folder removed at exit.
const tempDirs = [];
export function tempDir() {
  const d = mkdtempSync(join(tmpdir(), 'owared-test-'));
  if (!tempDirs.length) process.on('exit', () => { for (const t of tempDirs) rmSync(t, { recursive: true, force: true }); });
  tempDirs.push(d);
  return d;
}

// Servers still running a while after a test file's tests end (a test
// failed before stopping its own) are killed, so that the file ends and
// reports its failure instead of waiting on them. The wait leaves the
// file's own after() hooks, which run after this one, time to stop theirs.
const running = new Set();
after(() => {
  setTimeout(() => { for (const p of running) p.kill('SIGKILL'); }, 5000).unref();
});

// Starts owared with args (and env: variables added to this process's);
// resolves once it logs its port.
// wrap: a command line that runs owared (e.g. prlimit with its options).
// bin: another owared (e.g. the test build, build/fault/owared).
export function startServer(args = [], { db, env, wrap = [], bin = OWARED, node = 'test' } = {}) {
  const dir = tempDir();
  db = db || join(dir, 'oware.db');
  // On PostgreSQL a server restarted on the same store is the same node
  // (its rooms come back at once); --port 0 alone would make it a new one.
  const store = PG ? ['--store', pgStore(db), ...(node ? ['--node-id', node] : [])] : ['--db', db];
  const argv = [...wrap, bin, '--port', '0', '--listen', '127.0.0.1', ...store,
    '--web-root', join(ROOT, 'tests/server/www'), ...args];
  const proc = spawn(argv[0], argv.slice(1),
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  const srv = { proc, db, lines: [], port: 0, exited: null };
  srv.exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  running.add(proc);
  proc.on('exit', () => running.delete(proc));
  let buf = '';
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('owared did not start: ' + srv.lines.join('\n'))), TIMEOUT);
    proc.stderr.on('data', (d) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        srv.lines.push(line);
        if (process.env.OWARED_LOG) console.error(line);
        const m = / listening port=(\d+)/.exec(line);
        if (m && !srv.port) {
          srv.port = Number(m[1]);
          clearTimeout(timer);
          res(srv);
        }
      }
    });
    proc.on('exit', () => { clearTimeout(timer); if (!srv.port) rej(new Error('owared exited: ' + srv.lines.join('\n'))); });
  });
}

// Runs fn against a fresh server started with args, then stops it and
// checks it exited cleanly.
export async function withServer(args, fn) {
  const srv = await startServer(args);
  try {
    await fn(srv);
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
}

// Waits until the server on port counts n open WebSocket connections
// (/healthz): those that closed are noted, and their rooms left.
export async function untilConnections(port, n, ms = 5000) {
  let seen;
  for (const until = Date.now() + ms * SLOW; ;) {
    seen = (await (await httpGet(port, '/healthz')).json()).connections;
    if (seen === n) return;
    if (Date.now() > until) assert.fail(`${seen} connections, not ${n}, after ${ms * SLOW} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Resolves with the first line of srv's log that matches re, waiting up to
// ms for it (a line written just after a change the test saw in the store
// may still be in the pipe).
export async function waitLine(srv, re, ms = 5000) {
  for (const until = Date.now() + ms * SLOW; ;) {
    const line = srv.lines.find((l) => re.test(l));
    if (line || Date.now() > until) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Stops srv with a signal and resolves with its exit status.
export async function stopServer(srv, signal = 'SIGTERM') {
  if (srv.proc.exitCode === null && srv.proc.signalCode === null) srv.proc.kill(signal);
  return srv.exited;
}

export function httpGet(port, path, headers = {}) {
  return fetch(`http://127.0.0.1:${port}${path}`, { headers });
}

// Every seat token any client received (to check that no log shows one).
export const tokensSeen = new Set();

// A WebSocket client whose incoming messages queue up for next().
export class Client {
  constructor(ws) {
    this.ws = ws;
    this.queue = [];
    this.waiter = null;
    this.closed = null;
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.token) tokensSeen.add(m.token);
      this.queue.push(m);
      this.wake();
    });
    ws.on('close', (code, reason) => { this.closed = { code, reason: reason.toString() }; this.wake(); });
    ws.on('error', (e) => { this.error = e; if (process.env.OWARED_LOG) console.error('ws error', e); });
  }

  // localAddress: the client's own address (127.0.0.x: another address
  // for the per-address limits).
  static open(port, { room, origin, protocol = 'oware.v1', path = '/ws', headers, autoPong = true, url, localAddress } = {}) {
    url = url || `ws://127.0.0.1:${port}${path}${room ? '?room=' + room : ''}`;
    const opts = { autoPong };
    if (localAddress) opts.localAddress = localAddress;
    if (origin) opts.origin = origin;
    if (headers) opts.headers = headers;
    const ws = new WebSocket(url, protocol ? [protocol] : [], opts);
    const c = new Client(ws);
    return new Promise((res, rej) => {
      ws.once('open', () => res(c));
      ws.once('unexpected-response', (req, resp) => rej(Object.assign(new Error('refused ' + resp.statusCode), { status: resp.statusCode })));
      ws.once('error', rej);
    });
  }

  // Waits until a message or close arrives, or ms pass.
  sleepOrWake(ms) {
    return new Promise((res) => {
      const t = setTimeout(() => { this.waiter = null; res(); }, ms);
      this.waiter = () => { clearTimeout(t); res(); };
    });
  }

  wake() { if (this.waiter) { const w = this.waiter; this.waiter = null; w(); } }

  send(obj) { this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)); }

  // The next message (in order); fails after a timeout or on close.
  async next(timeout = TIMEOUT) {
    const until = Date.now() + timeout;
    while (!this.queue.length) {
      if (this.closed) throw new Error('closed ' + JSON.stringify(this.closed));
      const left = until - Date.now();
      if (left <= 0) throw new Error('timeout waiting for a message');
      await this.sleepOrWake(left);
    }
    return this.queue.shift();
  }

  // The next message, which must have this type.
  async expect(type) {
    const m = await this.next();
    assert.equal(m.type, type, `expected ${type}, got ${JSON.stringify(m)}`);
    return m;
  }

  // Skips messages up to the first state that satisfies pred (within
  // timeout ms in all).
  async untilState(pred, timeout = TIMEOUT) {
    const until = Date.now() + timeout;
    for (;;) {
      const m = await this.next(Math.max(1, until - Date.now()));
      if (m.type === 'state' && pred(m)) return m;
    }
  }

  // The next message, which must be an error with this code.
  async expectError(code) {
    const m = await this.expect('error');
    assert.equal(m.code, code, `expected error ${code}, got ${JSON.stringify(m)}`);
    return m;
  }

  // Resolves with {code, reason} once the server closed the connection.
  async waitClose(timeout = TIMEOUT) {
    const until = Date.now() + timeout;
    while (!this.closed) {
      const left = until - Date.now();
      if (left <= 0) throw new Error('timeout waiting for close');
      await this.sleepOrWake(left);
    }
    return this.closed;
  }

  // Nothing more arrives within ms.
  async quiet(ms = 150) {
    await new Promise((res) => setTimeout(res, ms));
    assert.equal(this.queue.length, 0, 'unexpected message ' + JSON.stringify(this.queue[0]));
  }

  close() { this.ws.close(); }
  terminate() { this.ws.terminate(); }
}

// A room with both seats taken: a plays south, b north (welcomes and
// states consumed). Returns { a, b, room, ta, tb, state }.
export async function twoPlayers(port, { side = 'south' } = {}) {
  const a = await Client.open(port);
  a.send({ type: 'create', side });
  const wa = await a.expect('welcome');
  await a.expect('state');
  const b = await Client.open(port, { room: wa.room });
  b.send({ type: 'join', room: wa.room });
  const wb = await b.expect('welcome');
  const state = await b.expect('state');
  await a.expect('state');
  return { a, b, room: wa.room, ta: wa.token, tb: wb.token, seatA: wa.seat, seatB: wb.seat, state };
}

// Plays letters in order between south and north clients; each move is
// checked to reach both. Returns the last state.
export async function playMoves(south, north, letters, { from = 0, watchers = [] } = {}) {
  let st = null;
  for (let i = 0; i < letters.length; i++) {
    const ply = from + i;
    const mover = ply % 2 === 0 ? south : north;
    mover.send({ type: 'move', pit: letters[i], ply });
    for (const c of [south, north, ...watchers]) {
      st = await c.expect('state');
      assert.equal(st.moves.length, ply + 1, 'moves after ply ' + ply);
    }
  }
  return st;
}
