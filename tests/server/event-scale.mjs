// event-scale.mjs: a club event at the scale of issue #49 (256 players,
// a few rounds played, followers that read slowly), shared by
// events-load.test.mjs and the benchmark bench/event-change.mjs. Not a
// test file itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from './lib.mjs';
import { untilEvent, bigSwiss } from './evlib.mjs';

export { SCALE_ARGS, untilEvent } from './evlib.mjs';

// A Swiss of n players with `played` rounds played to the end (the
// organiser records every result; the next round pairs by itself): the
// organiser's client (reading), the event's id and token, the players'
// tokens and the last view.
export async function bigEvent(port, { players = 256, rounds = 9, played = 3 } = {}) {
  const { org, id, token, tokens } = await bigSwiss(port, { players, rounds, auto: true });
  org.send({ type: 'event_start', event: id, token });
  let last = await untilEvent(org, (e) => e.round === 1);
  for (let r = 1; r <= played; r++) {
    const boards = last.schedule[r - 1].boards.filter((b) => b.result === null);
    for (const b of boards) {
      org.send({ type: 'event_result', event: id, token, round: r, board: b.board,
        result: (b.board % 3) === 0 ? 'draw' : (b.board % 3) === 1 ? 'white' : 'black' });
    }
    last = await untilEvent(org, (e) => e.round === r + 1);
  }
  return { org, id, token, tokens, last };
}

// The server's CPU time (user + system) in ms, and its resident memory
// in KiB, from /proc.
export function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 (rest starts at field 3).
  return (Number(rest[11]) + Number(rest[12])) * 1000 / 100;
}
export function rssKiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]);
}

// n followers with the players' tokens that read the first view and its
// event_you, then stop reading (their sockets paused: the server's
// writes pile up in the kernel, then in the server).
export async function slowFollowers(port, id, tokens, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const c = await Client.open(port);
    c.send({ type: 'event_watch', event: id, token: tokens[i] });
    await untilEvent(c);
    assert.equal((await c.expect('event_you')).you.entry, i);
    c.ws._socket.pause();
    out.push(c);
  }
  return out;
}

// n corrections of round 1's boards by the organiser, each waited for
// (the organiser reads at once): the last view.
export async function corrections(org, id, token, n) {
  let last;
  for (let i = 0; i < n; i++) {
    const board = 1 + (i % 64);
    const result = i % 2 ? 'white' : 'black';
    org.send({ type: 'event_result', event: id, token, round: 1, board, result });
    last = await untilEvent(org, (e) => e.schedule[0].boards[board - 1].result === result);
  }
  return last;
}
