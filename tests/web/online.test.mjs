// online.test.mjs: the room's controller (web/online.js's onlineGame) in
// node, against a fake Connection (fakes.mjs): a move sent, lost with the
// socket and sent again after the reconnection; a draw offer declined; a
// rematch; a claim; an action while the socket is down; the chat; a
// Togyz room's wire form. No browser: the controller touches no page at construction.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeConn, fakeEffects, loadEngines, roomState } from './fakes.mjs';
import { onlineGame } from '../../web/online.js';
import { setModel } from '../../web/model.js';
import { t } from '../../web/i18n.js';
import { clockNow } from '../../web/clock.js';

await loadEngines();

// A room joined on seat, its first state heard.
function joined(seat = 'south', first = roomState()) {
  const { fx, said } = fakeEffects();
  let draws = 0;
  const room = onlineGame({ room: 'r1', Conn: FakeConn, effects: fx }, () => { draws++; });
  setModel(room.state);
  room.open();
  const conn = FakeConn.last;
  conn.up();
  conn.hear({ type: 'welcome', room: 'r1', seat, token: 'tok-1' });
  conn.hear(first);
  return { room, conn, said, st: room.state, draws: () => draws };
}

test('nothing is opened at construction; open() joins with the name and no token first', () => {
  const { fx } = fakeEffects();
  const before = FakeConn.made.length;
  const room = onlineGame({ room: 'r1', Conn: FakeConn, effects: fx }, () => {});
  assert.equal(FakeConn.made.length, before);
  assert.equal(room.state.online.conn, 'idle');
  room.open();
  FakeConn.last.up();
  assert.deepEqual(FakeConn.last.sent, [{ type: 'join', room: 'r1' }]);
  assert.equal(room.state.online.conn, 'joining');
  room.close();
});

test('a move sent, lost with the socket, sent again once the room is joined again, then confirmed', () => {
  const { room, conn, said, st } = joined();
  assert.equal(st.online.conn, 'open');
  assert.equal(said.stored.get('oware.token.r1'), 'tok-1');
  room.play('c');
  assert.deepEqual(conn.sent.at(-1), { type: 'move', pit: 'c', ply: 0 });
  assert.deepEqual(st.online.pending, { pit: 'c', ply: 0 });
  // The socket drops before the server's state: the move is pending still.
  conn.drop();
  assert.equal(st.online.conn, 'retry');
  assert.equal(st.online.pendingAck, true);
  conn.up();
  assert.deepEqual(conn.sent.at(-1), { type: 'join', room: 'r1', token: 'tok-1' });
  conn.hear({ type: 'welcome', room: 'r1', seat: 'south' });
  const sent = conn.sent.length;
  conn.hear(roomState([], { version: 1 }));
  assert.deepEqual(conn.sent.slice(sent), [{ type: 'move', pit: 'c', ply: 0 }], 'the move sent again, once');
  assert.equal(st.online.pendingAck, false);
  // A later state without it does not send it a third time.
  conn.hear(roomState([], { version: 1 }));
  assert.equal(conn.sent.length, sent + 1);
  conn.hear(roomState(['c'], { version: 2 }));
  assert.equal(st.online.pending, null);
  assert.deepEqual(st.timeline.moves, ['c']);
  assert.equal(said.animated, 1, 'its sowing shown once the server has it');
  room.close();
});

test('a move refused by the engine is not sent; an old state after a newer one is dropped', () => {
  const { room, conn, said, st } = joined();
  const sent = conn.sent.length;
  room.play('A');  // North's pit, South to move
  assert.equal(conn.sent.length, sent);
  assert.equal(said.toasts.length, 1);
  assert.equal(st.online.pending, null);
  conn.hear(roomState(['c'], { version: 3 }));
  conn.hear(roomState([], { version: 2 }));
  assert.deepEqual(st.state.moves, ['c']);
  room.close();
});

test('an action while the socket is down is not sent, and the page says why', () => {
  const { room, conn, said } = joined();
  conn.drop();
  const sent = conn.sent.length;
  room.offerDraw();
  assert.equal(conn.sent.length, sent);
  assert.deepEqual(said.toasts, [t('conn.reconnecting.now')]);
  room.close();
});

test('a draw offer declined: noticed, said, and kept for the card', () => {
  const { room, conn, said, st } = joined('south', roomState(['c', 'A'], { version: 3 }));
  room.offerDraw();
  assert.deepEqual(conn.sent.at(-1), { type: 'draw', action: 'offer' });
  conn.hear(roomState(['c', 'A'], { version: 4, draw_offer: 'south' }));
  assert.equal(st.online.declined, null);
  conn.hear(roomState(['c', 'A'], { version: 5, draw_offer: null }));
  assert.deepEqual(st.online.declined, { kind: 'draw', by: 'north', moved: false, game: 1, ply: 2, version: 5 });
  assert.ok(said.announced.length > 0);
  room.close();
});

test("the opponent's draw offer answered: accepted or declined", () => {
  const { room, conn } = joined('north', roomState(['c'], { draw_offer: 'south' }));
  room.answerOffer('draw', false);
  assert.deepEqual(conn.sent.at(-1), { type: 'draw', action: 'decline' });
  room.answerOffer('draw', true);
  assert.deepEqual(conn.sent.at(-1), { type: 'draw', action: 'accept' });
  const n = conn.sent.length;
  room.answerOffer('takeback', true);
  assert.equal(conn.sent.length, n, 'no such offer');
  room.close();
});

test('a rematch: offered, accepted, and the new game starts afresh', () => {
  const over = (f) => roomState(['c', 'A'], { game: { ...roomState(['c', 'A']).game, over: true, winner: 'south', reason: 'score' }, ...f });
  const { room, conn, said, st } = joined('south', over({ version: 5 }));
  room.offerRematch();
  assert.deepEqual(conn.sent.at(-1), { type: 'rematch', action: 'offer' });
  conn.hear(over({ version: 6, rematch_offer: 'south' }));
  st.review = 1;  // the player looks back at the old game
  conn.hear(roomState([], { version: 7, game_number: 2 }));
  assert.equal(st.review, null);
  assert.equal(st.online.declined, null, 'accepted, not declined');
  assert.deepEqual(st.timeline.moves, []);
  assert.equal(st.online.timelineGame, 2);
  assert.equal(said.intoView, 1);
  assert.ok(said.announced.includes(t('announce.start')));
  room.close();
});

test('a rematch declined', () => {
  const over = (f) => roomState(['c'], { game: { ...roomState(['c']).game, over: true, winner: 'south', reason: 'resign' }, ...f });
  const { room, conn, st } = joined('south', over({ version: 5, rematch_offer: 'south' }));
  conn.hear(over({ version: 6, rematch_offer: null }));
  assert.deepEqual(st.online.declined, { kind: 'rematch', by: 'north', game: 1, version: 6 });
  room.close();
});

test('a claim: counted down from the state, then sent', () => {
  const { room, conn, st } = joined('south', roomState(['c'], { claim_in: 5 }));
  const left = st.online.claimAt - Date.now();
  assert.ok(left > 4000 && left <= 5000, `claimAt in ${left} ms`);
  room.claim();
  assert.deepEqual(conn.sent.at(-1), { type: 'claim' });
  conn.hear(roomState(['c'], { version: 2, claim_in: null }));
  assert.equal(st.online.claimAt, null);
  room.close();
});

test('the room replaced by another tab stops; taking it back opens again', () => {
  const { room, conn, st } = joined();
  conn.drop(4001);
  assert.equal(st.online.stopped, 'replaced');
  assert.equal(st.online.conn, 'stopped');
  room.connAction('takeback');
  assert.equal(st.online.stopped, null);
  assert.equal(st.online.conn, 'connecting');
  room.close();
});

test('the network gone and back: the socket closed, then opened again', () => {
  const { room, conn, st } = joined();
  room.network(false);
  assert.equal(st.online.netDown, true);
  assert.equal(conn.state, 'stopped');
  room.network(true);
  assert.equal(st.online.netDown, false);
  assert.equal(conn.state, 'connecting');
  room.close();
});

test('a room this page creates: create sent with the kind, the address then names the room', () => {
  const { fx, said } = fakeEffects();
  const room = onlineGame({ room: null, createSide: 'north', createKind: 'togyz', Conn: FakeConn, effects: fx }, () => {});
  setModel(room.state);
  room.open();
  const conn = FakeConn.last;
  conn.up();
  assert.deepEqual(conn.sent[0], { type: 'create', kind: 'togyz', side: 'north', clock: null });
  conn.hear({ type: 'welcome', room: 'new1', seat: 'north', token: 't', kind: 'togyz' });
  assert.equal(said.url, 'new1');
  assert.equal(room.state.kind, 'togyz');
  // Togyz on the wire: moves and legal as hole numbers.
  conn.hear(roomState([], { kind: 'togyz', game: { ...roomState([], {}, 'togyz').game, legal: [1, 2, 3, 4, 5, 6, 7, 8, 9] } }, 'togyz'));
  assert.deepEqual(room.state.state.game.legal, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  conn.hear(roomState([], { version: 2, kind: 'togyz', game: { ...roomState(['c'], {}, 'togyz').game }, moves: [3] }, 'togyz'));
  assert.deepEqual(room.state.state.moves, ['c']);
  room.close();
});

test('a create the server refuses: back to the start page, with why', () => {
  const { fx, said } = fakeEffects();
  const room = onlineGame({ room: null, createSide: 'south', Conn: FakeConn, effects: fx }, () => {});
  setModel(room.state);
  room.open();
  FakeConn.last.up();
  FakeConn.last.hear({ type: 'error', code: 'too_many_rooms' });
  assert.equal(typeof said.home, 'string');
  assert.equal(FakeConn.last.state, 'stopped');
  room.close();
});

test('the chat: lines kept by id, the ones missed while hidden counted, a refused line given back', () => {
  const { room, conn, said, st } = joined('south');
  const chat = st.online.chat;
  conn.hear({ type: 'chat_history', messages: [{ id: 2, from: 'north', text: 'b', at: 2 }, { id: 1, from: 'south', text: 'a', at: 1 }] });
  conn.hear({ type: 'chat', id: 2, from: 'north', text: 'b', at: 2 });
  assert.deepEqual(chat.lines.map((l) => l.id), [1, 2]);
  assert.equal(chat.unread, 0);
  room.toggleChat();
  assert.equal(chat.hidden, true);
  assert.equal(said.stored.get('oware.chat.hidden'), '1');
  conn.hear({ type: 'chat', id: 3, from: 'north', text: 'c', at: 3 });
  conn.hear({ type: 'chat', id: 4, from: 'south', text: 'd', at: 4 });
  assert.equal(chat.unread, 1, "this page's own line is not unread");
  room.toggleChat();
  assert.deepEqual([chat.hidden, chat.unread, said.stored.has('oware.chat.hidden')], [false, 0, false]);
  // A line sent and refused goes back into the field.
  assert.equal(room.sendChat('hello'), true);
  assert.deepEqual(conn.sent.at(-1), { type: 'chat', text: 'hello' });
  conn.hear({ type: 'error', code: 'rate_limited' });
  assert.equal(said.restored, 'hello');
  assert.equal(chat.unsent, null);
  // One the server shows is not given back.
  room.sendChat('again');
  conn.hear({ type: 'chat', id: 5, from: 'south', text: 'again', at: 5 });
  assert.equal(chat.unsent, null);
  room.close();
});

test('the name offered to a joiner: given, or not now', () => {
  const { fx, said } = fakeEffects();
  const room = onlineGame({ room: 'r2', Conn: FakeConn, effects: fx }, () => {});
  setModel(room.state);
  room.open();
  const conn = FakeConn.last;
  conn.up();
  conn.hear({ type: 'welcome', room: 'r2', seat: 'north', token: 'tk' });
  assert.equal(room.state.online.askName, true, 'a seat taken by the link');
  room.giveName('Ama');
  assert.deepEqual(conn.sent.at(-1), { type: 'name', name: 'Ama' });
  assert.deepEqual([room.state.online.askName, room.state.online.myName, said.remembered], [false, 'Ama', 'Ama']);
  room.close();
  // "Not now" is kept: the next joiner's page does not offer it again.
  const again = onlineGame({ room: 'r3', Conn: FakeConn, effects: fx }, () => {});
  again.open();
  FakeConn.last.up();
  FakeConn.last.hear({ type: 'welcome', room: 'r3', seat: 'north', token: 'tk' });
  again.skipName();
  assert.equal(said.stored.get('oware.name.skipped'), '1');
  const third = onlineGame({ room: 'r4', Conn: FakeConn, effects: fx }, () => {});
  third.open();
  FakeConn.last.up();
  FakeConn.last.hear({ type: 'welcome', room: 'r4', seat: 'north', token: 'tk' });
  assert.equal(third.state.online.askName, false);
  again.close();
  third.close();
});

test('a room cannot be created without the network: back to the start page at once, nothing sent later', () => {
  const { fx, said } = fakeEffects();
  const made = FakeConn.made.length;
  const room = onlineGame({ room: null, createSide: 'south', netDown: true, Conn: FakeConn, effects: fx }, () => {});
  setModel(room.state);
  room.open();
  assert.equal(said.home, t('create.offline'));
  assert.equal(FakeConn.made.length, made, 'no socket: the room is not created when the network comes back');
  room.network(true);
  assert.equal(FakeConn.made.length, made);
  room.close();
});

test('the network lost while a room is being created: back to the start page, the create given up', () => {
  const { fx, said } = fakeEffects();
  const room = onlineGame({ room: null, createSide: 'south', Conn: FakeConn, effects: fx }, () => {});
  setModel(room.state);
  room.open();
  const conn = FakeConn.last;
  room.network(false);
  assert.equal(said.home, t('create.offline'));
  assert.equal(conn.state, 'stopped');
  room.close();
});

test('a room opened without the network shows its last state read only; the server\'s next one replaces it quietly', () => {
  const { room: first, said, conn } = joined('north', roomState(['c', 'F'], { clock: null }));
  first.close();
  conn.drop();
  const kept = JSON.parse(said.stored.get('oware.rooms.last'));
  assert.deepEqual(Object.keys(kept), ['r1']);
  assert.deepEqual(kept.r1.st.moves, ['c', 'F']);
  // Reloaded offline: no socket answers, the kept state is shown.
  const { fx } = fakeEffects();
  const fx2 = { ...fx, load: (k) => (said.stored.has(k) ? said.stored.get(k) : null), animate: () => { said.animated++; } };
  const room = onlineGame({ room: 'r1', netDown: true, Conn: FakeConn, effects: fx2 }, () => {});
  setModel(room.state);
  room.open();
  const st = room.state;
  assert.equal(st.online.saved, true);
  assert.deepEqual(st.state.moves, ['c', 'F']);
  assert.equal(st.online.seat, 'north');
  assert.deepEqual(st.timeline.moves, ['c', 'F']);
  const animated = said.animated;
  // The network back: the server's state (one move on) is the first, not a move seen.
  room.network(true);
  const c2 = FakeConn.last;
  c2.up();
  c2.hear({ type: 'welcome', room: 'r1', seat: 'north' });
  c2.hear(roomState(['c', 'F', 'b'], { version: 5 }));
  assert.equal(st.online.saved, false);
  assert.deepEqual(st.state.moves, ['c', 'F', 'b']);
  assert.equal(said.animated, animated, 'no sowing from the kept copy');
  room.close();
});

test('the last states kept are the newest few rooms, and a room gone is forgotten', () => {
  const { fx, said } = fakeEffects();
  for (let i = 0; i < 10; i++) {
    const room = onlineGame({ room: `r${i}`, Conn: FakeConn, effects: fx }, () => {});
    room.open();
    FakeConn.last.up();
    FakeConn.last.hear({ type: 'welcome', room: `r${i}`, seat: 'south', token: 't' });
    FakeConn.last.hear(roomState());
    room.close();
  }
  assert.deepEqual(Object.keys(JSON.parse(said.stored.get('oware.rooms.last'))), ['r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9']);
  const room = onlineGame({ room: 'r9', Conn: FakeConn, effects: fx }, () => {});
  room.open();
  FakeConn.last.up();
  FakeConn.last.hear({ type: 'error', code: 'no_room' });
  assert.equal(Object.keys(JSON.parse(said.stored.get('oware.rooms.last'))).includes('r9'), false);
  room.close();
});

test('while the connection is lost the clocks stand where the room was last heard, marked frozen', async () => {
  const clock = { kind: 'realtime', south: 60000, north: 60000, running: 'south', increment: 0, initial: { south: 60000, north: 60000 } };
  const { room, conn, st } = joined('south', roomState([], { clock }));
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  await wait(60);
  const ticking = clockNow(st);
  assert.equal(ticking.frozen, false);
  assert.ok(ticking.left.south < 60000 - 50, `counts down while joined: ${ticking.left.south}`);
  conn.drop();
  const lost = clockNow(st);
  assert.equal(lost.frozen, true);
  await wait(120);
  assert.equal(clockNow(st).left.south, lost.left.south, 'stands while the connection is lost');
  conn.up();
  conn.hear({ type: 'welcome', room: 'r1', seat: 'south' });
  conn.hear(roomState([], { version: 2, clock: { ...clock, south: 50000 } }));
  assert.equal(clockNow(st).frozen, false);
  assert.ok(clockNow(st).left.south <= 50000);
  room.close();
});
