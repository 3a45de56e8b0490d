// event-change.mjs: what one change of a large club event costs the
// server (issue #49): a 256-player Swiss with EVENT_PLAYED rounds played,
// EVENT_SLOW followers with players' tokens that stop reading and one
// that reads, then EVENT_CHANGES corrections by the organiser, each
// waited for. Prints the server's CPU a change and the memory a slow
// follower holds (its RSS growth over the corrections, divided). Run by
// `make bench-events` (bench/part.mk).
import { startServer, stopServer, Client } from '../tests/server/lib.mjs';
import { SCALE_ARGS, bigEvent, slowFollowers, corrections, untilEvent, cpuMs, rssKiB } from '../tests/server/event-scale.mjs';

const env = (k, d) => Number(process.env[k] || d);
const PLAYERS = env('EVENT_PLAYERS', 256), PLAYED = env('EVENT_PLAYED', 8);
const SLOW = env('EVENT_SLOW', 16), CHANGES = env('EVENT_CHANGES', 72);

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
  console.log(`event change: ${PLAYERS} players, ${PLAYED} rounds played, view ${(view / 1024).toFixed(0)} KiB`);
  console.log(`  organiser alone:                    ${alone.toFixed(2)} ms of server CPU a change (${CHANGES} changes)`);
  console.log(`  + ${SLOW} slow followers with tokens, 1 fast: ${each.toFixed(2)} ms of server CPU a change`);
  console.log(`  memory a slow follower:             ${(grown / SLOW).toFixed(0)} KiB (server RSS +${grown} KiB; ${dropped} dropped)`);
  for (const c of [...slow, fast, org]) c.close();
} finally {
  await stopServer(srv);
}
