// event.test.mjs: a club event's page controller (web/event.js's
// eventScreen) in node, against a fake Connection (fakes.mjs): creating
// an event keeps its organiser token and follows it; a page watches with
// the token kept, a #organiser= link's token, or none; a bad token is
// forgotten; joining, withdrawing and the organiser's actions send what
// protocol/PROTOCOL.md says, and each refusal is kept where its action was;
// a player's game is reached with its seat token; an organiser who plays
// too keeps both tokens, on two sockets; a board's room finds
// its round and board in the event (event-room.js).
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeConn, fakeEffects } from './fakes.mjs';
import { eventScreen, eventFields, eventSocketUrl, EVENT_KEY, SEEN_KEY } from '../../web/event.js';
import { boardOf } from '../../web/event-room.js';
import fs from 'node:fs';
import { t, tIn, setLang, loadPart } from '../../web/i18n.js';

// The page's words in English, read from disk (as strings.test.mjs does):
// the refusals are said in words, not keys.
globalThis.document = /** @type {any} */ ({ documentElement: {}, querySelectorAll: () => [], title: '' });
globalThis.fetch = /** @type {any} */ (async (url) => ({ ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(url), 'utf8')) }));
await setLang('en');
await loadPart('event');
// As the event page does at its start (startEvent).
await (await import('../../web/names.js')).loadNameWords();

// The effects the event page asks of the page, recorded (fakes.mjs's, with
// the event's own).
function effects(extra = {}) {
  const { fx, said } = fakeEffects(extra);
  said.urls = [];
  said.went = [];
  return {
    said,
    fx: { ...fx, eventUrl: (id) => said.urls.push(id), go: (url) => said.went.push(url) },
  };
}

// An `event` message as the server sends it; fields override.
function eventMsg(fields = {}) {
  return {
    type: 'event', event: 'ev1', version: 1, title: 'Thursday club', kind: 'oware', format: 'swiss', rounds: 3,
    round: 0, state: 'entry', clock: { initial: 600, increment: 5 }, max_players: 0, auto: true, join_open: true,
    created: 1, updated: 1, players: [], schedule: [], tiebreaks: ['buchholz_cut1', 'buchholz', 'sonneborn_berger', 'seeds'],
    standings: [], ...fields,
  };
}

// What the server sends for an event seen with a token: the `event`
// every follower gets, then the socket's own `event_you`.
function hearEvent(conn, msg) {
  const { you, ...ev } = msg;
  conn.hear(ev);
  if (you) conn.hear({ type: 'event_you', event: ev.event, version: ev.version, you });
}

const players = (...names) => names.map((name, entry) => ({ entry, name, number: null, late: 0, withdrawn: false }));

// A page following ev1, the socket up and the first event heard.
function watching({ kept = null, first = eventMsg(), organiser = null, player = null, confirm = true, seen = null } = {}) {
  const { fx, said } = effects({ confirm });
  if (kept) fx.store(EVENT_KEY('ev1'), JSON.stringify(kept));
  if (seen) fx.store(SEEN_KEY, JSON.stringify(seen));
  let draws = 0;
  const page = eventScreen({ id: 'ev1', organiser, player, Conn: FakeConn, effects: fx }, () => { draws++; });
  const made = FakeConn.made.length;
  page.open();
  const conn = FakeConn.made[made];  // (the organiser who plays has a second one)
  conn.up();
  if (first) hearEvent(conn, first);
  return { page, conn, said, st: page.state, draws: () => draws };
}

const ORG = { token: 'org-tok', role: 'organiser', title: 'Thursday club' };

test('nothing is opened at construction; open() watches without a token when none is kept', () => {
  const { fx } = effects();
  const before = FakeConn.made.length;
  const page = eventScreen({ id: 'ev1', Conn: FakeConn, effects: fx }, () => {});
  assert.equal(FakeConn.made.length, before);
  assert.equal(page.state.conn, 'idle');
  page.open();
  FakeConn.last.up();
  assert.deepEqual(FakeConn.last.sent, [{ type: 'event_watch', event: 'ev1' }]);
  assert.equal(page.state.conn, 'open');
  page.close();
});

test('creating: event_create with the form\'s fields, the organiser token kept, the address set, then watched with it', () => {
  const { fx, said } = effects();
  const fields = { title: 'Thursday club', kind: 'oware', format: 'swiss', rounds: 3, clock: { initial: 600, increment: 5 }, max_players: null, auto: true };
  const page = eventScreen({ id: null, create: fields, Conn: FakeConn, effects: fx }, () => {});
  page.open();
  const conn = FakeConn.last;
  conn.up();
  assert.deepEqual(conn.sent, [{ type: 'event_create', ...fields }]);
  conn.hear({ type: 'event_welcome', event: 'ev1', role: 'organiser', token: 'org-tok' });
  assert.equal(page.state.id, 'ev1');
  assert.equal(page.state.role, 'organiser');
  assert.deepEqual(JSON.parse(said.stored.get(EVENT_KEY('ev1'))), ORG);
  assert.deepEqual(said.urls, ['ev1']);
  hearEvent(conn, eventMsg({ you: { role: 'organiser' } }));
  assert.equal(page.state.event.title, 'Thursday club');
  // A new socket follows the event with the token, and creates nothing.
  conn.drop();
  conn.up();
  assert.deepEqual(conn.sent.at(-1), { type: 'event_watch', event: 'ev1', token: 'org-tok' });
  page.close();
});

test("the page speaks its event's game: the one offered until the event is read, then the event's", () => {
  const { fx } = effects();
  const words = [];
  const page = eventScreen({ id: 'ev1', kind: 'oware', Conn: FakeConn, effects: { ...fx, words: (k) => words.push(k) } }, () => {});
  assert.equal(page.state.kind, 'oware');
  page.open();
  const conn = FakeConn.last;
  conn.up();
  assert.deepEqual(words, [], 'nothing said before the event is read');
  // A Togyz Kumalak event: the page's static words (the header's name,
  // the tab's title) follow it, once; a language switched asks the state.
  conn.hear(eventMsg({ kind: 'togyz' }));
  assert.equal(page.state.kind, 'togyz');
  assert.deepEqual(words, ['togyz']);
  conn.hear(eventMsg({ kind: 'togyz', version: 2, players: players('Ama') }));
  conn.drop();
  conn.up();
  conn.hear(eventMsg({ kind: 'togyz', version: 2, players: players('Ama') }));
  assert.deepEqual(words, ['togyz'], 'said once');
  assert.equal(page.state.kind, 'togyz');
  page.close();
  // A page that creates an event speaks the form's game meanwhile.
  const made = eventScreen({ id: null, kind: 'oware', create: { title: 'x', kind: 'togyz' }, Conn: FakeConn, effects: fx }, () => {});
  assert.equal(made.state.kind, 'togyz');
  assert.equal(eventScreen({ id: 'ev1', Conn: FakeConn, effects: fx }, () => {}).state.kind, 'oware');
});

test('a refused creation goes back to the start page, saying why', () => {
  const { fx, said } = effects();
  const page = eventScreen({ id: null, create: { title: 'x' }, Conn: FakeConn, effects: fx }, () => {});
  page.open();
  FakeConn.last.up();
  FakeConn.last.hear({ type: 'error', code: 'too_many_events' });
  assert.equal(said.home, 'The server holds too many events. Try again later.');
  assert.equal(FakeConn.last.state, 'stopped');
  assert.equal(said.stored.size, 0);
});

test('the token kept is presented; the organiser link\'s fragment is kept and leaves the address', () => {
  const a = watching({ kept: ORG });
  assert.deepEqual(a.conn.sent[0], { type: 'event_watch', event: 'ev1', token: 'org-tok' });
  assert.equal(a.st.role, 'organiser');
  a.page.close();
  const b = watching({ organiser: 'other-tok' });
  assert.deepEqual(b.conn.sent[0], { type: 'event_watch', event: 'ev1', token: 'other-tok' });
  assert.deepEqual(b.said.urls, ['ev1'], 'the address loses the fragment');
  // The event's title is kept beside the token ("Your games" shows it).
  assert.deepEqual(JSON.parse(b.said.stored.get(EVENT_KEY('ev1'))), { token: 'other-tok', role: 'organiser', title: 'Thursday club' });
  b.page.close();
});

test('a bad token is forgotten and the event watched without it', () => {
  const { page, conn, said, st } = watching({ kept: ORG, first: null });
  conn.hear({ type: 'error', code: 'bad_token' });
  assert.equal(said.stored.has(EVENT_KEY('ev1')), false);
  assert.equal(st.token, null);
  assert.equal(st.role, null);
  assert.deepEqual(conn.sent.at(-1), { type: 'event_watch', event: 'ev1' });
  assert.deepEqual(said.toasts, [t('event.error.bad_token')]);
  page.close();
});

test('joining: a bad name refused here; a taken name said at the form; then the player token kept', () => {
  const { page, conn, said, st } = watching();
  const n = conn.sent.length;
  page.join('   ');
  assert.equal(conn.sent.length, n, 'nothing sent');
  assert.deepEqual(st.error, { at: 'join', code: 'bad_name' });
  page.join('  Ama ');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_join', event: 'ev1', name: 'Ama' });
  assert.equal(st.busy, 'join');
  assert.equal(st.error, null);
  conn.hear({ type: 'error', code: 'name_taken' });
  assert.deepEqual(st.error, { at: 'join', code: 'name_taken' });
  assert.equal(st.busy, null);
  page.join('Ama K');
  conn.hear({ type: 'event_welcome', event: 'ev1', role: 'player', entry: 0, token: 'p-tok' });
  hearEvent(conn, eventMsg({ version: 2, players: players('Ama K'), you: { role: 'player', entry: 0, game: null } }));
  assert.deepEqual(JSON.parse(said.stored.get(EVENT_KEY('ev1'))), { token: 'p-tok', role: 'player', title: 'Thursday club' });
  assert.equal(st.role, 'player');
  assert.ok(said.announced.includes(t('event.joined.you')));
  page.close();
});

// Issue 49, items 9 and 17: a word of the event is refused here (the
// server refuses it too: name_reserved), and a name the server refuses
// as a bad name (a side's look-alike, "Ѕоuth" in Cyrillic, which
// names.js cannot read) is explained as a bad name, not as a message the
// server did not understand.
test('joining: an event word refused here; a look-alike of a side explained as a bad name', () => {
  const { page, conn, st } = watching();
  const n = conn.sent.length;
  for (const name of ['bye', '(bye)', 'Draw', '1-0', '?', 'Ama (withdrawn)', 'white_forfeit']) {
    page.join(name);
    assert.equal(conn.sent.length, n, `${name}: nothing sent`);
    assert.deepEqual(st.error, { at: 'join', code: 'name_reserved' }, name);
  }
  page.join('\u0405\u043euth');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_join', event: 'ev1', name: '\u0405\u043euth' });
  conn.hear({ type: 'error', code: 'bad_message', message: 'name: reads as the name of a side (South)' });
  assert.deepEqual(st.error, { at: 'join', code: 'bad_name' });
  page.join('Amma');
  conn.hear({ type: 'error', code: 'name_reserved', message: 'that name reads as a word of the event' });
  assert.deepEqual(st.error, { at: 'join', code: 'name_reserved' });
  // Another bad_message stays what it is.
  page.join('Kofi');
  conn.hear({ type: 'error', code: 'bad_message', message: 'event: not a string' });
  assert.deepEqual(st.error, { at: 'join', code: 'bad_message' });
  page.close();
});

test('the organiser plays too: both tokens kept, a second socket follows as the player, each action on its own socket', async () => {
  const { page, conn, said, st } = watching({ kept: ORG, first: eventMsg({ you: { role: 'organiser' } }) });
  const made = FakeConn.made.length;
  page.join('Olu');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_join', event: 'ev1', name: 'Olu' });
  conn.hear({ type: 'event_welcome', event: 'ev1', role: 'player', entry: 0, token: 'p-tok' });
  // Both tokens kept; the organiser's socket follows as the organiser
  // again (the join made it the player's), a second one as the player.
  assert.deepEqual(JSON.parse(said.stored.get(EVENT_KEY('ev1'))), { ...ORG, player: 'p-tok' });
  assert.equal(st.role, 'organiser');
  assert.equal(st.token, 'org-tok');
  assert.equal(st.player, 'p-tok');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_watch', event: 'ev1', token: 'org-tok' });
  assert.equal(FakeConn.made.length, made + 1, 'a socket for the player');
  const pc = FakeConn.last;
  pc.up();
  assert.deepEqual(pc.sent, [{ type: 'event_watch', event: 'ev1', token: 'p-tok' }]);
  // The join's event on the organiser's socket names the player; the
  // organiser's view after it does not take the player's away.
  const ps = players('Olu', 'Ama');
  hearEvent(conn, eventMsg({ version: 2, players: ps.slice(0, 1), you: { role: 'player', entry: 0, game: null } }));
  assert.equal(st.role, 'organiser');
  assert.equal(st.mine.entry, 0);
  hearEvent(conn, eventMsg({ version: 3, players: ps, you: { role: 'organiser' } }));
  hearEvent(pc, eventMsg({ version: 3, players: ps, you: { role: 'player', entry: 0, game: null } }));
  assert.equal(st.role, 'organiser');
  assert.equal(st.mine.entry, 0);
  assert.equal(st.event.version, 3);
  // The organiser's actions go on the organiser's socket, the player's on his.
  page.start();
  assert.deepEqual(conn.sent.at(-1), { type: 'event_start', event: 'ev1', token: 'org-tok' });
  const game = { room: 'r1', round: 1, board: 1, side: 'north', token: 'seat-tok' };
  const round1 = { round: 1, state: 'running', join_open: false, schedule: [{ round: 1, boards: [{ board: 1, white: 1, black: 0, result: null, seeds: null, room: 'r1', by: null }] }] };
  hearEvent(pc, eventMsg({ version: 4, players: ps, ...round1, you: { role: 'player', entry: 0, game } }));
  hearEvent(conn, eventMsg({ version: 4, players: ps, ...round1, you: { role: 'organiser' } }));
  assert.deepEqual(st.mine.game, game, 'the game stays after the organiser\'s view of the same change');
  const told = t('event.you.game.second', { round: 1, board: 1, name: 'Ama', side: tIn('oware', 'side.north') });
  assert.equal(said.announced.filter((a) => a.includes(told)).length, 1, 'the game said once, with the opponent and the colour');
  page.play();
  assert.equal(said.stored.get('oware.token.r1'), 'seat-tok');
  assert.deepEqual(said.went, ['?room=r1']);
  const sent = conn.sent.length;
  await page.withdraw();
  assert.deepEqual(pc.sent.at(-1), { type: 'event_withdraw', event: 'ev1', token: 'p-tok' });
  assert.equal(conn.sent.length, sent, 'nothing on the organiser\'s socket');
  assert.equal(st.busy, 'withdraw');
  pc.hear({ type: 'error', code: 'event_over' });
  assert.deepEqual(st.error, { at: 'withdraw', code: 'event_over' });
  // A page opened again follows with both tokens; closed, both sockets stop.
  page.close();
  assert.equal(pc.state, 'stopped');
  const again = watching({ kept: JSON.parse(said.stored.get(EVENT_KEY('ev1'))), first: null });
  assert.deepEqual(again.conn.sent, [{ type: 'event_watch', event: 'ev1', token: 'org-tok' }]);
  assert.equal(again.st.player, 'p-tok');
  const pc2 = FakeConn.last;
  assert.notEqual(pc2, again.conn);
  pc2.up();
  assert.deepEqual(pc2.sent, [{ type: 'event_watch', event: 'ev1', token: 'p-tok' }]);
  // The player's token refused: forgotten, the organiser's kept.
  pc2.hear({ type: 'error', code: 'bad_token' });
  assert.equal(again.st.player, null);
  assert.equal(pc2.state, 'stopped');
  assert.deepEqual(JSON.parse(again.said.stored.get(EVENT_KEY('ev1'))), ORG);
  again.page.close();
});

test('the organiser\'s token refused where the organiser played too: the player\'s becomes the page\'s', () => {
  const { conn, said, st, page } = watching({ kept: { ...ORG, player: 'p-tok' }, first: null });
  const pc = FakeConn.last;
  conn.hear({ type: 'error', code: 'bad_token' });
  assert.equal(st.token, 'p-tok');
  assert.equal(st.role, 'player');
  assert.equal(st.player, null);
  assert.equal(pc.state, 'stopped', 'one socket, the player\'s, from now on');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_watch', event: 'ev1', token: 'p-tok' });
  assert.deepEqual(JSON.parse(said.stored.get(EVENT_KEY('ev1'))), { token: 'p-tok', role: 'player', title: 'Thursday club' });
  page.close();
});

test('a player\'s browser opening the organiser link keeps the player\'s token beside it', () => {
  const { conn, said, st, page } = watching({ kept: { token: 'p-tok', role: 'player', title: 'Thursday club' }, organiser: 'org-tok', first: null });
  assert.deepEqual(JSON.parse(said.stored.get(EVENT_KEY('ev1'))), { ...ORG, player: 'p-tok' });
  assert.equal(st.role, 'organiser');
  assert.deepEqual(conn.sent, [{ type: 'event_watch', event: 'ev1', token: 'org-tok' }]);
  assert.deepEqual(FakeConn.last.h.hello(), { type: 'event_watch', event: 'ev1', token: 'p-tok' });
  page.close();
});

test('the organiser starts, records results (seeds, forfeits, corrections), pairs and finishes', async () => {
  const { page, conn, st, said } = watching({ kept: ORG, first: eventMsg({ players: players('A', 'B', 'C', 'D'), you: { role: 'organiser' } }) });
  page.start();
  assert.deepEqual(conn.sent.at(-1), { type: 'event_start', event: 'ev1', token: 'org-tok' });
  conn.hear({ type: 'error', code: 'too_few_players' });
  assert.deepEqual(st.error, { at: 'start', code: 'too_few_players' });
  await page.result(1, 2, 'white', [25, 10]);
  assert.deepEqual(conn.sent.at(-1), { type: 'event_result', event: 'ev1', token: 'org-tok', round: 1, board: 2, result: 'white', seeds: [25, 10] });
  assert.equal(st.busy, 'result:1:2');
  // A forfeit has no seeds; a result without seeds sends none.
  await page.result(1, 1, 'black_forfeit', [3, 4]);
  assert.deepEqual(conn.sent.at(-1), { type: 'event_result', event: 'ev1', token: 'org-tok', round: 1, board: 1, result: 'black_forfeit' });
  // Sent once while its answer is awaited (a second press sends nothing).
  const once = conn.sent.length;
  await page.result(1, 1, 'black_forfeit');
  assert.equal(conn.sent.length, once);
  hearEvent(conn, eventMsg({ version: 2, players: players('A', 'B', 'C', 'D'), you: { role: 'organiser' } }));
  assert.equal(st.busy, null, 'answered');
  await page.result(1, 1, 'draw');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_result', event: 'ev1', token: 'org-tok', round: 1, board: 1, result: 'draw' });
  conn.hear({ type: 'error', code: 'bad_board' });
  assert.deepEqual(st.error, { at: 'result:1:1', code: 'bad_board' });
  // Seeds out of range or one side only: said at the board, nothing sent.
  const n = conn.sent.length;
  await page.result(1, 1, 'white', [-1, 3]);
  await page.result(1, 1, 'white', [200, 3]);
  assert.equal(conn.sent.length, n);
  assert.deepEqual(st.error, { at: 'result:1:1', code: 'bad_seeds' });
  // No result chosen (the form chooses none beforehand), or one unknown: said, nothing sent.
  const asked = said.confirms.length;
  await page.result(1, 1, '');
  assert.deepEqual(st.error, { at: 'result:1:1', code: 'no_result' });
  await page.result(1, 1, 'nonsense');
  assert.equal(conn.sent.length, n);
  assert.equal(said.confirms.length, asked, 'nothing asked');
  page.next();
  assert.deepEqual(conn.sent.at(-1), { type: 'event_next', event: 'ev1', token: 'org-tok' });
  conn.hear({ type: 'error', code: 'round_pending' });
  assert.deepEqual(st.error, { at: 'next', code: 'round_pending' });
  await page.finish();
  assert.deepEqual(conn.sent.at(-1), { type: 'event_finish', event: 'ev1', token: 'org-tok' });
  page.close();
});

test('ending the event or withdrawing asks first; a No sends nothing', async () => {
  const org = watching({ kept: ORG, confirm: false });
  const n = org.conn.sent.length;
  await org.page.finish();
  assert.equal(org.conn.sent.length, n);
  assert.equal(org.said.confirms.length, 1);
  org.page.close();
  // Before the start there is no game to lose: the question says so (issue 49, item 17).
  const p = watching({ kept: { token: 'p-tok', role: 'player', title: 'x' } });
  await p.page.withdraw();
  assert.deepEqual(p.conn.sent.at(-1), { type: 'event_withdraw', event: 'ev1', token: 'p-tok' });
  assert.deepEqual(p.said.confirms, [t('event.withdraw.confirm.entry')]);
  assert.doesNotMatch(p.said.confirms[0], /game|forfeit/);
  p.page.close();
  const q = watching({ kept: { token: 'p-tok', role: 'player', title: 'x' }, first: eventMsg({ state: 'running', round: 1 }) });
  await q.page.withdraw();
  assert.deepEqual(q.said.confirms, [t('event.withdraw.confirm')]);
  q.page.close();
});

// Issue 49, item 17: the organiser confirms a result, named with its
// board, players and seeds; a No sends nothing.
test('a result is sent once confirmed, the board, its players, the result and the seeds named', async () => {
  const schedule = [{ round: 1, boards: [{ board: 1, white: 0, black: 1, result: null, seeds: null, room: null, by: null },
    { board: 2, white: 2, black: null, result: 'bye', seeds: null, room: null, by: null }] }];
  const first = eventMsg({ state: 'running', round: 1, players: players('Ama', 'Kofi', 'Esi'), schedule, you: { role: 'organiser' } });
  const yes = watching({ kept: ORG, first });
  await yes.page.result(1, 1, 'black', [10, 26]);
  assert.deepEqual(yes.said.confirms, ['Board 1, Ama – Kofi: Kofi won (10–26). Save this result?']);
  assert.deepEqual(yes.conn.sent.at(-1), { type: 'event_result', event: 'ev1', token: 'org-tok', round: 1, board: 1, result: 'black', seeds: [10, 26] });
  yes.page.close();
  const no = watching({ kept: ORG, first, confirm: false });
  const n = no.conn.sent.length;
  await no.page.result(1, 1, 'white_forfeit', null);
  assert.deepEqual(no.said.confirms, ['Board 1, Ama – Kofi: Ama wins: Kofi did not come. Save this result?']);
  assert.equal(no.conn.sent.length, n, 'a No sends nothing');
  assert.equal(no.st.busy, null);
  no.page.close();
});

test('a watcher has no organiser\'s actions: nothing is sent', async () => {
  const { page, conn } = watching();
  const n = conn.sent.length;
  page.start();
  page.next();
  await page.result(1, 1, 'white');
  assert.equal(conn.sent.length, n);
  page.close();
});

test('the player\'s game: announced once paired, its seat token kept as the room\'s, the room opened', () => {
  const kept = { token: 'p-tok', role: 'player', title: 'Thursday club' };
  const entry = eventMsg({ version: 3, players: players('A', 'B'), you: { role: 'player', entry: 1, game: null } });
  const { page, said, conn } = watching({ kept, first: entry });
  const game = { room: 'room77', round: 1, board: 1, side: 'north', token: 'seat-tok' };
  hearEvent(conn, eventMsg({
    version: 4, state: 'running', round: 1, join_open: true, players: players('A', 'B'),
    schedule: [{ round: 1, boards: [{ board: 1, white: 0, black: 1, result: null, seeds: null, room: 'room77', by: null }] }],
    you: { role: 'player', entry: 1, game },
  }));
  assert.ok(said.announced.at(-1).includes(t('event.announce.round', { n: 1 })));
  assert.ok(said.announced.at(-1).includes(t('event.you.game.second', { round: 1, board: 1, name: 'A', side: tIn('oware', 'side.north') })));
  page.play();
  assert.equal(said.stored.get('oware.token.room77'), 'seat-tok');
  assert.deepEqual(said.went, ['?room=room77']);
  // An older event after a newer one is dropped.
  conn.hear(entry);
  assert.equal(page.state.event.version, 4);
  // The player's own result said as his ("you lost"), not counted among
  // the others'; with the next round, the round and his bye.
  const sched = (res) => [{ round: 1, boards: [{ board: 1, white: 0, black: 1, result: res, seeds: null, room: 'room77', by: null }] }];
  hearEvent(conn, eventMsg({ version: 5, state: 'running', round: 1, players: players('A', 'B'), schedule: sched('white'),
    you: { role: 'player', entry: 1, game: null } }));
  assert.equal(said.announced.at(-1), t('event.announce.you.lost', { round: 1, result: t('event.result.white') }));
  hearEvent(conn, eventMsg({ version: 6, state: 'running', round: 1, players: players('A', 'B'), schedule: sched('draw'),
    you: { role: 'player', entry: 1, game: null } }));
  assert.equal(said.announced.at(-1), t('event.announce.you.draw', { round: 1, result: t('event.result.draw') }), 'a correction said');
  hearEvent(conn, eventMsg({ version: 7, state: 'running', round: 2, players: players('A', 'B', 'C'),
    schedule: [...sched('draw'), { round: 2, boards: [{ board: 1, white: 0, black: 2, result: null, seeds: null, room: 'r8', by: null },
      { board: 2, white: 1, black: null, result: 'bye', seeds: null, room: null, by: null }] }],
    you: { role: 'player', entry: 1, game: null } }));
  assert.equal(said.announced.at(-1), [t('event.announce.joined', { name: 'C' }), t('event.announce.round', { n: 2 }), t('event.you.bye', { round: 2 })].join(' '));
  page.close();
});

test('an action while the socket is down is not sent, and said where it was', () => {
  const { page, conn, st } = watching({ kept: ORG });
  conn.drop();
  const n = conn.sent.length;
  page.start();
  assert.equal(conn.sent.length, n);
  assert.deepEqual(st.error, { at: 'start', code: 'offline' });
  page.close();
});

test('an event that is not there: the page stops, and its token is forgotten', () => {
  const { page, conn, said, st } = watching({ kept: ORG, first: null });
  conn.hear({ type: 'error', code: 'no_event' });
  assert.equal(st.stopped, 'no_event');
  assert.equal(said.stored.has(EVENT_KEY('ev1')), false);
  assert.equal(conn.state, 'stopped');
  page.close();
});

test('the start page\'s form as event_create\'s fields, and each choice refused', () => {
  const raw = { title: '  Thursday club ', kind: 'togyz', format: 'swiss', rounds: '5', clock: '10+5', min: '15', inc: '5', max: '', auto: true };
  assert.deepEqual(eventFields(raw), { fields: { title: 'Thursday club', kind: 'togyz', format: 'swiss', rounds: 5, clock: { initial: 600, increment: 5 }, max_players: null, auto: true, rules: 'fide_2025' } });
  // The older rules, the organiser's choice.
  assert.equal(eventFields({ ...raw, rules2017: true }).fields.rules, 'fide_2017');
  // A round robin has no rounds to say; no clock: real boards; a custom clock; a limit; pairing by hand.
  assert.deepEqual(eventFields({ ...raw, format: 'double_round_robin', rounds: 'x', clock: 'none', max: '12', auto: false }).fields,
    { title: 'Thursday club', kind: 'togyz', format: 'double_round_robin', rounds: null, clock: null, max_players: 12, auto: false, rules: 'fide_2025' });
  assert.deepEqual(eventFields({ ...raw, clock: 'custom' }).fields.clock, { initial: 900, increment: 5 });
  assert.deepEqual(eventFields({ ...raw, clock: 'days:3' }).fields.clock, { days: 3 });
  assert.deepEqual(eventFields({ ...raw, title: '   ' }), { error: 'event.form.error.name', field: 'title' });
  assert.deepEqual(eventFields({ ...raw, title: 'x'.repeat(61) }), { error: 'event.form.error.name', field: 'title' });
  assert.deepEqual(eventFields({ ...raw, rounds: '33' }), { error: 'event.form.error.rounds', field: 'rounds' });
  assert.deepEqual(eventFields({ ...raw, rounds: '' }), { error: 'event.form.error.rounds', field: 'rounds' });
  assert.deepEqual(eventFields({ ...raw, clock: 'custom', min: '0' }), { error: 'clock.error.initial', field: 'min' });
  assert.deepEqual(eventFields({ ...raw, clock: 'custom', inc: '181' }), { error: 'clock.error.increment', field: 'inc' });
  assert.deepEqual(eventFields({ ...raw, max: '1' }), { error: 'event.form.error.max', field: 'max' });
  assert.deepEqual(eventFields({ ...raw, max: '2.5' }), { error: 'event.form.error.max', field: 'max' });
});

test('the socket names the event, for a cluster\'s routing; a page creating one names none yet', () => {
  assert.equal(eventSocketUrl('wss://club.example/oware/ws', 'ev 1'), 'wss://club.example/oware/ws?event=ev+1');
  assert.equal(eventSocketUrl('ws://127.0.0.1:8080/ws', null), 'ws://127.0.0.1:8080/ws');
});

test('a board\'s room finds its event\'s name, round and board (event-room.js)', () => {
  const ev = eventMsg({
    round: 2, state: 'running', schedule: [
      { round: 1, boards: [{ board: 1, white: 0, black: 1, room: 'r1' }, { board: 2, white: 2, black: null, room: null }] },
      { round: 2, boards: [{ board: 1, white: 1, black: 2, room: 'r3' }, { board: 2, white: 0, black: 3, room: 'r4' }] },
    ],
  });
  assert.deepEqual(boardOf(ev, 'r4'), { title: 'Thursday club', round: 2, board: 2 });
  assert.deepEqual(boardOf(ev, 'r1'), { title: 'Thursday club', round: 1, board: 1 });
  assert.equal(boardOf(ev, 'r9'), null);
  assert.equal(boardOf(null, 'r1'), null);
  assert.equal(t('event.room.line', boardOf(ev, 'r4')), 'Thursday club · round 2, board 2');
});

test('every tie-break the server names (server/rules/event.c\'s ev_tb_name) is named on the page, in every language', () => {
  const src = fs.readFileSync(new URL('../../server/rules/event.c', import.meta.url), 'utf8');
  const body = src.slice(src.indexOf('const char *ev_tb_name(int tb)'));
  const names = [...body.slice(0, body.indexOf('\n}\n')).matchAll(/case EV_TB_\w+: return "(\w+)";/g)].map((m) => m[1]);
  assert.ok(names.includes('koya') && names.includes('number_of_wins') && names.length >= 7, names.join());
  const view = fs.readFileSync(new URL('../../web/event-view.js', import.meta.url), 'utf8');
  const known = JSON.parse(view.match(/const TB_KNOWN = (\[[^\]]*\]);/)[1].replace(/'/g, '"'));
  for (const lang of ['en', 'es', 'fr', 'kk', 'ru']) {
    const words = JSON.parse(fs.readFileSync(new URL(`../../web/i18n/event/${lang}.json`, import.meta.url), 'utf8'));
    for (const k of names) {
      assert.ok(known.includes(k), `${k} in TB_KNOWN`);
      assert.ok(words[`event.tb.${k}`] && words[`event.tb.${k}.short`], `${lang}: event.tb.${k}`);
    }
  }
});

// Issue 49, item 17: a player carries his entry to another device by his
// own link (?event=<id>#player=<token>), as the organiser does by his.
test('the player link\'s fragment is kept as the player\'s token and leaves the address', () => {
  const a = watching({ player: 'p-tok', first: null });
  assert.deepEqual(a.conn.sent[0], { type: 'event_watch', event: 'ev1', token: 'p-tok' });
  assert.equal(a.st.role, 'player');
  assert.deepEqual(a.said.urls, ['ev1'], 'the address loses the fragment');
  assert.deepEqual(JSON.parse(a.said.stored.get(EVENT_KEY('ev1'))), { token: 'p-tok', role: 'player', title: '' });
  a.page.close();
  // On the organiser's device it is kept beside the organiser's token, and followed on its own socket.
  const b = watching({ kept: ORG, player: 'p-tok', first: null });
  assert.deepEqual(JSON.parse(b.said.stored.get(EVENT_KEY('ev1'))), { ...ORG, player: 'p-tok' });
  assert.equal(b.st.role, 'organiser');
  assert.equal(b.st.player, 'p-tok');
  assert.deepEqual(FakeConn.last.h.hello(), { type: 'event_watch', event: 'ev1', token: 'p-tok' });
  b.page.close();
});

// Issue 49, item 17: offline the page shows the event as this device last
// saw it (kept), and says nothing of what changed since when it is back.
test('the event last seen is kept, shown at once, and replaced by the server\'s without announcements', () => {
  const ev = eventMsg({ version: 4, players: players('Ama', 'Kofi') });
  const you = { role: 'player', entry: 0, game: null };
  const a = watching({ kept: { token: 'p-tok', role: 'player', title: 'Thursday club' }, first: { ...ev, you } });
  assert.deepEqual(JSON.parse(a.said.stored.get(SEEN_KEY)), { id: 'ev1', event: ev, mine: you });
  a.page.close();
  const b = watching({ kept: { token: 'p-tok', role: 'player', title: 'Thursday club' }, seen: { id: 'ev1', event: ev, mine: you }, first: null });
  assert.deepEqual(b.st.event, ev, 'shown before the server is heard');
  assert.deepEqual(b.st.mine, you, 'the player\'s own part too');
  assert.equal(b.st.seen, true);
  hearEvent(b.conn, eventMsg({ version: 6, players: players('Ama', 'Kofi', 'Esi') }));
  assert.equal(b.st.seen, false);
  assert.equal(b.st.event.version, 6);
  assert.deepEqual(b.said.announced, [], 'what changed since is not announced as news');
  b.page.close();
  // Another event's view is not shown; an event gone takes its view with it.
  const c = watching({ seen: { id: 'ev2', event: { ...ev, event: 'ev2' } }, first: null });
  assert.equal(c.st.event, null);
  c.page.close();
  const d = watching({ seen: { id: 'ev1', event: ev }, first: null });
  d.conn.hear({ type: 'error', code: 'no_event' });
  assert.equal(d.st.event, null);
  assert.equal(d.said.stored.has(SEEN_KEY), false);
  d.page.close();
});

// Issue 49, item 17: an entry withdrawn before the start is gone; the
// organiser who played may enter again: a new player's socket, the old
// one stopped.
test('the organiser whose entry was withdrawn before the start enters again on a new player socket', () => {
  const gone = [{ entry: 0, name: 'Olu', number: null, late: 0, withdrawn: true }];
  const { page, conn, said, st } = watching({ kept: { ...ORG, player: 'p-old' }, first: eventMsg({ players: gone, you: { role: 'organiser' } }) });
  const old = FakeConn.last;
  old.up();
  page.join('Olu');
  assert.deepEqual(conn.sent.at(-1), { type: 'event_join', event: 'ev1', name: 'Olu' });
  conn.hear({ type: 'event_welcome', event: 'ev1', role: 'player', entry: 1, token: 'p-new' });
  assert.equal(old.state, 'stopped', 'the old entry\'s socket stops');
  assert.notEqual(FakeConn.last, old);
  assert.deepEqual(FakeConn.last.h.hello(), { type: 'event_watch', event: 'ev1', token: 'p-new' });
  assert.equal(st.player, 'p-new');
  assert.deepEqual(JSON.parse(said.stored.get(EVENT_KEY('ev1'))), { ...ORG, player: 'p-new' });
  page.close();
});
