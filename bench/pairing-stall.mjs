// pairing-stall.mjs: `make bench-pairing-stall` (bench/part.mk): a Swiss of
// BENCH_PLAYERS (256) players where white always wins, paired round after
// round to BENCH_ROUNDS (9) by `event_next` (rounds 3, 5, 7 and 9 are the
// slowest pairings known), while an unrelated room with a 30-second clock
// plays a move, waits for its answer, and plays the next, without pause.
// Prints one line a round (its pairing time in the worker, from the
// server's `event_paired` log line, and from `event_next` to the round
// shown), then the summary: the worst pairing, and the unrelated room's
// move answer times while a pairing was under way (p50, p99, max).
import { readFileSync } from 'node:fs';
import { startServer, stopServer, Client } from '../tests/server/lib.mjs';
import { STALL_ARGS, untilEvent, bigSwiss } from '../tests/server/evlib.mjs';

const PLAYERS = Number(process.env.BENCH_PLAYERS || 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 9);
const MOVES = JSON.parse(readFileSync(new URL('../tests/server/games.json', import.meta.url)))
  .find((g) => g.reason === 'repetition').moves;

async function clockRoom(port) {
  const a = await Client.open(port);
  a.send({ type: 'create', side: 'south', clock: { initial: 30, increment: 0 } });
  const wa = await a.expect('welcome');
  await a.expect('state');
  const b = await Client.open(port, { room: wa.room });
  b.send({ type: 'join', room: wa.room });
  await b.expect('welcome');
  await b.expect('state');
  await a.expect('state');
  return { a, b, ply: 0 };
}

function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}

const srv = await startServer(STALL_ARGS);
try {
  const { org, id, token } = await bigSwiss(srv.port, { players: PLAYERS, rounds: ROUNDS, auto: false });

  // The unrelated room plays while each round is paired; a game played
  // out makes way for a new room.
  let room = await clockRoom(srv.port), pairing = false, stop = false;
  const during = [];
  const player = (async () => {
    while (!stop) {
      if (room.ply >= MOVES.length) {
        room.a.close();
        room.b.close();
        room = await clockRoom(srv.port);
      }
      const { a, b, ply } = room, mover = ply % 2 === 0 ? a : b;
      const was = pairing, t0 = performance.now();
      mover.send({ type: 'move', pit: MOVES[ply], ply });
      await mover.untilState((s) => s.moves.length === ply + 1, 600000);
      const ms = performance.now() - t0;
      await (mover === a ? b : a).untilState((s) => s.moves.length === ply + 1, 600000);
      if (was && pairing)
        during.push(ms);
      room.ply++;
    }
  })();

  let worst = { round: 0, ms: 0 };
  for (let r = 1; r <= ROUNDS; r++) {
    const lines = srv.lines.length, t0 = performance.now();
    pairing = true;
    org.send({ type: r === 1 ? 'event_start' : 'event_next', event: id, token });
    const ev = await untilEvent(org, (e) => e.round === r && !e.pairing);
    pairing = false;
    const shown = performance.now() - t0;
    const logged = srv.lines.slice(lines).map((l) => / event_paired .* pair_ms=(\d+)/.exec(l)).find(Boolean);
    const ms = logged ? Number(logged[1]) : shown;
    if (ms > worst.ms)
      worst = { round: r, ms };
    console.log(`pairing: round ${r} of ${PLAYERS} players: ${ms} ms in the worker, ${shown.toFixed(0)} ms until shown`);
    for (const b of ev.schedule[r - 1].boards.filter((x) => x.black !== null))
      org.send({ type: 'event_result', event: id, token, round: r, board: b.board, result: 'white' });
    await untilEvent(org, (e) => e.schedule[r - 1].boards.every((x) => x.result));
  }
  stop = true;
  await player;
  const s = during.slice().sort((x, y) => x - y);
  console.log(`pairing: ${PLAYERS} players, white always wins: worst round ${worst.round} paired in ${worst.ms} ms;` +
    ` an unrelated room's move meanwhile (${s.length} moves): p50 ${pct(s, 0.5).toFixed(1)} ms,` +
    ` p99 ${pct(s, 0.99).toFixed(1)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(1)} ms`);
  room.a.close();
  room.b.close();
  org.close();
} finally {
  await stopServer(srv);
}
