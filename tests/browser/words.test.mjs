// words.test.mjs: what the page says around offers and results, in Chromium
// against the real server: a declined draw or rematch told to the one who
// offered, every result worded from the reader's side (winner, loser,
// spectator), abort asked first and worded for what happened, "New room"
// where a rematch cannot be, and a link to a room whose game is over seating
// nobody new. Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ready, waitMoves, shot, browserSuite, seatOf } from './lib.mjs';
import { Client, twoPlayers, playMoves } from '../server/lib.mjs';

const games = JSON.parse(fs.readFileSync(new URL('../server/games.json', import.meta.url)));

// Clients play the long games of games.json quickly: no message limit.
const suite = browserSuite(['--abandon-seconds', '2', '--max-msgs-per-sec', '100000'], { keepPages: true });
const { player, noProblems, pages } = suite;

const text = (page, sel) => page.textContent(sel);

async function createRoom(page, side) {
  await page.goto(suite.server.url);
  await ready(page);
  await page.check(`input[name="side"][value="${side}"]`);
  await page.click('#create');
  await page.waitForSelector('#share:not([hidden])');
  return page.inputValue('#share-link');
}

async function join(page, link) {
  await page.goto(link);
  await ready(page);
  await page.waitForFunction(() => !!document.body.dataset.seat);
}

// Clicks pit letter on page, then waits until every page lists n moves.
async function move(page, letter, n, all) {
  await page.click(`#board .pit.legal[data-pit="${letter}"]`);
  for (const p of all) await waitMoves(p, n);
}

async function overReason(page) {
  await page.waitForSelector('#over:not([hidden])');
  return text(page, '#over-reason');
}

// The offer box shows a declined offer: its sentence, without buttons.
async function declinedNote(page) {
  await page.waitForSelector('#offer[data-kind="declined"]:not([hidden])');
  assert.equal(await page.isHidden('#offer .buttons'), true, 'no answer buttons on a declined offer');
  return text(page, '#offer-text');
}

let south, north, watcher, link;

test('a declined draw tells the one who offered, also when declined by a move', async () => {
  south = await player({ locale: 'es-ES', name: 'south' });
  north = await player({ locale: 'en-US', name: 'north' });
  watcher = await player({ locale: 'en-US', name: 'spectator' });
  link = await createRoom(south, 'south');
  await join(north, link);
  await join(watcher, link);
  assert.equal(await seatOf(watcher), 'spectator');
  const all = [south, north, watcher];
  await move(south, 'c', 1, all);
  await move(north, 'A', 2, all);

  // North offers, South declines: North is told, and may offer again.
  await north.click('#act-draw');
  await south.waitForSelector('#offer[data-kind="draw"]:not([hidden])');
  await south.click('#offer-decline');
  assert.equal(await declinedNote(north), 'South declined the draw.');
  assert.equal(await text(north, '#act-draw'), 'Offer a draw');
  assert.equal(await north.isDisabled('#act-draw'), false);
  await north.waitForFunction(() => /South declined the draw\./.test(document.querySelector('#live').textContent));
  assert.equal(await south.isHidden('#offer'), true, 'the one who declined sees nothing');
  assert.equal(await watcher.isHidden('#offer'), true, 'a spectator sees nothing');
  await shot(north, 'draw-declined-en');
  // The note goes with the next move.
  await move(south, 'd', 3, all);
  await north.waitForSelector('#offer', { state: 'hidden' });

  // South offers on North's turn; North plays on instead: declined too.
  await south.click('#act-draw');
  await north.waitForSelector('#offer[data-kind="draw"]:not([hidden])');
  await move(north, 'B', 4, all);
  assert.equal(await declinedNote(south), 'El Norte ha jugado sin aceptar el empate.');
  assert.equal(await text(south, '#act-draw'), 'Proponer empate');
  await shot(south, 'draw-declined-moved-es');
  noProblems();
});

test('resign, then a declined rematch; the result read by the winner, the loser and a spectator', async () => {
  await north.click('#act-resign');
  await north.click('#confirm-ok');
  assert.equal(await overReason(north), 'You resigned, so your opponent won.');
  assert.equal(await overReason(south), 'Tu rival se ha rendido, así que has ganado.');
  assert.equal(await overReason(watcher), 'North resigned, so South won.');
  assert.equal(await text(north, '#over-result'), 'You lost.');
  assert.equal(await text(watcher, '#over-result'), 'South wins.');
  assert.equal(await text(south, '#over-score'), 'Puntuación final: Sur 0, Norte 0');
  await shot(south, 'resign-over-es');
  await shot(watcher, 'resign-over-spectator-en');
  // A spectator of a game that is over may make a room of their own.
  assert.equal(await text(watcher, '#act-newroom'), 'Create your own room');
  assert.equal(await watcher.isHidden('#act-rematch'), true);
  assert.equal(await south.isHidden('#act-newroom'), true, 'players with an opponent get a rematch');

  await south.click('#act-rematch');
  await north.waitForSelector('#offer[data-kind="rematch"]:not([hidden])');
  await north.click('#offer-decline');
  assert.equal(await declinedNote(south), 'El Norte ha rechazado la revancha.');
  assert.equal(await text(south, '#act-rematch'), 'Revancha');
  await shot(south, 'rematch-declined-es');
  noProblems();
});

test('a draw by agreement reads the same to all', async () => {
  // The rematch, asked again, is accepted: sides swap.
  await north.click('#act-rematch');
  await south.waitForSelector('#offer[data-kind="rematch"]:not([hidden])');
  await south.click('#offer-accept');
  await north.waitForFunction(() => document.body.dataset.seat === 'south');
  for (const p of [south, north, watcher]) await waitMoves(p, 0);
  await south.waitForSelector('#over', { state: 'hidden' });
  await south.click('#act-draw');
  await north.waitForSelector('#offer[data-kind="draw"]:not([hidden])');
  await north.click('#offer-accept');
  assert.equal(await overReason(north), 'The players agreed to a draw.');
  assert.equal(await overReason(watcher), 'The players agreed to a draw.');
  assert.equal(await overReason(south), 'La partida termina en empate de común acuerdo.');
  noProblems();
});

test('abort asks first, and says who aborted and when', async () => {
  const a = await player({ locale: 'en-US', name: 'abort-south' });
  const b = await player({ locale: 'es-ES', name: 'abort-north' });
  const w = await player({ locale: 'en-US', name: 'abort-spectator' });
  const l = await createRoom(a, 'south');
  await join(b, l);
  await join(w, l);
  await move(a, 'c', 1, [a, b, w]);
  // Cancelling keeps the game on.
  await b.click('#act-abort');
  await b.waitForSelector('#confirm[open]');
  assert.equal(await text(b, '#confirm-text'), '¿Seguro que quieres anular la partida? Termina sin resultado.');
  assert.equal(await text(b, '#confirm-ok'), 'Sí, anular');
  await shot(b, 'abort-confirm-es');
  await b.click('#confirm button[value="cancel"]');
  await b.waitForSelector('#confirm', { state: 'hidden' });
  assert.equal(await b.isHidden('#over'), true);
  assert.equal(await a.isHidden('#over'), true);
  await b.click('#act-abort');
  await b.click('#confirm-ok');
  assert.equal(await overReason(b), 'Has anulado la partida después de la primera jugada.');
  assert.equal(await overReason(a), 'Your opponent aborted the game after the first move.');
  assert.equal(await overReason(w), 'North aborted the game after the first move.');
  assert.equal(await a.isHidden('#over-score'), true, 'no final score for an aborted game');
  await shot(a, 'aborted-first-move-en');
  await shot(b, 'aborted-first-move-es');

  // Before any move.
  const l2 = await createRoom(a, 'north');
  await join(b, l2);
  await a.click('#act-abort');
  await a.click('#confirm-ok');
  assert.equal(await overReason(a), 'You aborted the game before the first move.');
  assert.equal(await overReason(b), 'Tu rival ha anulado la partida antes de la primera jugada.');
  noProblems();
});

test('a room nobody joined: New room instead of Rematch, and a newcomer only watches', async () => {
  const c = await player({ locale: 'en-US', name: 'alone' });
  const d = await player({ locale: 'es-ES', name: 'newcomer' });
  const l = await createRoom(c, 'north');
  const room = new URL(l).searchParams.get('room');
  await c.click('#act-abort');
  await c.waitForSelector('#confirm[open]');
  assert.equal(await text(c, '#confirm-text'), 'Do you really want to close the room? Nobody can take a seat in it afterwards.');
  await c.click('#confirm-ok');
  assert.equal(await overReason(c), 'You closed the room before your opponent arrived.');
  assert.equal(await c.isHidden('#act-rematch'), true, 'no rematch without an opponent');
  assert.equal(await text(c, '#act-newroom'), 'New room');
  await shot(c, 'aborted-alone-en');

  // The link seats nobody now: the newcomer watches the room as it is.
  await join(d, l);
  assert.equal(await seatOf(d), 'spectator');
  assert.match(await text(d, '#conn'), /Estás mirando/);
  assert.equal(await overReason(d), 'El Norte cerró la sala antes de que llegara nadie.');
  assert.equal(await d.isHidden('#act-rematch'), true);
  assert.equal(await text(d, '#act-newroom'), 'Crear tu propia sala');
  assert.equal(await d.evaluate((r) => localStorage.getItem(`oware.token.${r}`), room), null, 'no seat token');
  await shot(d, 'aborted-room-newcomer-es');

  // New room: a room of one's own at once, as the start page makes it.
  await d.click('#act-newroom');
  await d.waitForSelector('#share:not([hidden])');
  const dl = await d.inputValue('#share-link');
  assert.notEqual(dl, l);
  assert.equal(await seatOf(d), 'south');
  assert.equal(new URL(d.url()).searchParams.get('room'), new URL(dl).searchParams.get('room'));
  await c.click('#act-newroom');
  await c.waitForSelector('#share:not([hidden])');
  assert.equal(await seatOf(c), 'north', 'the same side as before');
  assert.notEqual(await c.inputValue('#share-link'), l);
  // The new rooms take an opponent as usual.
  const e = await player({ locale: 'en-US', name: 'new-opponent' });
  await join(e, dl);
  assert.equal(await seatOf(e), 'north');
  noProblems();
});

// Sentences of the engine's end reasons, for the player who won, who lost,
// and a spectator (English).
const ENGINE_END = {
  score: { won: 'You captured more than half of the seeds and won.', lost: 'Your opponent captured more than half of the seeds, so you lost.', watch: '{w} captured more than half of the seeds and won.' },
  repetition: { won: /three times.*so you won\.$/, lost: /three times.*so you lost\.$/, watch: /three times.*so {w} won\.$/ },
  move_limit: { won: /^160 moves.*so you won\.$/, lost: /^160 moves.*so you lost\.$/, watch: /^160 moves.*so {w} won\.$/ },
  no_moves: { won: /no move.*so you won\.$/, lost: /no move.*so you lost\.$/, watch: /no move.*so {w} won\.$/ },
};

test('games ending on the board, read by the winner, the loser and a spectator', async () => {
  const ps = await player({ locale: 'en-US', name: 'end-south' });
  const pn = await player({ locale: 'en-US', name: 'end-north' });
  const pw = await player({ locale: 'en-US', name: 'end-spectator' });
  await ps.goto(suite.server.url);
  await pn.goto(suite.server.url);
  for (const g of games) {
    // Two clients play all but the last move; the pages take their seats.
    const { a, b, room, ta, tb } = await twoPlayers(suite.server.port);
    await playMoves(a, b, [...g.moves].slice(0, -1));
    a.close(); b.close();
    await ps.evaluate(([r, tk]) => localStorage.setItem(`oware.token.${r}`, tk), [room, ta]);
    await pn.evaluate(([r, tk]) => localStorage.setItem(`oware.token.${r}`, tk), [room, tb]);
    const l = `${suite.server.url}?room=${room}`;
    for (const p of [ps, pn, pw]) await join(p, l);
    assert.equal(await seatOf(ps), 'south');
    assert.equal(await seatOf(pn), 'north');
    assert.equal(await seatOf(pw), 'spectator');
    const last = g.moves.at(-1);
    const mover = g.moves.length % 2 ? ps : pn;
    await mover.waitForSelector(`#board .pit.legal[data-pit="${last}"]`);
    await move(mover, last, g.moves.length, [ps, pn, pw]);
    const winner = g.winner === 'south' ? ps : pn;
    const loser = winner === ps ? pn : ps;
    const wName = g.winner === 'south' ? 'South' : 'North';
    const want = ENGINE_END[g.reason];
    const check = async (page, w) => {
      const got = await overReason(page);
      if (typeof w === 'string') assert.equal(got, w.replace('{w}', wName), `${g.reason} on ${page.name}`);
      else assert.match(got, new RegExp(w.source.replace('{w}', wName)), `${g.reason} on ${page.name}`);
    };
    await check(winner, want.won);
    await check(loser, want.lost);
    await check(pw, want.watch);
    if (g.reason === 'score') {
      await shot(loser, 'score-over-loser-en');
      // The spectator, who never played here, has the review and a room of their own.
      assert.equal(await pw.isHidden('#review'), false);
      await pw.click('#rv-first');
      assert.equal(await text(pw, '#review-pos'), 'Starting position');
      assert.equal(await text(pw, '#act-newroom'), 'Create your own room');
      await shot(pw, 'score-over-spectator-en');
    }
  }
  noProblems();
});

test('a claim: the one who left reads that they left', async () => {
  const a = await player({ locale: 'en-US', name: 'claim-south' });
  const b = await player({ locale: 'es-ES', name: 'claim-north' });
  const w = await player({ locale: 'en-US', name: 'claim-spectator' });
  const l = await createRoom(a, 'south');
  await join(b, l);
  await join(w, l);
  await move(a, 'c', 1, [a, b, w]);
  await move(b, 'A', 2, [a, b, w]);
  // South, on turn, goes away; North claims after --abandon-seconds 2.
  const ctx = a.context();
  await a.close();
  pages.splice(pages.indexOf(a), 1);
  await b.waitForSelector('#act-claim:not([hidden])', { timeout: 15000 });
  await b.click('#act-claim');
  assert.equal(await overReason(b), 'Tu rival dejó la partida y no volvió a tiempo, así que has ganado.');
  assert.equal(await overReason(w), 'South left the game and did not come back in time, so North won.');
  // South comes back (the same browser keeps the seat's token).
  const back = await ctx.newPage();
  back.problems = [];
  back.name = 'claim-south-back';
  back.on('pageerror', (e) => back.problems.push(`pageerror ${e.message}`));
  pages.push(back);
  await join(back, l);
  assert.equal(await seatOf(back), 'south');
  assert.equal(await overReason(back), 'You left the game and did not come back in time, so your opponent claimed the win.');
  assert.equal(await text(back, '#over-result'), 'You lost.');
  await shot(back, 'claim-left-en');
  await shot(b, 'claim-won-es');
  noProblems();
});
