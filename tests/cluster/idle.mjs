// idle.mjs: an idle WebSocket through nginx outlives nginx's
// proxy_read_timeout, kept up by the server's pings (owared
// --ping-seconds below that timeout: docs/cluster.md).
// Creates a room through nginx, then sends nothing for SECONDS; passes
// (exit 0) if the connection is still open and still answers.
// Usage: node tests/cluster/idle.mjs NGINX_PORT SECONDS
import WebSocket from 'ws';

const [port, seconds] = process.argv.slice(2).map(Number);
const fail = (why) => { console.log(`idle: FAIL: ${why}`); process.exit(1); };
const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'oware.v1');
let closed = null;
const got = [];
ws.on('message', (d) => got.push(JSON.parse(d)));
ws.on('close', (code) => { closed = code; });
ws.on('error', (e) => fail(e.message));
ws.on('open', () => {
  ws.send(JSON.stringify({ type: 'create', side: 'south' }));
  setTimeout(() => {
    if (closed !== null) fail(`closed (${closed}) while idle for ${seconds} s`);
    if (!got.some((m) => m.type === 'welcome')) fail('no welcome');
    const before = got.length;
    ws.send(JSON.stringify({ type: 'name', name: 'Idle' }));
    setTimeout(() => {
      if (got.length === before) fail('no answer after the idle time');
      console.log(`idle: open and answering after ${seconds} s without a word`);
      ws.close();
      process.exit(0);
    }, 2000);
  }, seconds * 1000);
});
