// room.test.mjs: a room that feels shared (issue 14) in Chromium against
// the real server: names (start page, remembered, shown in the player bars,
// the move list header, the result, the copied record and the share text,
// in English and Spanish), the chat between two players with a spectator
// reading (hostile strings stay text: nothing renders, nothing runs), the
// chat hidden and shown again (remembered), the history after a reload, the
// chat's rate limit, the spectators line for players, and the list of
// your games on the start page (two open rooms, a finished one, a gone one).
// Run: make test-browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, shot, waitMoves, browserSuite, switchLang } from './lib.mjs';

// Each page: the share sheet recorded (headless Chromium has none of its
// own).
const suite = browserSuite([], {
  init: (p) => p.addInitScript(() => {
    window.shared = [];
    navigator.share = (data) => { window.shared.push(data); return Promise.resolve(); };
    // The tab's visibility, set by the test (__setHidden), and notifications
    // recorded (permission granted when asked; asked is remembered).
    let hidden = false;
    Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible'), configurable: true });
    Object.defineProperty(document, 'hidden', { get: () => hidden, configurable: true });
    window.__setHidden = (h) => { hidden = h; document.dispatchEvent(new Event('visibilitychange')); };
    window.notes = [];
    window.permissionAsked = 0;
    class FakeNotification {
      constructor(title, opts = {}) { window.notes.push({ title, body: opts.body }); this.onclick = null; }
      close() {}
      static requestPermission() { window.permissionAsked++; FakeNotification.permission = 'granted'; return Promise.resolve('granted'); }
    }
    FakeNotification.permission = 'default';
    window.Notification = FakeNotification;
  }),
  keepPages: true,
});
const { player, noProblems } = suite;

const HOSTILE = [
  '<img src=x onerror="window.pwned=1">',
  '<script>window.pwned=2</script>',
  '"><svg onload=window.pwned=3>&amp;',
];
const EVIL_NAME = '<b>Bo</b>&lt;';

async function join(page, link) {
  await page.goto(link);
  await ready(page);
  await page.waitForFunction(() => !!document.body.dataset.seat);
}

// The chat lines a page shows: [author, text].
const chatLines = (page) => page.$$eval('#chat-lines .chat-line',
  (els) => els.map((e) => [e.querySelector('.chat-name').textContent, e.querySelector('.chat-text').textContent]));

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

async function waitLines(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#chat-lines .chat-line').length === k, n);
}

// No element came out of any text: the chat and the player bars hold text nodes only.
async function noMarkup(page) {
  const found = await page.evaluate(() => ({
    pwned: window.pwned,
    chat: document.querySelectorAll('#chat-lines img, #chat-lines script, #chat-lines svg, #chat-lines b').length,
    bars: document.querySelectorAll('.player-name *, #record-players *, #watchers *, #over-result *, #over-reason *, #toast *').length,
  }));
  assert.deepEqual(found, { pwned: undefined, chat: 0, bars: 0 }, page.name);
}

let south, north, watcher, link;

test('names: typed on the start page, remembered, shown in both languages; the share text', async () => {
  south = await player({ locale: 'es-ES', name: 'south' });
  north = await player({ locale: 'en-US', name: 'north' });
  watcher = await player({ locale: 'en-US', name: 'spectator', viewport: { width: 390, height: 844 }, mobile: true });
  await south.goto(suite.server.url);
  await ready(south);
  assert.equal(await south.inputValue('#start-name'), '');
  // A bad name is refused on the page, nothing created.
  await south.fill('#start-name', 'a\u200bb');
  await south.click('#create');
  assert.match(await south.textContent('#name-error'), /1 a 24 caracteres/);
  assert.equal(await south.evaluate(() => location.search), '');
  // So are a side's name (as the server reads it), an invisible one and a pile of marks.
  for (const bad of ['  Nórte ', 'S.O.U.T.H', '\u3164', 'a\u0301\u0301\u0301\u0301\u0301']) {
    await south.fill('#start-name', bad);
    await south.click('#create');
    assert.match(await south.textContent('#name-error'), /el de un lado/, JSON.stringify(bad));
    assert.equal(await south.evaluate(() => location.search), '');
  }
  await south.fill('#start-name', '  Ana  ');
  await south.check('input[name="side"][value="south"]');
  await south.click('#create');
  await south.waitForSelector('#share:not([hidden])');
  link = await south.inputValue('#share-link');
  assert.equal(await south.evaluate(() => localStorage.getItem('oware.name')), 'Ana');
  assert.equal(await south.textContent('#player-bottom .player-name'), 'Ana');
  assert.equal(await south.textContent('#player-bottom .player-you'), '(tú)');
  await south.click('#share-native');
  const shared = await south.evaluate(() => window.shared);
  assert.equal(shared.length, 1);
  assert.equal(shared[0].text, 'Ana te invita a una partida de oware:');
  assert.equal(shared[0].url, link);

  // North's browser remembers a name with markup in it; the watcher one too.
  await north.goto(suite.server.url);
  await north.evaluate((n) => localStorage.setItem('oware.name', n), EVIL_NAME);
  await join(north, link);
  await watcher.goto(suite.server.url);
  await watcher.evaluate(() => localStorage.setItem('oware.name', 'Kofi'));
  await join(watcher, link);
  assert.equal(await watcher.evaluate(() => document.body.dataset.seat), 'spectator');
  await north.waitForFunction(() => /Ana/.test(document.querySelector('#player-top .player-name').textContent));
  assert.equal(await north.textContent('#player-bottom .player-name'), EVIL_NAME);
  assert.equal(await north.textContent('#player-bottom .player-you'), '(you)');
  assert.equal(await north.textContent('#player-top .player-name'), 'Ana');
  await south.waitForFunction((n) => document.querySelector('#player-top .player-name').textContent === n, EVIL_NAME);
  assert.equal(await watcher.textContent('#player-bottom .player-name'), 'Ana');
  assert.equal(await watcher.textContent('#player-top .player-name'), EVIL_NAME);
  // Players see who watches; the spectator does not get that line.
  await south.waitForFunction(() => document.querySelector('#watchers').textContent === 'Un espectador: Kofi');
  await north.waitForFunction(() => document.querySelector('#watchers').textContent === 'One spectator: Kofi');
  assert.equal(await watcher.isHidden('#watchers'), true);
  // The move list's header names the players.
  assert.equal(await south.textContent('#record-players'), `Ana (Sur) contra ${EVIL_NAME} (Norte)`);
  assert.equal(await watcher.textContent('#record-players'), `Ana (South) vs ${EVIL_NAME} (North)`);
  for (const p of [south, north, watcher]) await noMarkup(p);
  noProblems();
});

test('chat: two players write, the spectator reads, hostile strings stay text', async () => {
  // The spectator has no form, only the note.
  assert.equal(await watcher.isHidden('#chat-form'), true);
  assert.match(await watcher.textContent('#chat-spectator'), /Only the players/);
  assert.equal(await south.isVisible('#chat-form'), true);
  assert.match(await south.textContent('#chat-empty'), /Aún no hay mensajes/);
  await say(south, HOSTILE[0]);
  for (const p of [south, north, watcher]) await waitLines(p, 1);
  await say(north, HOSTILE[1]);
  for (const p of [south, north, watcher]) await waitLines(p, 2);
  await say(south, `  ${HOSTILE[2]}  `);
  for (const p of [south, north, watcher]) await waitLines(p, 3);
  const want = [['Ana', HOSTILE[0]], [EVIL_NAME, HOSTILE[1]], ['Ana', HOSTILE[2]]];
  for (const p of [south, north, watcher]) {
    assert.deepEqual(await chatLines(p), want, p.name);
    await noMarkup(p);
  }
  // Each line has its time.
  assert.match(await watcher.textContent('#chat-lines .chat-line .chat-time'), /^\d\d:\d\d$/);
  assert.equal(await south.inputValue('#chat-input'), '');
  await shot(north, 'chat-en');
  await shot(watcher, 'chat-phone-en');
  // The spectator may turn the board; the players have no such button.
  assert.equal(await north.isHidden('#act-flip'), true);
  const row = () => watcher.$$eval('#board .row-bottom .pit', (els) => els.map((e) => e.dataset.pit).join(''));
  assert.equal(await row(), 'abcdef');
  await watcher.click('#act-flip');
  assert.equal(await row(), 'ABCDEF');
  assert.equal(await watcher.textContent('#player-bottom .player-name'), EVIL_NAME);
  await watcher.click('#act-flip');
  assert.equal(await row(), 'abcdef');
  noProblems();
});

test('chat hidden and shown again, remembered across a reload; the history comes back', async () => {
  await north.click('#chat-toggle');
  assert.equal(await north.isHidden('#chat-body'), true);
  assert.equal(await north.textContent('#chat-toggle'), 'Show chat');
  await say(south, 'while hidden');
  await waitLines(south, 4);
  await north.waitForFunction(() => document.querySelector('#chat-toggle').textContent === 'Show chat (1 new)');
  await north.reload();
  await ready(north);
  await north.waitForFunction(() => document.body.dataset.seat === 'north');
  await waitLines(north, 4);
  assert.equal(await north.isHidden('#chat-body'), true, 'still hidden after the reload');
  await shot(north, 'chat-hidden-en');
  await north.click('#chat-toggle');
  assert.equal(await north.isVisible('#chat-body'), true);
  assert.deepEqual((await chatLines(north)).map((l) => l[1]), [...HOSTILE, 'while hidden']);
  await noMarkup(north);
  noProblems();
});

test('chat rate limit: the sixth line in 10 s gets a clear message and is not shown', async () => {
  // The limit is the seat's, not the connection's (a reload does not
  // start afresh): once South's earlier lines are 10 s old, five pass and
  // the sixth is refused.
  await south.reload();
  await ready(south);
  await waitLines(south, 4);
  await new Promise((r) => setTimeout(r, 10500));
  // Sent with Enter: the Send button moves down as each line comes back
  // (the list grows), and a click aimed at it as it moves can miss.
  for (let i = 1; i <= 6; i++) {
    await south.fill('#chat-input', `fast ${i}`);
    await south.press('#chat-input', 'Enter');
  }
  await south.waitForFunction(() => /Demasiados mensajes seguidos/.test(document.querySelector('#toast').textContent))
    .catch(async (e) => {
      const seen = await south.evaluate(() => ({
        toast: document.querySelector('#toast').textContent,
        field: document.querySelector('#chat-input').value,
        lines: [...document.querySelectorAll('#chat-lines .chat-text')].map((l) => l.textContent),
      }));
      throw new Error(`${e.message}\nSouth saw: ${JSON.stringify(seen)}`);
    });
  await waitLines(watcher, 9);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await chatLines(watcher)).length, 9);
  assert.ok(!(await chatLines(watcher)).some((l) => l[1] === 'fast 6'));
  noProblems();
});

test('a name changed in the room; the result and the copied record name the players', async () => {
  await south.fill('#room-name', 'Ana K.');
  await south.click('#name-save');
  await north.waitForFunction(() => document.querySelector('#player-top .player-name').textContent === 'Ana K.');
  assert.equal(await south.evaluate(() => localStorage.getItem('oware.name')), 'Ana K.');
  // Two moves, so that North may resign.
  await south.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(north, 1);
  await north.click('#board .pit.legal[data-pit="A"]');
  await waitMoves(south, 2);
  await north.click('#act-resign');
  await north.click('#confirm-ok');
  await watcher.waitForSelector('#over:not([hidden])');
  assert.equal(await watcher.textContent('#over-result'), 'Ana K. wins.');
  await south.waitForSelector('#over:not([hidden])');
  assert.equal(await south.textContent('#over-result'), '¡Has ganado!');
  // The record (OGN) names the players, its quotes and backslashes escaped.
  await watcher.click('#record-copy');
  const rec = await watcher.evaluate(() => navigator.clipboard.readText());
  const ognText = (v) => v.replace(/[\\"]/g, '\\$&');
  assert.ok(rec.includes('[South "Ana K."]\n'), rec);
  assert.ok(rec.includes(`[North "${ognText(EVIL_NAME)}"]\n`), rec);
  await south.click('#record-copy');
  const recEs = await south.evaluate(() => navigator.clipboard.readText());
  assert.equal(recEs, rec);
  for (const p of [south, north, watcher]) await noMarkup(p);
  await shot(south, 'names-over-es');
  noProblems();
});

test('your games: two open rooms and a finished one on the start page; remove, go back in', async () => {
  // South holds the finished room of the tests above; one more nobody
  // joined, and one North joined (South to move).
  await south.goto(suite.server.url);
  await ready(south);
  await south.check('input[name="clock"][value="days:3"]');
  await south.click('#create');
  await south.waitForSelector('#share:not([hidden])');
  const waitingRoom = new URL(await south.inputValue('#share-link')).searchParams.get('room');
  await south.goto(suite.server.url);
  await ready(south);
  await south.click('#create');
  await south.waitForSelector('#share:not([hidden])');
  const openLink = await south.inputValue('#share-link');
  const openRoom = new URL(openLink).searchParams.get('room');
  await join(north, openLink);
  await south.waitForSelector('#share', { state: 'hidden' });
  // And a token for a room the server does not know.
  await south.evaluate(() => localStorage.setItem('oware.token.no-such-room', 'x'));
  await south.goto(suite.server.url);
  await ready(south);
  await south.waitForSelector('#games:not([hidden]) .game-item');
  const items = () => south.$$eval('#games-list .game-item', (els) => els.map((e) => ({
    room: e.dataset.room, state: e.dataset.state, title: e.querySelector('.game-title').textContent,
    detail: e.querySelector('.game-detail').textContent, remove: !!e.querySelector('button'),
  })));
  const list = await items();
  assert.equal(list.length, 4, JSON.stringify(list));
  const by = Object.fromEntries(list.map((g) => [g.state, g]));
  assert.equal(by.yours.room, openRoom);
  assert.equal(by.yours.title, `Contra ${EVIL_NAME}`);
  assert.match(by.yours.detail, /^juegas con Sur · te toca · /);
  assert.equal(by.yours.remove, false);
  assert.equal(by.waiting.room, waitingRoom);
  assert.equal(by.waiting.title, 'Esperando a tu rival');
  assert.match(by.waiting.detail, /^juegas con Sur · 3 días por jugada · /);
  assert.doesNotMatch(by.yours.detail, /Reloj|días/);
  assert.equal(by.over.title, `Contra ${EVIL_NAME}`);
  assert.match(by.over.detail, /^juegas con Sur · ganaste · /);
  assert.equal(by.over.remove, true);
  assert.equal(by.gone.room, 'no-such-room');
  assert.equal(by.gone.title, 'Sala caducada o inexistente');
  assert.deepEqual(list.map((g) => g.state), ['yours', 'waiting', 'over', 'gone']);
  await noMarkup(south);
  assert.equal(await south.evaluate(() => document.querySelectorAll('#games-list *:is(b, img, script)').length), 0);
  await shot(south, 'games-es');
  // The same list on a phone, in English.
  const phone = await player({ locale: 'en-US', name: 'phone', viewport: { width: 390, height: 844 }, mobile: true });
  await phone.goto(suite.server.url);
  await phone.evaluate((entries) => { for (const [k, v] of entries) localStorage.setItem(k, v); },
    await south.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('oware.token.'))));
  await phone.reload();
  await ready(phone);
  await phone.waitForSelector('#games:not([hidden]) .game-item');
  assert.match(await phone.textContent('#games-list .game-item[data-state="yours"]'), /you play South · your move/);
  await shot(phone, 'games-phone-en');
  // Switching the language writes the list again.
  await switchLang(phone, 'es');
  await phone.waitForFunction(() => /juegas con Sur · te toca/.test(document.querySelector('#games-list').textContent));
  // Removing the finished and the gone rooms forgets their tokens.
  const finished = by.over.room;
  await south.click('#games-list .game-item[data-state="over"] button');
  await south.click('#games-list .game-item[data-state="gone"] button');
  assert.equal((await items()).length, 2);
  assert.equal(await south.evaluate((r) => localStorage.getItem(`oware.token.${r}`), finished), null);
  assert.equal(await south.evaluate(() => localStorage.getItem('oware.token.no-such-room')), null);
  // One click goes back in.
  await south.click('#games-list .game-item[data-state="yours"] a');
  await south.waitForFunction(() => document.body.dataset.seat === 'south');
  assert.equal(new URL(south.url()).searchParams.get('room'), openRoom);
  noProblems();
});

test('sounds, the mute toggle, the hidden tab\'s title and icon, a notification once opted in', async () => {
  const ama = await player({ locale: 'en-US', name: 'ama' });
  const kwame = await player({ locale: 'en-US', name: 'kwame' });
  await ama.goto(suite.server.url);
  await ready(ama);
  await ama.fill('#start-name', 'Ama');
  await ama.click('#create');
  await ama.waitForSelector('#share:not([hidden])');
  const roomLink = await ama.inputValue('#share-link');
  await kwame.goto(suite.server.url);
  await kwame.evaluate(() => localStorage.setItem('oware.name', 'Kwame'));
  await join(kwame, roomLink);
  // The opponent's arrival sounds.
  await ama.waitForFunction(() => window.owareTest.sounds.includes('joined'));
  assert.equal(await ama.textContent('#act-sound'), 'Sound: on');
  assert.equal(await kwame.textContent('#act-notify'), 'Notify me');
  assert.equal(await kwame.evaluate(() => window.permissionAsked), 0, 'nothing asked before the opt-in');
  await kwame.click('#act-notify');
  await kwame.waitForFunction(() => document.querySelector('#act-notify').textContent === 'Notifications: on');
  assert.equal(await kwame.evaluate(() => window.permissionAsked), 1);
  assert.equal(await kwame.evaluate(() => localStorage.getItem('oware.notify')), '1');
  // Kwame's tab is hidden; Ama moves: the title, the icon and a notification say so.
  await kwame.evaluate(() => window.__setHidden(true));
  await ama.click('#board .pit.legal[data-pit="c"]');
  await waitMoves(kwame, 1);
  await kwame.waitForFunction(() => window.notes.length === 1);
  assert.deepEqual(await kwame.evaluate(() => window.notes[0]), { title: 'Oware', body: 'Ama played c: your move' });
  assert.equal(await kwame.title(), '(1) Ama played c: your move · Oware');
  assert.match(await kwame.getAttribute('link[rel="icon"]', 'href'), /^data:image\/svg\+xml,/);
  assert.ok((await kwame.evaluate(() => window.owareTest.sounds)).includes('move'));
  // A chat line while hidden counts too.
  await say(ama, 'your move!');
  await kwame.waitForFunction(() => window.notes.length === 2);
  assert.equal(await kwame.title(), '(2) Ama says: your move! · Oware');
  assert.ok((await kwame.evaluate(() => window.owareTest.sounds)).includes('chat'));
  // Back on the tab: the title and icon as before.
  await kwame.evaluate(() => window.__setHidden(false));
  await kwame.waitForFunction(() => !/^\(/.test(document.title));
  assert.equal(await kwame.getAttribute('link[rel="icon"]', 'href'), 'icon.svg');
  // Ama mutes; the choice survives a reload; Kwame's move makes no sound for her.
  await ama.click('#act-sound');
  assert.equal(await ama.textContent('#act-sound'), 'Sound: off');
  await ama.reload();
  await ready(ama);
  await ama.waitForFunction(() => document.body.dataset.seat === 'south');
  assert.equal(await ama.textContent('#act-sound'), 'Sound: off');
  await kwame.click('#board .pit.legal[data-pit="A"]');
  await waitMoves(ama, 2);
  assert.deepEqual(await ama.evaluate(() => window.owareTest.sounds), []);
  // The game's end sounds for the unmuted player.
  await ama.click('#act-sound');
  await kwame.click('#act-resign');
  await kwame.click('#confirm-ok');
  await ama.waitForFunction(() => window.owareTest.sounds.includes('end'));
  noProblems();
});

test('the next room offers the remembered name; a local game shows no chat', async () => {
  await south.goto(suite.server.url);
  await ready(south);
  assert.equal(await south.inputValue('#start-name'), 'Ana K.');
  await shot(south, 'start-name-es');
  await south.click('#local-play');
  await south.waitForSelector('#game:not([hidden])');
  assert.equal(await south.isHidden('#chat'), true);
  assert.equal(await south.isHidden('#watchers'), true);
  noProblems();
});
