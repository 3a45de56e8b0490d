// browser.test.mjs: the web client in Chromium against the real server:
// two players and a spectator, a full game by clicking, draw, resign,
// reload, server restart, Spanish, a phone, the local game.
// Run: make test-browser (needs build/owared, web/engine.wasm, tests/node_modules).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, Game, replay } from '../../web/engine.js';
import { root, ready, readBoard, waitMoves, shot, saveShot, rng, prefixProxy, browserSuite, seatOf, expectBoard, SHOTS, switchLang } from './lib.mjs';
import { startNginx } from '../nginx/nginx.mjs';

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));

const suite = browserSuite(['--abandon-seconds', '3'], { keepPages: true });
const { player, noProblems, pages } = suite;

// Clicks letter on whichever of the pages holds the side to move, then
// waits until every page shows the move and checks each board.
async function playMove(players, watchers, game, letter) {
  const side = game.state().turn;
  const bySide = {};
  for (const p of players) bySide[await seatOf(p)] = p;
  const mover = bySide[side];
  assert.ok(mover, `nobody holds ${side}`);
  // Only the legal pits respond, on the mover's page only.
  const legal = (await readBoard(mover)).legal;
  assert.deepEqual(legal, game.legal().slice().sort(), `legal pits on ${mover.name}`);
  assert.deepEqual((await readBoard(bySide[side === 'south' ? 'north' : 'south'])).legal, []);
  await mover.click(`#board .pit.legal[data-pit="${letter}"]`);
  game.play(letter);
  for (const p of [...players, ...watchers]) {
    await waitMoves(p, game.moves.length);
    await expectBoard(p, game, `after ${game.moves.join(' ')}`);
  }
}

// A move for a quick game: a capture when there is one, else random.
function chooseMove(game, rand) {
  const legal = game.legal();
  let best = [], most = -1;
  for (const m of legal) {
    const s = game.preview(m).move.seeds;
    if (s > most) { most = s; best = [m]; } else if (s === most) best.push(m);
  }
  return most > 0 && rand() < 0.8 ? best[Math.floor(rand() * best.length)] : legal[Math.floor(rand() * legal.length)];
}

// The README's picture (make docs-picture copies it to docs/img/game.png):
// the game as a desktop of 1000x700 shows it, down to the game's buttons.
async function readmePicture(page) {
  if (!SHOTS) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.mouse.move(0, 0);
  const bottom = await page.evaluate(() => {
    const el = document.querySelector('#actions');
    return el ? el.getBoundingClientRect().bottom + 10 : 700;
  });
  await saveShot(page, 'readme-game',
    { clip: { x: 0, y: 0, width: 1000, height: Math.min(700, Math.ceil(bottom)) } });
  await page.setViewportSize(size);
}

async function createRoom(page, side) {
  await page.goto(suite.server.url);
  await ready(page);
  await page.check(`input[name="side"][value="${side}"]`);
  await page.click('#create');
  await page.waitForSelector('#share:not([hidden])');
  const link = await page.inputValue('#share-link');
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/\?room=[\w-]+$/);
  return link;
}

async function join(page, link) {
  await page.goto(link);
  await ready(page);
  await page.waitForFunction(() => !!document.body.dataset.seat);
}

let south, north, watcher, link;

test('create a room, the link seats the opponent, a third watches', async () => {
  south = await player({ locale: 'es-ES', name: 'south' });
  north = await player({ locale: 'en-US', name: 'north' });
  watcher = await player({ locale: 'en-US', name: 'spectator' });
  link = await createRoom(south, 'south');
  assert.equal(await seatOf(south), 'south');
  // Waiting state, in Spanish for a Spanish browser.
  assert.equal(await south.getAttribute('html', 'lang'), 'es');
  assert.match(await south.textContent('#share'), /Esperando a que llegue tu rival/);
  assert.match(await south.textContent('#player-top'), /Norte/);
  assert.deepEqual((await readBoard(south)).legal, [], 'no move before the opponent arrives');
  await shot(south, 'room-waiting-es');
  // The copy button puts the link on the clipboard.
  await south.click('#share-copy');
  assert.equal(await south.evaluate(() => navigator.clipboard.readText()), link);

  await join(north, link);
  assert.equal(await seatOf(north), 'north');
  await south.waitForSelector('#share', { state: 'hidden' });
  // North sees its own row nearest: A..F along the bottom.
  const bottom = await north.$$eval('#board .row-bottom .pit', (els) => els.map((e) => e.dataset.pit).join(''));
  assert.equal(bottom, 'ABCDEF');
  const southBottom = await south.$$eval('#board .row-bottom .pit', (els) => els.map((e) => e.dataset.pit).join(''));
  assert.equal(southBottom, 'abcdef');
  assert.match(await north.textContent('#status'), /Opponent's turn/);
  assert.match(await south.textContent('#status'), /Te toca/);

  await join(watcher, link);
  assert.equal(await seatOf(watcher), 'spectator');
  assert.match(await watcher.textContent('#conn'), /watching/);
  assert.deepEqual((await readBoard(watcher)).legal, []);
  await south.waitForFunction(() => /en línea/.test(document.querySelector('#player-top').textContent));
  noProblems();
});

test('hovering a pit previews where the last seed lands', async () => {
  // c holds 4: sows d e f A; the last seed lands in A.
  await south.hover('#board .pit[data-pit="c"]');
  await south.waitForSelector('#board .pit.pv-land[data-pit="A"]');
  assert.match(await south.textContent('#note'), /cae en A/);
  await south.mouse.move(0, 0);
  await south.waitForFunction(() => !document.querySelector('.pv-land'));
});

test('a full game played by clicking matches the engine after every move', async () => {
  const game = Game.start();
  const rand = rng(4242);
  let shotTaken = false, pictureTaken = false;
  while (!game.over) {
    const m = chooseMove(game, rand);
    await playMove([south, north], [watcher], game, m);
    if (!shotTaken && game.history.at(-1).seeds > 0) {
      await shot(south, 'game-capture-es');
      await shot(north, 'game-capture-north-en');
      await shot(watcher, 'game-capture-spectator-en');
      shotTaken = true;
    }
    // Past the opening, just after a capture: the README's picture.
    if (!pictureTaken && game.moves.length >= 14 && game.history.at(-1).seeds > 0) {
      await readmePicture(north);
      pictureTaken = true;
    }
    assert.ok(game.moves.length < 600, 'the game ends');
  }
  const st = game.state();
  for (const p of [south, north, watcher]) {
    await p.waitForSelector('#over:not([hidden])');
    assert.equal(await p.textContent('#over-score'), p === south
      ? `Puntuación final: Sur ${st.captured.south}, Norte ${st.captured.north}`
      : `Final score: South ${st.captured.south}, North ${st.captured.north}`);
  }
  const southWins = st.winner === 'south';
  if (st.winner === 'draw') {
    assert.equal(await north.textContent('#over-result'), 'Draw.');
  } else {
    assert.equal(await south.textContent('#over-result'), southWins ? '¡Has ganado!' : 'Has perdido.');
    assert.equal(await north.textContent('#over-result'), southWins ? 'You lost.' : 'You won!');
    assert.equal(await watcher.textContent('#over-result'), `${southWins ? 'South' : 'North'} wins.`);
  }
  const reasonEn = {
    score: /captured (more than half of the seeds|24 seeds)/,
    repetition: /^The position occurred three times; each side keeps the seeds in its row, so /,
    move_limit: /^160 moves passed without a capture; each side keeps the seeds in its row, so /,
    no_moves: /^The player to move had no move; each side keeps the seeds in its row, so /,
  }[st.reason];
  assert.match(await north.textContent('#over-reason'), reasonEn);
  await shot(south, 'game-over-es');
  await shot(north, 'game-over-en');

  // Review: step back and forth through the game.
  const n = game.moves.length;
  await north.click('#rv-prev');
  await expectBoardAt(north, game.moves, n - 1);
  await north.click('#rv-first');
  await expectBoardAt(north, game.moves, 0);
  await north.keyboard.press('ArrowRight');
  await expectBoardAt(north, game.moves, 1);
  await north.click('#rv-next');
  await expectBoardAt(north, game.moves, 2);
  assert.match(await north.textContent('#review-pos'), new RegExp(`Position after move 2 of ${n}`));
  await shot(north, 'review-en');
  await north.click('#rv-last');
  await expectBoardAt(north, game.moves, n);

  // The record on the clipboard (OGN: South in upper case) holds every move.
  await north.click('#record-copy');
  const record = await north.evaluate(() => navigator.clipboard.readText());
  assert.match(record, /^\[Variant "Oware Abapa"\]/);
  const swap = (m) => (m === m.toLowerCase() ? m.toUpperCase() : m.toLowerCase());
  const letters = record.split('\n\n')[1].split(/\s+/).filter((w) => /^[a-fA-F]/.test(w)).map((w) => swap(w.replace(/\+\d+$/, '')));
  assert.deepEqual(letters, game.moves);
  noProblems();
});

async function expectBoardAt(page, moves, k) {
  const g = replay(moves.slice(0, k));
  const got = await readBoard(page);
  assert.deepEqual(got.pits, g.state().pits, `review at ${k}`);
  assert.deepEqual(got.captured, g.state().captured, `review scores at ${k}`);
}

async function rematch() {
  const before = { south: await seatOf(south), north: await seatOf(north) };
  await south.click('#act-rematch');
  await north.waitForSelector('#offer:not([hidden])');
  assert.match(await north.textContent('#offer-text'), /rematch/);
  await north.click('#offer-accept');
  // Sides swap.
  await south.waitForFunction((s) => document.body.dataset.seat === s, before.north);
  await north.waitForFunction((s) => document.body.dataset.seat === s, before.south);
  for (const p of [south, north, watcher]) await waitMoves(p, 0);
}

test('rematch swaps the sides; a draw offer is accepted', async () => {
  await rematch();
  const game = Game.start();
  await playMove([south, north], [watcher], game, 'c');
  await playMove([south, north], [watcher], game, 'D');
  // The opponent's move is announced to screen readers.
  const heard = (await seatOf(north)) === 'south' ? north : south;
  await heard.waitForFunction(() => /North sowed D\.|El Norte sembró D\./.test(document.querySelector('#live').textContent));
  await south.click('#act-draw');
  await north.waitForSelector('#offer:not([hidden])');
  assert.equal(await north.textContent('#offer-text'), 'Your opponent offers a draw.');
  // The offerer's page shows its pending offer once its own state comes
  // (the opponent's may come first).
  await south.waitForFunction(() => /Esperando respuesta/.test(document.querySelector('#act-draw').textContent));
  await shot(north, 'draw-offer-en');
  await north.click('#offer-accept');
  for (const p of [south, north, watcher]) await p.waitForSelector('#over:not([hidden])');
  assert.equal(await south.textContent('#over-result'), 'Empate.');
  assert.equal(await south.textContent('#over-reason'), 'La partida termina en empate de común acuerdo.');
  assert.equal(await watcher.textContent('#over-reason'), 'The players agreed to a draw.');
  noProblems();
});

test('resign asks first, then the opponent wins', async () => {
  await rematch();
  const game = Game.start();
  await playMove([south, north], [watcher], game, 'a');
  await playMove([south, north], [watcher], game, 'F');
  // Cancelling the confirmation keeps the game on.
  await north.click('#act-resign');
  await north.waitForSelector('#confirm[open]');
  await shot(north, 'resign-confirm-en');
  await north.click('#confirm button[value="cancel"]');
  assert.equal(await north.isHidden('#over'), true);
  await north.click('#act-resign');
  await north.click('#confirm-ok');
  for (const p of [south, north, watcher]) await p.waitForSelector('#over:not([hidden])');
  assert.equal(await north.textContent('#over-result'), 'You lost.');
  assert.equal(await south.textContent('#over-result'), '¡Has ganado!');
  assert.equal(await south.textContent('#over-reason'), 'Tu rival se ha rendido, así que has ganado.');
  noProblems();
});

let live;  // the game that carries on through reload and restart

test('a reload keeps the seat', async () => {
  await rematch();
  live = Game.start();
  await playMove([south, north], [watcher], live, 'b');
  const seatBefore = await seatOf(north);
  await north.reload();
  await ready(north);
  await north.waitForFunction(() => !!document.body.dataset.seat);
  assert.equal(await seatOf(north), seatBefore);
  await waitMoves(north, 1);
  await expectBoard(north, live, 'after reload');
  await playMove([south, north], [watcher], live, 'E');
  noProblems();
});

test('a second tab takes the seat; the first can take it back', async () => {
  const seat = await seatOf(north);
  const tab = await north.context().newPage();
  tab.problems = [];
  tab.name = 'north-tab2';
  pages.push(tab);
  await tab.goto(link);
  await ready(tab);
  await tab.waitForFunction(() => !!document.body.dataset.seat);
  assert.equal(await seatOf(tab), seat);
  await north.waitForSelector('#conn-action:not([hidden])');
  assert.match(await north.textContent('#conn'), /another tab/);
  assert.deepEqual((await readBoard(north)).legal, []);
  await shot(north, 'replaced-en');
  await north.click('#conn-action');
  await tab.waitForSelector('#conn-action:not([hidden])');
  await north.waitForSelector('#conn', { state: 'hidden' });
  await tab.close();
  pages.splice(pages.indexOf(tab), 1);
  await playMove([south, north], [watcher], live, live.legal()[0]);
  noProblems();
});

test('stopping and restarting the server: both reconnect and play on', async () => {
  await suite.server.stop();
  for (const p of [south, north]) await p.waitForSelector('#conn:not([hidden])');
  assert.match(await north.textContent('#conn'), /Reconnecting/);
  assert.match(await south.textContent('#conn'), /Reconectando/);
  await shot(south, 'reconnecting-es');
  await suite.server.start();
  for (const p of [south, north]) {
    await p.waitForFunction(() => document.querySelector('#conn').hidden &&
      document.querySelectorAll('.player.online').length === 2, null, { timeout: 30000 });
    await expectBoard(p, live, 'after restart');
  }
  await playMove([south, north], [watcher], live, live.legal()[0]);
  await playMove([south, north], [watcher], live, live.legal().at(-1));
  noProblems();
});

test('the opponent gone too long on their turn can be claimed against', async () => {
  // The side to move leaves; the other may claim after --abandon-seconds 3.
  const side = live.state().turn;
  const leaver = (await seatOf(south)) === side ? south : north;
  const stayer = leaver === south ? north : south;
  await leaver.close();
  pages.splice(pages.indexOf(leaver), 1);
  await stayer.waitForSelector('#act-claim:not([hidden])', { timeout: 15000 });
  await shot(stayer, 'claim');
  await stayer.click('#act-claim');
  await stayer.waitForSelector('#over:not([hidden])');
  assert.match(await stayer.textContent('#over-reason'), /^(Your opponent left the game|Tu rival dejó la partida)/);
  noProblems();
});

test('abort before both have moved', async () => {
  const a = await player({ locale: 'en-US', name: 'abort-south' });
  const b = await player({ locale: 'en-US', name: 'abort-north' });
  const l = await createRoom(a, 'random');
  await join(b, l);
  const aSide = await seatOf(a);
  assert.ok(['south', 'north'].includes(aSide));
  assert.equal(await seatOf(b), aSide === 'south' ? 'north' : 'south');
  await a.waitForSelector('#act-abort:not([hidden])');
  await a.click('#act-abort');
  await a.click('#confirm-ok');
  for (const p of [a, b]) await p.waitForSelector('#over:not([hidden])');
  assert.equal(await b.textContent('#over-result'), 'Game aborted.');
  noProblems();
});

test('phones in portrait play by tapping, with the sowing animation', async () => {
  const phone = { viewport: { width: 390, height: 844 }, mobile: true, motion: 'no-preference' };
  const a = await player({ ...phone, locale: 'es-ES', name: 'phone-south' });
  const b = await player({ ...phone, locale: 'en-GB', name: 'phone-north' });
  const l = await createRoom(a, 'south');
  await shot(a, 'phone-waiting-es');
  await join(b, l);
  const game = Game.start();
  const rand = rng(77);
  for (let i = 0; i < 12 && !game.over; i++) {
    const m = chooseMove(game, rand);
    const mover = game.state().turn === 'south' ? a : b;
    // On a touch screen the first tap previews, the second plays.
    await mover.tap(`#board .pit.legal[data-pit="${m}"]`);
    await mover.waitForSelector(`#board .pit.pv-origin[data-pit="${m}"]`);
    await mover.tap(`#board .pit.legal[data-pit="${m}"]`);
    game.play(m);
    for (const p of [a, b]) {
      await waitMoves(p, game.moves.length);
      await expectBoard(p, game, `phone after ${game.moves.join(' ')}`);
    }
  }
  // Nothing sticks out sideways.
  for (const p of [a, b]) {
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `page is ${wide}px wide`);
  }
  await shot(a, 'phone-game-es');
  await shot(b, 'phone-game-en');
  noProblems();
});

test('the local two-player game: keys and clicks, no server round trip', async () => {
  const p = await player({ locale: 'es-ES', name: 'local' });
  await p.goto(suite.server.url);
  await ready(p);
  await shot(p, 'start-es');
  assert.equal(await p.textContent('#create'), 'Crear sala');
  await switchLang(p, 'en');
  assert.equal(await p.textContent('#create'), 'Create room');
  await shot(p, 'start-en');
  await switchLang(p, 'es');
  // Both languages have every string, and no key shows raw.
  assert.deepEqual(await p.evaluate(async () => (await import(performance.getEntriesByType('resource')
    .map((e) => e.name).find((n) => /\/v\/[0-9a-f]{16}\/app\.js$/.test(n)).replace(/app\.js$/, 'i18n.js'))).missingKeys()), []);
  const raw = await p.$$eval('[data-i18n]', (els) => els.filter((e) => e.textContent === e.dataset.i18n).map((e) => e.dataset.i18n));
  assert.deepEqual(raw, []);
  await p.click('#local-play');
  await ready(p);
  const game = Game.start();
  // The letter keys sow, whatever the case typed.
  for (const key of ['c', 'a', 'd', 'b']) {
    const letter = game.state().turn === 'south' ? key : key.toUpperCase();
    await p.keyboard.press(key);
    game.play(letter);
    await waitMoves(p, game.moves.length);
    await expectBoard(p, game, `local after ${game.moves.join(' ')}`);
  }
  assert.match(await p.textContent('#status'), /Turno del Sur/);
  // The last move stays marked: origin, sown pits, landing pit.
  const last = game.history.at(-1);
  assert.equal(await p.getAttribute('#board .pit.origin', 'data-pit'), last.pit);
  assert.deepEqual((await p.$$eval('#board .pit.sown', (els) => els.map((e) => e.dataset.pit))).sort(), [...new Set(last.sown)].sort());
  // Keyboard focus previews too.
  await p.focus('#board .pit[data-pit="e"]');
  const pv = game.preview('e').move;
  await p.waitForSelector(`#board .pit.pv-land[data-pit="${pv.sown.at(-1)}"]`);
  await shot(p, 'local-preview-es');
  // A reload resumes the local game.
  await p.reload();
  await ready(p);
  await waitMoves(p, game.moves.length);
  await expectBoard(p, game, 'local after reload');
  noProblems();
});

test('against the computer, in a worker: it answers every move, after its pause', async () => {
  // The page's own pause before the computer's move (500 ms), not the tests' 0.
  const p = await player({ locale: 'en-US', name: 'ai', motion: 'no-preference', aiPause: null });
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="ai-level"][value="easy"]');
  await p.check('input[name="ai-side"][value="north"]');
  await p.click('#ai-play');
  await ready(p);
  // The computer holds south and moves first; the human's row is at the bottom.
  assert.equal(await p.$$eval('#board .row-bottom .pit', (els) => els.map((e) => e.dataset.pit).join('')), 'ABCDEF');
  assert.match(await p.textContent('#player-top'), /computer, Easy/);
  const listed = () => p.$$eval('#moves .mv', (els) => els.map((e) => e.textContent.split(' ')[0]));
  for (let ply = 1; ply <= 7; ply += 2) {
    await waitMoves(p, ply, 20000);
    const moves = await listed();
    const game = replay(moves);
    await expectBoard(p, game, `ai game ${moves.join(' ')}`);
    if (game.over) break;
    assert.match(await p.textContent('#status'), /Your turn/);
    const t0 = Date.now();
    await p.click(`#board .pit.legal[data-pit="${game.legal()[0]}"]`);
    if (ply === 1) {
      await waitMoves(p, ply + 2, 20000);
      assert.ok(Date.now() - t0 >= 500, `the computer answered after ${Date.now() - t0} ms`);
    }
  }
  // The hint (hard's move) marks a legal pit and says it.
  await waitMoves(p, 9, 20000);
  const moves = await listed();
  if (!replay(moves).over) {
    await p.click('#act-hint');
    await p.waitForSelector('#board .pit.hint', { timeout: 20000 });
    const hinted = await p.getAttribute('#board .pit.hint', 'data-pit');
    assert.ok(replay(moves).legal().includes(hinted), `hint ${hinted}`);
    assert.equal(await p.textContent('#note'), `Hint: sow ${hinted}.`);
  }
  await shot(p, 'ai-game-en');
  noProblems();
});

// What the page's move list says (letters only).
const listedMoves = (p) => p.$$eval('#moves .mv', (els) => els.map((e) => e.textContent.split(' ')[0]));

// The last move marked on the board (origin pit), or null.
const markedOrigin = (p) => p.evaluate(() => {
  const el = document.querySelector('#board .pit.origin');
  return el ? el.dataset.pit : null;
});

test('undo against the computer takes back the move pair, and survives a reload', async () => {
  const p = await player({ locale: 'en-US', name: 'ai-undo', aiPause: null });
  await p.goto(suite.server.url);
  await ready(p);
  await p.check('input[name="ai-level"][value="easy"]');
  await p.check('input[name="ai-side"][value="south"]');
  await p.click('#ai-play');
  await ready(p);
  // The player (south) has not moved: nothing to take back.
  assert.equal(await p.isVisible('#act-undo'), true);
  assert.equal(await p.isDisabled('#act-undo'), true);
  assert.equal(await p.textContent('#act-undo'), 'Undo');
  const rand = rng(99);
  for (let ply = 0; ply < 6; ply += 2) {
    const game = replay(await listedMoves(p));
    await p.click(`#board .pit.legal[data-pit="${chooseMove(game, rand)}"]`);
    await waitMoves(p, ply + 2, 20000);
    await p.waitForFunction(() => /Your turn/.test(document.querySelector('#status').textContent));
  }
  const before = await listedMoves(p);
  assert.equal(before.length, 6);
  // A hint shown now goes away with the undo.
  await p.click('#act-hint');
  await p.waitForSelector('#board .pit.hint', { timeout: 20000 });
  await p.click('#act-undo');
  await waitMoves(p, 4);
  let game = replay(before.slice(0, 4));
  assert.deepEqual(await listedMoves(p), game.moves);
  await expectBoard(p, game, 'after undo');
  assert.equal(game.state().turn, 'south');
  assert.match(await p.textContent('#status'), /Your turn/);
  assert.deepEqual((await readBoard(p)).legal, game.legal().slice().sort());
  assert.equal(await p.$('#board .pit.hint'), null, 'the hint mark is gone');
  assert.equal(await markedOrigin(p), game.moves.at(-1), 'the previous last move is marked');
  await p.waitForFunction(() => /taken back/.test(document.querySelector('#live').textContent));
  assert.equal(await p.textContent('#live'), `Moves ${before[4]} and ${before[5]} taken back. Your turn.`);
  await shot(p, 'ai-undo-en');

  // A reload resumes the undone position. (From here the computer pauses
  // 4 s before a move: time enough to undo while it thinks, however
  // loaded the machine.)
  await p.evaluate(() => localStorage.setItem('oware.test.pause', '4000'));
  await p.reload();
  await ready(p);
  await waitMoves(p, 4);
  await expectBoard(p, game, 'after undo and reload');
  assert.match(await p.textContent('#status'), /Your turn/);

  // Undo while the computer thinks takes back the player's move only; the
  // stopped search never plays, and the next move gets a reply as usual.
  await p.click(`#board .pit.legal[data-pit="${game.legal()[0]}"]`);
  await waitMoves(p, 5);
  assert.match(await p.textContent('#status'), /thinking/);
  await p.click('#act-undo');
  await waitMoves(p, 4);
  await expectBoard(p, game, 'after undo while thinking');
  assert.match(await p.textContent('#status'), /Your turn/);
  const mine = game.legal().at(-1);
  await p.click(`#board .pit.legal[data-pit="${mine}"]`);
  await waitMoves(p, 6, 20000);
  const after = await listedMoves(p);
  assert.deepEqual(after.slice(0, 5), [...game.moves, mine]);
  game = replay(after);
  await expectBoard(p, game, 'a reply after the undo');

  // Undo back to the start, by keyboard: the button turns disabled.
  for (let n = 4; n >= 0; n -= 2) {
    await p.focus('#act-undo');
    await p.keyboard.press('Enter');
    await waitMoves(p, n);
    await expectBoard(p, replay(after.slice(0, n)), `undo to ${n}`);
  }
  assert.equal(await p.isDisabled('#act-undo'), true);
  assert.equal(await markedOrigin(p), null);
  noProblems();
});

test('undo after the game is over takes back to before the player\'s last move', async () => {
  // A finished game, saved as if played against the computer.
  const rand = rng(5);
  const g = Game.start();
  while (!g.over) g.play(chooseMove(g, rand));
  const moves = g.moves.slice();
  const me = moves.length % 2 ? 'north' : 'south';  // the player moved last but one
  let i = moves.length - 1;
  while (i >= 0 && (moves[i] === moves[i].toLowerCase() ? 'south' : 'north') !== me) i--;
  assert.equal(i, moves.length - 2);
  const p = await player({ locale: 'es-ES', name: 'ai-undo-over' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.evaluate((saved) => localStorage.setItem('oware.local', JSON.stringify(saved)),
    { moves, ai: { level: 'easy', side: me === 'south' ? 'north' : 'south' } });
  await p.goto(`${suite.server.url}?local=1`);
  await ready(p);
  await waitMoves(p, moves.length);
  await p.waitForSelector('#over:not([hidden])');
  assert.equal(await p.textContent('#act-undo'), 'Deshacer');
  await p.click('#act-undo');
  await waitMoves(p, i);
  await p.waitForSelector('#over', { state: 'hidden' });
  const game = replay(moves.slice(0, i));
  await expectBoard(p, game, 'undo after the end');
  assert.match(await p.textContent('#status'), /Te toca/);
  assert.deepEqual((await readBoard(p)).legal, game.legal().slice().sort());
  noProblems();
});

// Review shows each ply of a finished game as the engine has it: the
// position, the scores, the last move marked and said, the move list and the
// review bar in step, one ply at a time backwards and forwards.
test('review steps through a finished game one ply at a time, both ways', async () => {
  const rand = rng(11);
  const g = Game.start();
  const states = [g.state()];
  while (!g.over) {
    g.play(chooseMove(g, rand));
    states.push(g.state());
  }
  const n = g.moves.length;
  const p = await player({ locale: 'en-US', name: 'review' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.evaluate((saved) => localStorage.setItem('oware.local', JSON.stringify(saved)), { moves: g.moves, ai: null });
  await p.goto(`${suite.server.url}?local=1`);
  await ready(p);
  await waitMoves(p, n);
  await p.waitForSelector('#over:not([hidden])');
  const sideName = { south: 'South', north: 'North' };
  const expectAt = async (k, how) => {
    const label = `review at ${k} of ${n} (${how})`;
    const got = await readBoard(p);
    assert.deepEqual(got.pits, states[k].pits, `${label}: pits`);
    assert.deepEqual(got.captured, states[k].captured, `${label}: scores`);
    assert.deepEqual(got.legal, [], `${label}: no pit responds`);
    const seen = await p.evaluate(() => {
      const pit = (sel) => [...document.querySelectorAll(`#board .pit${sel}`)].map((e) => e.dataset.pit).sort();
      const current = document.querySelector('#moves .mv[aria-current="step"]');
      return {
        origin: pit('.origin'),
        taken: pit('.taken'),
        current: current ? Number(current.dataset.ply) : 0,
        pos: document.querySelector('#review-pos').textContent,
        note: document.querySelector('#note').textContent,
      };
    });
    const last = k ? g.history[k - 1] : null;
    assert.deepEqual(seen.origin, last ? [last.pit] : [], `${label}: last move marked`);
    assert.deepEqual(seen.taken, last ? [...last.captured].sort() : [], `${label}: captures marked`);
    assert.equal(seen.current, k, `${label}: the move list's current move`);
    assert.equal(seen.pos, k ? `Position after move ${k} of ${n}` : 'Starting position', `${label}: review bar`);
    if (last) {
      const mover = last.pit === last.pit.toLowerCase() ? 'south' : 'north';
      assert.ok(seen.note.startsWith(`${sideName[mover]} sowed ${last.pit}`), `${label}: note ${seen.note}`);
    } else {
      assert.equal(seen.note, '', `${label}: no note at the start`);
    }
  };
  await expectAt(n, 'the end');
  // Backwards to the start, by button and by key in turn.
  for (let k = n - 1; k >= 0; k--) {
    if (k % 2) await p.click('#rv-prev');
    else await p.keyboard.press('ArrowLeft');
    await expectAt(k, k % 2 ? 'previous' : 'ArrowLeft');
  }
  // Forwards to the end.
  for (let k = 1; k <= n; k++) {
    if (k % 2) await p.keyboard.press('ArrowRight');
    else await p.click('#rv-next');
    await expectAt(k, k % 2 ? 'ArrowRight' : 'next');
  }
  // A jump from the move list, then one step each way from there.
  const mid = Math.floor(n / 2);
  await p.click(`#moves .mv[data-ply="${mid}"]`);
  await expectAt(mid, 'move list');
  await p.click('#rv-next');
  await expectAt(mid + 1, 'next after a jump');
  await p.click('#rv-prev');
  await p.click('#rv-prev');
  await expectAt(mid - 1, 'previous after a jump');
  await p.click('#rv-last');
  await expectAt(n, 'to the end');
  noProblems();
});

test('undo with two players on one device takes back exactly one move', async () => {
  const p = await player({ locale: 'en-US', name: 'local-undo' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#local-play');
  await ready(p);
  assert.equal(await p.isDisabled('#act-undo'), true);
  const game = Game.start();
  for (const key of ['c', 'a', 'd']) {
    const letter = game.state().turn === 'south' ? key : key.toUpperCase();
    await p.keyboard.press(key);
    game.play(letter);
    await waitMoves(p, game.moves.length);
  }
  await p.click('#act-undo');
  await waitMoves(p, 2);
  const two = replay(['c', 'A']);
  await expectBoard(p, two, 'two players, one undo');
  assert.match(await p.textContent('#status'), /South to move/);
  assert.equal(await markedOrigin(p), 'A');
  await p.waitForFunction(() => /taken back/.test(document.querySelector('#live').textContent));
  assert.equal(await p.textContent('#live'), 'Move d taken back. South to move: pick a pit in your row');
  await p.reload();
  await ready(p);
  await waitMoves(p, 2);
  await expectBoard(p, two, 'two players, undo and reload');
  await p.click('#act-undo');
  await waitMoves(p, 1);
  await expectBoard(p, replay(['c']), 'two players, second undo');
  assert.match(await p.textContent('#status'), /North to move/);
  noProblems();
});

test('a grand slam is said in words', async () => {
  // Find a line whose last move is an annulled grand slam.
  const rand = rng(1);
  let line = null;
  for (let i = 0; i < 5000 && !line; i++) {
    const g = Game.start();
    while (!g.over && g.moves.length < 80) {
      const legal = g.legal();
      g.play(legal[Math.floor(rand() * legal.length)]);
      if (g.history.at(-1).grand_slam) { line = g.moves.slice(); break; }
    }
  }
  assert.ok(line, 'a grand slam within 5000 random games');
  const p = await player({ locale: 'es-ES', name: 'slam' });
  await p.goto(suite.server.url);
  await ready(p);
  await p.click('#local-play');
  await ready(p);
  for (const m of line) await p.keyboard.press(m.toLowerCase());
  await waitMoves(p, line.length);
  const game = replay(line);
  await expectBoard(p, game, 'grand slam line');
  assert.match(await p.textContent('#note'), /gran slam/);
  assert.match(await p.textContent('#note'), /se anula/);
  await shot(p, 'grand-slam-es');
  noProblems();
});

test('under a path prefix behind a proxy', async () => {
  const proxy = await prefixProxy(suite.server.port, '/juegos/oware/');
  try {
    const base = `http://127.0.0.1:${proxy.port}/juegos/oware/`;
    const a = await player({ name: 'prefix-south' });
    const b = await player({ name: 'prefix-north' });
    const outside = [];
    for (const p of [a, b]) {
      p.on('request', (r) => {
        const u = new URL(r.url());
        if (!u.pathname.startsWith('/juegos/oware/')) outside.push(r.url());
      });
    }
    await a.goto(base);
    await ready(a);
    await a.check('input[name="side"][value="south"]');
    await a.click('#create');
    await a.waitForSelector('#share:not([hidden])');
    const l = await a.inputValue('#share-link');
    assert.ok(l.startsWith(`${base}?room=`), l);
    await join(b, l);
    const game = Game.start();
    await playMove([a, b], [], game, 'e');
    await playMove([a, b], [], game, 'B');
    assert.deepEqual(outside, []);
    noProblems();
  } finally {
    await proxy.close();
  }
});

// The same under the shipped nginx site for a path prefix (deploy/nginx/),
// over https with a throwaway certificate, as a self-hoster runs it.
test('through nginx under /oware/ over https', async () => {
  const nginx = await startNginx([{ template: 'oware-rooms-prefix.conf', upstream: suite.server.port }]);
  try {
    const base = `https://127.0.0.1:${nginx.sites[0].https}/oware/`;
    const a = await player({ name: 'nginx-south', ignoreHTTPSErrors: true });
    const b = await player({ name: 'nginx-north', locale: 'es-ES', ignoreHTTPSErrors: true });
    const outside = [];
    for (const p of [a, b]) {
      p.on('request', (r) => {
        const u = new URL(r.url());
        if (!u.pathname.startsWith('/oware/')) outside.push(r.url());
      });
    }
    await a.goto(base);
    await ready(a);
    await a.check('input[name="side"][value="north"]');
    await a.click('#create');
    await a.waitForSelector('#share:not([hidden])');
    const l = await a.inputValue('#share-link');
    assert.ok(l.startsWith(`${base}?room=`), l);
    await join(b, l);
    assert.equal(await seatOf(a), 'north');
    assert.equal(await seatOf(b), 'south');
    const game = Game.start();
    for (const m of ['c', 'A', 'f', 'F']) await playMove([b, a], [], game, m);
    await b.reload();
    await ready(b);
    await waitMoves(b, 4);
    assert.equal(await seatOf(b), 'south');
    await expectBoard(b, game, 'after a reload through nginx');
    await playMove([b, a], [], game, game.legal()[0]);
    await shot(b, 'nginx-prefix-es');
    assert.deepEqual(outside, []);
    noProblems();
  } finally {
    await nginx.stop();
  }
});

test('a link to a room that does not exist says so', async () => {
  const p = await player({ locale: 'es-ES', name: 'noroom' });
  await p.goto(`${suite.server.url}?room=00000000-0000-4000-8000-000000000000`);
  await ready(p);
  await p.waitForFunction(() => /no existe/.test(document.querySelector('#conn').textContent));
  assert.equal(await p.textContent('#conn-action'), 'Volver al inicio');
  await shot(p, 'no-room-es');
  await p.click('#conn-action');
  await p.waitForSelector('#start:not([hidden])');
  noProblems();
});
