// togyz_client.test.mjs: the page's Togyz Kumalak modules under node:
// web/togyz.js (the engine wrapper the timeline, the board and the local
// game use) gives the state of `oware play --game togyz` along random games
// and from positions, the Kazakh notation of each move, and the record the
// page copies; web/kind.js reads a Togyz room's state from the wire
// (PROTOCOL.md's shape: moves and legal as hole numbers) in the page's terms.
// Run: OWARE=build/oware TOGYZ_WASM=web/togyz.wasm node --test tests/wasm/togyz_client.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTogyz, Game, replay, togyzRecord } from '../../web/togyz.js';
import { togyzFromWire, pitLabel, togyzPit } from '../../web/kind.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWARE = path.resolve(root, process.env.OWARE || 'build/oware');
await loadTogyz(fs.readFileSync(path.resolve(root, process.env.TOGYZ_WASM || 'web/togyz.wasm')));

const IDS = 'abcdefghiABCDEFGHI';
const native = (...args) => JSON.parse(execFileSync(OWARE, ['play', '--game', 'togyz', ...args], { encoding: 'utf8' }));
// The page's state with legal as hole numbers: the CLI's shape.
const asCli = (s) => ({ ...s, legal: s.legal.map((id) => Number(pitLabel(id, 'togyz'))) });

let seed = 777;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; };

test('pit names and hole numbers', () => {
  assert.equal(pitLabel('a', 'togyz'), '1');
  assert.equal(pitLabel('i', 'togyz'), '9');
  assert.equal(pitLabel('A', 'togyz'), '1');
  assert.equal(pitLabel('I', 'togyz'), '9');
  assert.equal(pitLabel('c', 'oware'), 'c');
  assert.equal(togyzPit('south', 1), 'a');
  assert.equal(togyzPit('north', '9'), 'I');
  for (const bad of [0, 10, '0', 'x', 1.5, null]) assert.equal(togyzPit('south', bad), null);
});

test('random games: every state as oware play --game togyz prints it, and the notation', () => {
  for (let k = 0; k < 10; k++) {
    const g = Game.start();
    const holes = [];
    while (!g.over && holes.length < 40 + k * 25) {
      const legal = g.legal();
      const id = legal[rnd(legal.length)];
      const info = g.play(id);
      holes.push(pitLabel(id, 'togyz'));
      assert.equal(info.pit, id);
      assert.match(info.notation, /^[1-9][1-9]X?$/);
      assert.equal(info.notation[0], pitLabel(id, 'togyz'));
      assert.equal(info.notation[1], pitLabel(info.sown[info.sown.length - 1], 'togyz'));
      assert.equal(info.notation.endsWith('X'), info.tuzdyk);
    }
    assert.deepEqual(asCli(g.state()), native(...holes), `after ${holes.join(' ')}`);
    // Read back as a position: the same game.
    if (!g.over) {
      const again = Game.fromPosition(g.state());
      assert.deepEqual(again.state(), g.state());
    }
  }
});

test('a preview changes nothing and says what the move would do', () => {
  const g = replay(['i', 'A', 'b']);
  const before = g.state();
  const p = g.preview('C');
  assert.deepEqual(g.state(), before);
  const h = g.clone();
  assert.deepEqual(h.play('C'), p.move);
  assert.deepEqual(h.state(), p.state);
  assert.deepEqual(g.preview('c'), { error: 'not_yours' });
  // White's hole 9 holds 1 seed after 9 A: it moves on alone.
  assert.deepEqual(replay(['i', 'A']).preview('i').move.sown, ['A']);
});

test('bad moves and positions throw with a code, the game unchanged', () => {
  const g = replay(['i']);
  const s = g.state();
  assert.throws(() => g.play('a'), { code: 'not_yours' });
  assert.throws(() => g.play('z'), { code: 'not_pit' });
  assert.deepEqual(g.state(), s);
  // White's tuzdyk on Black's hole 1: Black may not sow it.
  const pos = { pits: [9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 9, 9, 9, 9, 9, 9, 9, 9], captured: { south: 9, north: 0 },
    tuzdyk: { south: 1, north: null }, turn: 'north' };
  assert.throws(() => Game.fromPosition(pos).play('A'), { code: 'tuzdyk' });
  assert.throws(() => Game.fromPosition({ ...pos, tuzdyk: { south: 9, north: null } }), { code: 'tuzdyk_hole' });
  assert.throws(() => Game.fromPosition({ ...pos, captured: { south: 8, north: 0 } }), { code: 'sum' });
  assert.throws(() => Game.fromPosition({ pits: [1, 2] }), { code: 'bad_position' });
});

test('the copied record: Kazakh notation in numbered pairs, then the result', () => {
  const g = replay(['i', 'A', 'b', 'G']);
  // "+N": the seeds a move captured, as the move list shows them.
  assert.equal(togyzRecord(g.history, g.state()), '1. 98+10 11+10\n2. 21+2 78');
  // PlayStrategy's game FgWSk5be (tests/data/togyz-games.txt): White wins 82-43.
  const text = fs.readFileSync(path.join(root, 'tests/data/togyz-games.txt'), 'utf8');
  const rec = text.split(/^game /m).find((b) => b.startsWith('playstrategy-FgWSk5be'));
  const tokens = rec.split('\n').filter((l) => l.startsWith('moves ')).flatMap((l) => l.slice(6).trim().split(/\s+/));
  const game = Game.start();
  for (const tok of tokens) game.play(togyzPit(game.state().turn, tok[0]));
  const lines = togyzRecord(game.history, game.state()).split('\n');
  assert.equal(lines.length, Math.ceil(tokens.length / 2) + 1);
  assert.equal(lines[lines.length - 1], '1-0 (82-43)');
  // Each move's two digits (and its X) as the source wrote them, where it gave them.
  const written = lines.slice(0, -1).flatMap((l) => l.replace(/^\d+\. /, '').split(' '));
  tokens.forEach((tok, i) => { if (tok.length >= 2) assert.equal(written[i].slice(0, 2), tok.slice(0, 2), `ply ${i + 1}`); });
  written.forEach((w, i) => assert.match(w, /^\d\dX?(\+\d+)?$/, `ply ${i + 1}`));
  assert.equal(togyzRecord([], Game.start().state()), '');
});

test('a Togyz room state from the wire in the page\'s terms', () => {
  const g = replay(['i', 'A', 'b']);
  const s = g.state();
  const wire = {
    type: 'state', kind: 'togyz', moves: ['9', '1', '2'],
    game: { ...s, legal: s.legal.map((id) => Number(pitLabel(id, 'togyz'))) },
    last: { pit: '2', sown: [1, 2], captured: [], seeds: 0, tuzdyk: false, to_tuzdyk: { south: 0, north: 0 }, notation: '23' },
    start: null,
  };
  const page = togyzFromWire(wire);
  assert.deepEqual(page.moves, ['i', 'A', 'b']);
  assert.deepEqual(page.game.legal, s.legal);
  assert.equal(page.last.pit, 'b');
  assert.deepEqual(page.last.sown, ['b', 'c']);
  assert.equal(page.kind, 'togyz');
  // From a position where Black moves first, the movers alternate from Black.
  const fromBlack = togyzFromWire({ moves: ['3', '3'], game: { turn: 'north', legal: [1, 9] }, last: null, start: { turn: 'north' } });
  assert.deepEqual(fromBlack.moves, ['C', 'c']);
  assert.deepEqual(fromBlack.game.legal, ['A', 'I']);
});
