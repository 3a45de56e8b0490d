// event-change.mjs: what one change of a large club event costs the
// server (issue #49): a 256-player Swiss with EVENT_PLAYED rounds played,
// EVENT_SLOW followers with players' tokens that stop reading and one
// that reads, then EVENT_CHANGES corrections by the organiser, each
// waited for. Prints the server's CPU a change and the memory a slow
// follower holds (its RSS growth over the corrections, divided), and
// the CPU of an export (EVENT_EXPORTS answers, JSON, TRF and CSV in
// turn). Run by `make bench-events` (bench/part.mk).
import { startServer, stopServer, Client, httpGet } from '../tests/server/lib.mjs';
import { SCALE_ARGS, bigEvent, slowFollowers, corrections, untilEvent, cpuMs, rssKiB } from '../tests/server/event-scale.mjs';

const env = (k, d) => Number(process.env[k] || d);
const PLAYERS = env('EVENT_PLAYERS', 256), PLAYED = env('EVENT_PLAYED', 8);
const SLOW = env('EVENT_SLOW', 16), CHANGES = env('EVENT_CHANGES', 72), EXPORTS = env('EVENT_EXPORTS', 300);

const srv = await startServer(SCALE_ARGS);
try {
  const { org, id, token, tokens, last } = await bigEvent(srv.port, { players: PLAYERS, rounds: PLAYED + 1, played: PLAYED });
  const view = JSON.stringify(last).length;
  const pid = srv.proc.pid;
  // Without followers but the organiser: the view built once a change.
  let cpu0 = cpuMs(pid);
  await corrections(org, id, token, CHANGES);
  const alone = (cpuMs(pid) - cpu0) / CHANGES;
  const slow = await slowFollowers(srv.port, id, tokens, SLOW);
  const fast = await Client.open(srv.port);
  fast.send({ type: 'event_watch', event: id, token: tokens[SLOW] });
  await untilEvent(fast);
  const rss0 = rssKiB(pid);
  cpu0 = cpuMs(pid);
  const end = await corrections(org, id, token, CHANGES);
  const each = (cpuMs(pid) - cpu0) / CHANGES;
  const grown = rssKiB(pid) - rss0;
  await untilEvent(fast, (e) => e.version === end.version);
  const dropped = slow.filter((c) => c.closed).length;
  // The exports: each built once a version, then copied out.
  cpu0 = cpuMs(pid);
  let bytes = 0;
  for (let i = 0; i < EXPORTS; i++) {
    const r = await httpGet(srv.port, `/api/events/${id}${['', '/trf', '/csv'][i % 3]}`);
    bytes += (await r.arrayBuffer()).byteLength;
  }
  const exp = (cpuMs(pid) - cpu0) / EXPORTS;
  console.log(`event change: ${PLAYERS} players, ${PLAYED} rounds played, view ${(view / 1024).toFixed(0)} KiB`);
  console.log(`  organiser alone:                    ${alone.toFixed(2)} ms of server CPU a change (${CHANGES} changes)`);
  console.log(`  + ${SLOW} slow followers with tokens, 1 fast: ${each.toFixed(2)} ms of server CPU a change`);
  console.log(`  memory a slow follower:             ${(grown / SLOW).toFixed(0)} KiB (server RSS +${grown} KiB; ${dropped} dropped)`);
  console.log(`  exports (JSON, TRF, CSV in turn):   ${exp.toFixed(2)} ms of server CPU an answer (${EXPORTS} answers, ${(bytes / 1048576).toFixed(1)} MiB)`);
  for (const c of [...slow, fast, org]) c.close();
} finally {
  await stopServer(srv);
}
