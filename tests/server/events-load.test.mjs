// events-load.test.mjs: a club event at the scale of issue #49 (256
// players, 16 followers with tokens that stop reading, 72 corrections):
// a slow follower holds at most one view, a fast one is never dropped,
// and a change costs the server a bounded time. Timing-bound (the CPU
// figures): run alone (tests/server/part.mk, test-server-load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopServer, Client } from './lib.mjs';
import { SCALE_ARGS, bigEvent, slowFollowers, corrections, untilEvent, cpuMs, rssKiB } from './event-scale.mjs';

test('256 players, 16 slow followers with tokens, 72 corrections: memory bounded by one view a follower, nobody dropped', async (t) => {
  const srv = await startServer(SCALE_ARGS);
  try {
    const { org, id, token, tokens, last } = await bigEvent(srv.port);
    const view = JSON.stringify(last).length;
    assert.ok(view > 100000, `a large view (${view} bytes)`);
    const slow = await slowFollowers(srv.port, id, tokens, 16);
    // A follower that reads at once all along.
    const fast = await Client.open(srv.port);
    fast.send({ type: 'event_watch', event: id, token: tokens[20] });
    await untilEvent(fast);
    const rss0 = rssKiB(srv.proc.pid), cpu0 = cpuMs(srv.proc.pid);
    const end = await corrections(org, id, token, 72);
    const cpu = (cpuMs(srv.proc.pid) - cpu0) / 72;
    const grown = rssKiB(srv.proc.pid) - rss0;
    // Each slow follower holds at most what its socket took, the part of
    // a view lws kept, and one view and one event_you waiting (shared):
    // under 3 views a follower with room for the allocator. The old queue
    // held up to 64 views each (over 100 MB here).
    const bound = 16 * 3 * view / 1024 + 8192;
    t.diagnostic(`view ${view} bytes; RSS +${grown} KiB; ${cpu.toFixed(2)} ms of CPU a change`);
    assert.ok(grown < bound, `RSS grew ${grown} KiB with 16 slow followers (bound ${Math.round(bound)} KiB, view ${view} bytes)`);
    assert.ok(cpu < 6, `a change cost ${cpu.toFixed(2)} ms of the server's CPU`);
    // The fast follower saw the last version; nobody was dropped.
    const seen = await untilEvent(fast, (e) => e.version === end.version);
    assert.equal(seen.version, end.version);
    for (const c of slow) assert.equal(c.closed, null);
    // A slow follower that reads again gets the newest view soon: what
    // waited for it was replaced, not piled up.
    const c = slow[0];
    c.ws._socket.resume();
    let views = 0;
    for (;;) {
      const m = await c.next(30000);
      if (m.type !== 'event') continue;
      views++;
      if (m.version === end.version) break;
    }
    t.diagnostic(`${views} views to reach the newest`);
    assert.ok(views <= 40, `${views} views to reach the newest`);
    for (const s of slow) s.ws._socket.resume();
    org.close();
    fast.close();
    for (const s of slow) s.close();
  } finally {
    assert.deepEqual(await stopServer(srv), { code: 0, signal: null });
  }
});
