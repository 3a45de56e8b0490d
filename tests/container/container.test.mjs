// The container image of deploy/Containerfile, built from the working tree
// with podman (tests/container/build-image.sh) and run for real: with
// `podman run` where the machine allows it, else from the image's exported
// file system with chroot, as the image's user and with its environment.
// The volume is a folder of the test's own, mounted at the image's volume.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Client, twoPlayers, playMoves } from '../server/lib.mjs';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const BUILD = path.resolve(ROOT, process.env.BUILD || 'build');
const WORK = path.join(BUILD, 'container');
// A tag of this checkout's own, so that checkouts testing at once on one
// machine (one podman store) do not replace each other's image.
const IMAGE = 'localhost/oware-rooms:test-' +
  createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
const ROOTFS = path.join(WORK, 'rootfs');
const VOLUME = path.join(WORK, 'volume');

const podman = (...args) => execFileSync('podman', args, { encoding: 'utf8' }).trim();
let config;              // the image's Config (docker format)
let mode = 'podman run';

function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
    s.on('error', rej);
  });
}

async function waitHealthy(port, proc) {
  for (let i = 0; i < 200; i++) {
    if (proc && proc.exitCode !== null) throw new Error('the server exited: ' + proc.exitCode);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no /healthz on port ' + port);
}

// The image's environment with OW_PORT set, as `-e OW_PORT=port` would.
function imageEnv(port) {
  const env = {};
  for (const kv of config.Env) { const i = kv.indexOf('='); env[kv.slice(0, i)] = kv.slice(i + 1); }
  env.OW_PORT = String(port);
  return env;
}

// Starts the image's command on port with the volume; resolves with stop().
async function startImage(port) {
  if (mode === 'podman run') {
    const name = 'oware-test-' + process.pid;
    const r = spawnSync('podman', ['run', '-d', '--rm', '--no-healthcheck', '--name', name, '--network', 'host',
      '-e', `OW_PORT=${port}`, '-v', `${VOLUME}:/var/lib/oware-rooms`, IMAGE], { encoding: 'utf8' });
    if (r.status === 0) {
      await waitHealthy(port);
      return { stop: () => spawnSync('podman', ['stop', '-t', '10', name]) };
    }
    // These sandboxes refuse the runtime's setrlimit: run the file system.
    mode = 'chroot';
    spawnSync('podman', ['rm', '-f', name]);
  }
  const env = imageEnv(port);
  const user = config.User;
  const argv = [`--userspec=${user}:${user}`, ROOTFS, 'env', '-i',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...config.Cmd];
  const proc = spawn('chroot', argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  await waitHealthy(port, proc);
  return {
    log: () => log,
    stop: async () => { proc.kill('SIGTERM'); return exited; },
  };
}

before(() => {
  fs.mkdirSync(WORK, { recursive: true });
  const logFile = path.join(WORK, 'build.log');
  const r = spawnSync('sh', ['tests/container/build-image.sh'], {
    cwd: ROOT, env: { ...process.env, BUILD, IMAGE }, encoding: 'utf8', maxBuffer: 64 << 20,
  });
  fs.writeFileSync(logFile, r.stdout + r.stderr);
  assert.equal(r.status, 0, 'the image builds (log: ' + logFile + ')\n' + (r.stdout + r.stderr).slice(-3000));
  config = JSON.parse(podman('image', 'inspect', '--format', '{{json .Config}}', IMAGE));
  config.Healthcheck = JSON.parse(podman('image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE));

  // The image's file system, for chroot and for looking inside.
  spawnSync('umount', [path.join(ROOTFS, 'var/lib/oware-rooms')]);
  fs.rmSync(ROOTFS, { recursive: true, force: true });
  fs.mkdirSync(ROOTFS);
  const id = podman('create', '--no-healthcheck', IMAGE);
  try {
    execFileSync('sh', ['-c', `podman export ${id} | tar -x -C '${ROOTFS}'`]);
  } finally {
    podman('rm', id);
  }
  // A fresh volume owned by the image's user, as a new named volume is.
  fs.rmSync(VOLUME, { recursive: true, force: true });
  fs.mkdirSync(VOLUME);
  const uid = Number(execFileSync('chroot', [ROOTFS, 'id', '-u', config.User], { encoding: 'utf8' }));
  fs.chownSync(VOLUME, uid, uid);
  execFileSync('mount', ['--bind', VOLUME, path.join(ROOTFS, 'var/lib/oware-rooms')]);
});

after(() => {
  spawnSync('umount', [path.join(ROOTFS, 'var/lib/oware-rooms')]);
  fs.rmSync(ROOTFS, { recursive: true, force: true });
});

test('the image: its user, volume, port, health check, and no compiler', () => {
  assert.equal(config.User, 'oware');
  assert.ok(config.Volumes && '/var/lib/oware-rooms' in config.Volumes, JSON.stringify(config.Volumes));
  assert.ok(config.ExposedPorts && '8080/tcp' in config.ExposedPorts);
  assert.deepEqual(config.Cmd, ['/usr/local/bin/owared']);
  assert.ok(config.Healthcheck && config.Healthcheck.Test[0] === 'CMD',
    'HEALTHCHECK kept (docker format): ' + JSON.stringify(config.Healthcheck));
  for (const tool of ['gcc', 'cc', 'clang-14', 'make', 'ld']) {
    assert.ok(!fs.existsSync(path.join(ROOTFS, 'usr/bin', tool)), tool + ' is not in the image');
  }
  const size = Number(podman('image', 'inspect', '--format', '{{.Size}}', IMAGE));
  // About 135 MB, and 36 MB of ICU (libicu72) for the name check.
  assert.ok(size < 200e6, `the image stays small: ${size} bytes`);
});

test('the server from the image: page, wasm, a game, health, and a restart keeps the room', async () => {
  const port = await freePort();
  let srv = await startImage(port);
  let room, ta, tb;
  try {
    const page = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
    for (const f of ['engine.wasm', 'ai.wasm']) {
      const r = await fetch(`http://127.0.0.1:${port}/${f}`);
      assert.equal(r.status, 200, f);
      assert.equal(r.headers.get('content-type'), 'application/wasm', f);
      const bytes = new Uint8Array(await r.arrayBuffer());
      assert.deepEqual([...bytes.slice(0, 4)], [0, 0x61, 0x73, 0x6d], f + ' is WebAssembly');
    }
    // The image's own health check, run inside its file system.
    if (mode === 'chroot') {
      const hc = config.Healthcheck.Test.slice(1);
      const r = spawnSync('chroot', [`--userspec=${config.User}:${config.User}`, ROOTFS, 'env', '-i',
        ...Object.entries(imageEnv(port)).map(([k, v]) => `${k}=${v}`), ...hc]);
      assert.equal(r.status, 0, 'the HEALTHCHECK command passes');
      const dead = spawnSync('chroot', [ROOTFS, 'env', '-i', `OW_PORT=${await freePort()}`, ...hc]);
      assert.notEqual(dead.status, 0, 'and fails where nothing listens');
    }
    const p = await twoPlayers(port);
    ({ room, ta, tb } = p);
    const st = await playMoves(p.a, p.b, ['c', 'D', 'f']);
    assert.equal(st.moves.length, 3);
    p.a.close(); p.b.close();
  } finally {
    const r = await srv.stop();
    if (r && r.code !== undefined) assert.deepEqual(r, { code: 0, signal: null }, srv.log && srv.log());
  }
  assert.ok(fs.statSync(path.join(VOLUME, 'oware.db')).size > 0, 'the database is on the volume');

  srv = await startImage(port);
  try {
    const a = await Client.open(port, { room });
    a.send({ type: 'join', room, token: ta });
    const w = await a.expect('welcome');
    assert.equal(w.seat, 'south');
    const s = await a.expect('state');
    assert.deepEqual(s.moves, ['c', 'D', 'f'], 'the moves survived the restart');
    const b = await Client.open(port, { room });
    b.send({ type: 'join', room, token: tb });
    await b.expect('welcome');
    await b.expect('state');
    await a.expect('state');
    await playMoves(a, b, ['E'], { from: 3 });
    a.close(); b.close();
  } finally {
    await srv.stop();
  }
  console.log(`# ran with ${mode}`);
});
