// online.js: the online room: onlineGame(opts, redraw), the controller
// that owns a room's state (model.js's, mode 'online'), its Connection and
// its timers, with the intents that change it; and the page's binding of
// it (startOnline, the intents actions.js and conn-line.js wire, the
// window's network and focus events). tests/web/online.test.mjs drives the
// controller against a fake Connection, in node.
// @ts-check
import { t, tIn, applyStatic } from './i18n.js';
import { kindOf } from './kind.js';
import { kindRec, kindByPits } from './kinds.js';
import { Connection, socketUrl, CLOSE_REPLACED } from './net.js';
import { toast, announce, confirmDialog, show, store, load, MUTE_KEY } from './ui.js';
import { model as shown, setModel, newModel, mySide, other, moverOf, dropIdlePreview } from './model.js';
import { Timeline } from './timeline.js';
import { moveSaid, resultSentence, engineText, errorText, declinedText } from './texts.js';
import { requestRedraw } from './redraw.js';
import { scheduleClock } from './clock.js';
import { drawClocks, animateMove, boardIntoView } from './table.js';
import { stopStale } from './analysis.js';
import { myName, rememberName } from './names.js';
import { hooks } from './hooks.js';
import { restoreChatLine, wireChat } from './chat.js';
import { stateEvents, chatEvent, wireAlerts, NOTIFY_KEY } from './alerts.js';

const TOKEN_KEY = (room) => `oware.token.${room}`;
// '1': this seat asked for Web Push in this room (PROTOCOL.md "Push").
const PUSH_KEY = (room) => `oware.push.${room}`;
const CHAT_HIDDEN_KEY = 'oware.chat.hidden';  // the chat's panel hidden (this browser's choice)
const ASKED_KEY = 'oware.name.skipped';  // "Not now" pressed once: the name is not offered again
// The last state of the rooms seen last ({room: {seat, st}}), shown read
// only when a room is opened without the network; the newest LAST_KEEP.
const LAST_KEY = 'oware.rooms.last';
const LAST_KEEP = 8;
const CHAT_KEEP = 200;  // chat lines kept

/**
 * What a room does to the page besides its state: the page's own
 * (pageEffects) in the browser; the node tests hand fakes.
 * @typedef {object} OnlineEffects
 * @property {(text: string) => void} toast
 * @property {(text: string) => void} announce
 * @property {(text: string, ok: string) => Promise<boolean>} confirm
 * @property {(key: string, value: string | null) => void} store
 * @property {(key: string) => string | null} load
 * @property {() => void} show          the game screen shown
 * @property {(kind: string) => void} words  the page's static words follow the game (i18n.js)
 * @property {(state: import('./model.js').GameState | null) => void} clock  the clocks tick from the state's (null: they stop)
 * @property {(before: any, last: any, after: any) => void} animate  a move's sowing
 * @property {() => void} boardIntoView
 * @property {(state: import('./model.js').GameState) => void} stopStale  an analysis of an old game stops
 * @property {(text: string) => void} chatRestore  a chat line refused goes back into the field
 * @property {(name: string | null) => void} remember  the name this browser remembers
 * @property {(state: import('./model.js').GameState, msg: any) => void} chatEvent  a chat line's sound and alert
 * @property {(state: import('./model.js').GameState, prev: any, st: any) => void} stateEvents  a state's sounds and alerts
 * @property {(room: string) => void} roomUrl    the address bar names the room created
 * @property {() => void} leave         to the start page (the connection line's Home)
 * @property {(why: string, refusedName?: string) => void} home  back to the start page, why said under the create form (or, with the name the server refused, under the name field)
 * @property {() => string | null} myName  the name this browser remembers
 */

/**
 * @typedef {object} OnlineOptions
 * @property {string | null} room       the room to join (null: create one)
 * @property {'south' | 'north' | null} [createSide]
 * @property {any} [createClock]
 * @property {any} [createPosition]
 * @property {string} [createKind]      the game of a room this page creates
 * @property {typeof Connection} [Conn] the socket (net.js's; a fake in the tests)
 * @property {() => string} [url]       the socket's URL
 * @property {number | null} [stallMs]
 * @property {boolean} [netDown]        the device has no network now
 * @property {OnlineEffects} [effects]
 */

/**
 * A room's controller: made once per room screen; open() starts its
 * connection (nothing at construction touches the page or the network).
 * @param {OnlineOptions} opts
 * @param {() => void} redraw
 */
export function onlineGame(opts, redraw) {
  const fx = opts.effects || pageEffects;
  const model = newModel('online');
  // The game this page creates; joining, the page's (startOnline's
  // default) until the room says its own.
  model.kind = kindOf(opts.createKind);
  model.online.createKind = kindOf(opts.createKind);
  model.online.room = opts.room;
  model.online.createSide = opts.createSide || null;
  model.online.createClock = opts.createClock || null;
  model.online.createPosition = opts.createPosition || null;
  model.online.netDown = !!opts.netDown;
  // What this browser keeps that the room's draw shows, read once here and
  // kept in step by the intents that change it (a draw reads no storage).
  model.online.chat.hidden = fx.load(CHAT_HIDDEN_KEY) === '1';
  model.online.savedName = fx.myName();
  model.online.muted = fx.load(MUTE_KEY) === '1';
  model.online.notify = fx.load(NOTIFY_KEY) === '1';
  // The socket and the timers live here, not in the model.
  /** @type {any} */
  let conn = null;
  let tickTimer = null;    // redraws while a claim counts down
  let retryTimer = null;   // counts the wait before a reconnection down on screen
  let rejoinTimer = null;  // a join answered `internal` is sent again

  const Conn = opts.Conn || Connection;
  function open() {
    // A room cannot be created without the network: back to the start
    // page, which says so; nothing is created later unless asked again.
    if (!model.online.room && model.online.netDown) { fx.home(t('create.offline')); return; }
    if (model.online.netDown) showSaved();
    conn = new Conn({
      url: opts.url || (() => socketUrl(model.online.room)),
      stallMs: opts.stallMs === undefined ? null : opts.stallMs,
      hello,
      message: onMessage,
      status: ({ state: s, retryIn }) => {
        // The clocks stand where the room was last heard (clock.js).
        if (model.online.conn === 'open' && s !== 'open') model.online.lostAt = performance.now();
        // The server cannot be reached: the room as this browser last saw it.
        if (s === 'retry' && !model.state) showSaved();
        // An open socket is not yet the room: until its welcome (a join may
        // wait a few seconds while another server's room is taken over) the
        // page stays "reconnecting", its pits and presence unknown.
        model.online.conn = s === 'open' ? 'joining' : s;
        clearTimeout(rejoinTimer);
        model.online.retryIn = retryIn;
        model.online.retryAt = Date.now() + retryIn;
        // Count the wait down on screen.
        clearInterval(retryTimer);
        if (s === 'retry' && retryIn >= 1500) {
          retryTimer = setInterval(() => { if (model.online.conn === 'retry') redraw(); }, 1000);
        }
        if (s === 'retry' || s === 'connecting') model.online.pendingAck = true;
        dropIdlePreview(model);
        redraw();
      },
      closed: (code) => {
        if (code === CLOSE_REPLACED) { model.online.stopped = 'replaced'; return false; }
        if (model.online.stopped) return false;
        return true;
      },
    });
    conn.open();
    redraw();
  }

  // The first message of each socket: join the room (with this browser's
  // seat token), or create it.
  function hello() {
    // The name this browser remembers goes with every create and join.
    const name = model.online.myName || fx.myName();
    const named = name ? { name } : {};
    if (!model.online.room) {
      const from = model.online.createPosition ? { position: model.online.createPosition } : {};
      // kind is sent for Togyz Kumalak only (a room is Oware without it).
      const kind = kindRec(model.online.createKind).createFields;
      return { type: 'create', ...kind, side: model.online.createSide, clock: model.online.createClock, ...from, ...named };
    }
    const token = fx.load(TOKEN_KEY(model.online.room));
    return token ? { type: 'join', room: model.online.room, token, ...named } : { type: 'join', room: model.online.room, ...named };
  }

  function onMessage(msg) {
    switch (msg.type) {
    case 'welcome': {
      const first = !model.online.room;
      model.online.room = msg.room;
      model.online.seat = msg.seat;
      model.online.everJoined = true;
      model.online.conn = 'open';
      useKind(msg.kind);
      // The first state on a new connection is the truth, whatever its
      // version (a server restored from its store may count from lower).
      model.online.freshJoin = true;
      if (msg.token) fx.store(TOKEN_KEY(msg.room), msg.token);
      model.online.pushKey = typeof msg.push_key === 'string' ? msg.push_key : null;
      model.online.push = fx.load(PUSH_KEY(msg.room)) === '1';
      // A seat first taken by the room's link: the joiner is offered a name
      // (unless a joiner said "Not now" before).
      if (msg.token && !first && fx.load(ASKED_KEY) !== '1') model.online.askName = true;
      if (first) fx.roomUrl(msg.room);
      conn.joined();
      break;
    }
    case 'state': onState(msg); break;
    case 'error': onError(msg); break;
    case 'push': {  // the server kept (or dropped) this seat's subscription
      const on = msg.action === 'subscribe';
      model.online.push = on;
      fx.store(PUSH_KEY(model.online.room), on ? '1' : null);
      fx.toast(t(on ? 'push.enabled' : 'push.cancelled'));
      redraw();
      break;
    }
    case 'chat':
    case 'chat_history':
      chatHeard(msg);
      if (msg.type === 'chat') fx.chatEvent(model, msg);
      if (msg.type === 'chat' && msg.from !== mySide(model) && typeof msg.text === 'string') {
        fx.announce(t('chat.said', { name: msg.name || tIn(model.kind, `side.${msg.from === 'north' ? 'north' : 'south'}`), text: msg.text }));
      }
      break;
    default: break;
    }
  }

  // The room's game: the page's words and board follow it.
  function useKind(kind) {
    const k = kindOf(kind);
    if (k === model.kind) return;
    model.kind = k;
    // The page's static words (the draw pass marks the body).
    fx.words(k);
  }

  // A move as the wire carries it: Oware its letter; Togyz the hole number
  // "1".."9" of the side to move (protocol/PROTOCOL.md).
  const wirePit = (letter) => kindRec(model.kind).wirePit(letter);

  function onState(st) {
    useKind(st.kind || kindByPits(st.game && Array.isArray(st.game.pits) ? st.game.pits.length : 0).name);
    const wire = st;
    st = kindRec(model.kind).fromWire(st);
    // This browser's copy shown offline is not a state the server sent:
    // the first real one is taken as the first (no sowing, no sound).
    const prev = model.online.saved ? null : model.state;
    if (model.online.saved) { model.online.saved = false; model.timeline = null; }
    if (prev && !model.online.freshJoin && st.version !== undefined && prev.version !== undefined &&
        st.version < prev.version && st.game_number === prev.game_number) return;  // an old state after a newer one
    model.online.freshJoin = false;
    const firstState = !prev;
    model.state = st;
    keepLast(wire);
    // The clocks count down from the moment this state arrived.
    model.online.clockAt = performance.now();
    fx.clock(model);
    if (prev && prev.game_number !== st.game_number) {
      model.review = null;
      fx.announce(t('announce.start'));
      // A rematch: the new game starts with the board in view (the page was
      // scrolled down to the result or the moves).
      fx.boardIntoView();
    }
    if (model.online.pending) {
      const p = model.online.pending;
      if (st.moves.length > p.ply || st.game.over) model.online.pending = null;
      else if (st.moves.length === p.ply && conn.connected && model.online.pendingAck) {
        // Reconnected with a move unconfirmed: send it again (the server
        // treats a repeat of a recorded move as a resend).
        model.online.pendingAck = false;
        conn.send({ type: 'move', pit: wirePit(p.pit), ply: p.ply });
      }
    }
    model.online.pendingAck = false;
    noticeDecline(prev, st);
    syncTimeline();
    fx.stopStale(model);
    dropIdlePreview(model);
    // A move from the position shown (this page's too, once the server has
    // it): its sowing.
    if (prev && prev.game_number === st.game_number && st.moves.length === prev.moves.length + 1 && st.last) {
      // (Not while the player looks back at an earlier position: the board
      // stays there; the move is in the list and the live position.)
      if (model.review === null) fx.animate(prev.game, st.last, st.game);
    }
    // claim_in counts down from now.
    model.online.claimAt = st.claim_in !== null && st.claim_in !== undefined ? Date.now() + st.claim_in * 1000 : null;
    scheduleTick();
    redraw();
    if (!firstState) announceChange(prev, st);
    if (!firstState) fx.stateEvents(model, prev, st);
  }

  // The saved rooms, newest last (a broken or missing entry: none).
  function savedRooms() {
    try {
      const all = JSON.parse(fx.load(LAST_KEY) || '{}');
      return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
    } catch { return {}; }
  }

  // Keeps the room's state as the server sent it, for showSaved.
  function keepLast(wire) {
    const room = model.online.room;
    if (!room) return;
    const all = savedRooms();
    delete all[room];
    all[room] = { seat: model.online.seat, st: wire };
    const names = Object.keys(all);
    for (const n of names.slice(0, Math.max(0, names.length - LAST_KEEP))) delete all[n];
    fx.store(LAST_KEY, JSON.stringify(all));
  }

  // The room as this browser last saw it, while the server cannot be
  // reached: read only (the pits respond and the buttons work only on an
  // open connection), its clocks standing, until the server's state.
  function showSaved() {
    if (model.state || !model.online.room) return;
    const kept = savedRooms()[model.online.room];
    if (!kept || !kept.st || !kept.st.game) return;
    try {
      useKind(kept.st.kind || kindByPits(Array.isArray(kept.st.game.pits) ? kept.st.game.pits.length : 0).name);
      model.state = kindRec(model.kind).fromWire(kept.st);
    } catch { model.state = null; return; }
    model.online.seat = model.online.seat || kept.seat || null;
    model.online.saved = true;
    model.online.clockAt = model.online.lostAt = performance.now();
    syncTimeline();
    redraw();
  }

  // Keeps model.timeline in step with model.moves: the moves it lacks are
  // played on it, so each position after a ply is computed once; a new game
  // or a record that differs starts it again.
  function syncTimeline() {
    const st = model.state;
    let line = model.timeline;
    const same = line && model.online.timelineGame === st.game_number && line.moves.length <= st.moves.length &&
      line.moves.every((m, i) => m === st.moves[i]);
    try {
      if (!same) { line = new Timeline(model.kind, [], st.start || null); model.online.timelineGame = st.game_number; }
      for (let i = line.moves.length; i < st.moves.length; i++) line.play(st.moves[i]);
      model.timeline = line;
      // Togyz: the page's replay says what the last move did in its terms.
      if (kindRec(line.kind).lastFromReplay && st.moves.length) st.last = line.history[st.moves.length - 1];
    } catch (e) {
      model.timeline = null;  // a record the engine refuses: show the server's view only
      console.warn('replay failed', e);
    }
  }

  // What changed, for screen readers.
  function announceChange(prev, st) {
    const me = mySide(model);
    const parts = [];
    if (prev.game_number === st.game_number && st.moves.length === prev.moves.length + 1 && st.last) {
      // Each move once, the player's own too ("You sowed c."): confirmed
      // once the server has it.
      parts.push(moveSaid(st.last, moverOf(st.last.pit), me, { kind: model.kind, names: st.names }));
    }
    if (me && prev.seats && !prev.seats[other(me)].taken && st.seats[other(me)].taken) parts.push(t('announce.opponent_joined'));
    if (!prev.game.over && st.game.over) parts.push(resultSentence(st, me, model.kind));
    else if (me && !st.game.over && st.game.turn === me && (prev.game.turn !== me || prev.game_number !== st.game_number) && st.seats[other(me)].taken) parts.push(t('announce.turn'));
    if (st.draw_offer && st.draw_offer !== prev.draw_offer && st.draw_offer !== me) parts.push(t('action.draw.incoming'));
    if (st.rematch_offer && st.rematch_offer !== prev.rematch_offer && st.rematch_offer !== me) parts.push(t('action.rematch.incoming'));
    if (model.online.declined && model.online.declined.version === st.version) {
      const said = declinedText(st, me, model.online.declined, model.kind);
      if (said) parts.push(said);
    }
    if (parts.length) fx.announce(parts.join(' '));
  }

  // The opponent declined this player's offer: an offer goes away only when
  // declined (a draw offer also when the offered player moves), when the game
  // ends, or when a rematch is accepted (protocol/PROTOCOL.md), so an offer of
  // mine gone in the same game, with the game still on for a draw, was
  // declined. Kept in model.online.declined for actions.js to say.
  function noticeDecline(prev, st) {
    const me = mySide(model);
    if (!me || !prev || prev.game_number !== st.game_number) return;
    const by = other(me);
    if (prev.draw_offer === me && !st.draw_offer && !st.game.over) {
      model.online.declined = { kind: 'draw', by, moved: st.moves.length > prev.moves.length, game: st.game_number, ply: st.moves.length, version: st.version };
    } else if (prev.rematch_offer === me && !st.rematch_offer && st.game.over) {
      model.online.declined = { kind: 'rematch', by, game: st.game_number, version: st.version };
    }
  }

  // Redraws every second while a claim counts down.
  function scheduleTick() {
    clearInterval(tickTimer);
    if (model.online.claimAt) tickTimer = setInterval(() => { if (model.online.claimAt) redraw(); }, 1000);
  }

  function onError(msg) {
    const code = msg.code;
    if (code === 'bad_token' && model.online.room) {
      fx.store(TOKEN_KEY(model.online.room), null);
      fx.toast(t('error.bad_token'));
      conn.send({ type: 'join', room: model.online.room });
      return;
    }
    if (code === 'no_room' || (code === 'too_many_spectators' && !model.state)) {
      model.online.stopped = code;
      if (code === 'no_room') {
        fx.store(TOKEN_KEY(model.online.room), null);
        const all = savedRooms();
        if (all[model.online.room]) { delete all[model.online.room]; fx.store(LAST_KEY, JSON.stringify(all)); }
      }
      conn.stop();
      redraw();
      return;
    }
    if (code === 'replaced') { model.online.stopped = 'replaced'; redraw(); return; }
    if (code === 'internal' && model.online.room && model.online.conn === 'joining') {
      // The join could not be answered (the room is still being taken over
      // from another server, or the database failed): nothing changed, join
      // again in a moment on the same socket.
      clearTimeout(rejoinTimer);
      const again = conn;
      rejoinTimer = setTimeout(() => {
        if (conn === again && model.online.conn === 'joining') again.send(hello());
      }, 1000);
      return;
    }
    // A name the server refused (names.js cannot check all that it
    // checks: look-alikes of a side's name in other scripts) is forgotten:
    // a create goes back to the name field, a join is made again without it.
    const badName = code === 'bad_message' && /^name:/.test(String(msg.message || ''));
    if (!model.online.room && !model.state) {  // create failed: back to the start page
      conn.stop();
      if (badName) {
        const sent = model.online.myName || fx.myName() || '';
        model.online.myName = null;
        remember(null);
        fx.home(t('name.bad'), sent);
        return;
      }
      fx.home(errorText(code));
      return;
    }
    if (badName) {
      model.online.myName = null;
      remember(null);
      fx.toast(t('name.bad'));
      if (model.online.conn === 'joining') conn.send(hello());
      redraw();
      return;
    }
    if (chatRefused(code)) return;
    if (model.online.pending && ['illegal_move', 'not_your_turn', 'stale_ply', 'game_over', 'opponent_missing'].includes(code)) {
      model.online.pending = null;
    }
    fx.toast(errorText(code));
    redraw();
  }

  // `chat` and `chat_history` from the server: the lines kept by id (a
  // line heard again is not added), the ones missed while the panel is
  // hidden counted, and this page's line sent last seen through.
  function chatHeard(msg) {
    const chat = model.online.chat;
    const me = mySide(model);
    const add = msg.type === 'chat_history' ? (Array.isArray(msg.messages) ? msg.messages : []) : [msg];
    let fresh = 0;
    for (const m of add) {
      if (!m || typeof m.id !== 'number' || typeof m.text !== 'string') continue;
      if (chat.lines.some((l) => l.id === m.id)) continue;
      chat.lines.push({ id: m.id, from: m.from, name: typeof m.name === 'string' ? m.name : null, text: m.text, at: m.at });
      if (msg.type === 'chat' && m.from !== me) fresh++;
      if (msg.type === 'chat' && m.from === me && m.text === chat.unsent) chat.unsent = null;
    }
    chat.lines.sort((a, b) => a.id - b.id);
    if (chat.lines.length > CHAT_KEEP) chat.lines = chat.lines.slice(chat.lines.length - CHAT_KEEP);
    if (chat.hidden) chat.unread += fresh;
    redraw();
  }

  // An error the server answered: true when it was about a chat line just
  // sent (the line goes back into the field).
  function chatRefused(code) {
    const chat = model.online.chat;
    if (Date.now() - chat.sentAt > 5000) return false;
    if (code !== 'rate_limited' && code !== 'bad_message') return false;
    fx.toast(t(code === 'rate_limited' ? 'chat.rate_limited' : 'chat.bad'));
    if (chat.unsent !== null) fx.chatRestore(chat.unsent);
    chat.unsent = null;
    return true;
  }

  // The name this browser remembers (null: none), in the state and kept.
  function remember(name) {
    model.online.savedName = name;
    fx.remember(name);
  }

  // The sounds off or on, notifications asked for or not (kept by this browser).
  function setMuted(on) {
    model.online.muted = !!on;
    fx.store(MUTE_KEY, on ? '1' : null);
    redraw();
  }

  function setNotify(on) {
    model.online.notify = !!on;
    fx.store(NOTIFY_KEY, on ? '1' : null);
    redraw();
  }

  // Told of one's move with the page closed, or no longer (Web Push:
  // push.js, loaded only now, asks the browser and subscribes).
  async function setPush(on) {
    try {
      const push = await import('./push.js');
      if (on) {
        const subscription = await push.subscribe(model.online.pushKey, model.kind);
        if (!sendInRoom({ type: 'push', action: 'subscribe', subscription })) fx.toast(t('conn.reconnecting.now'));
      } else {
        const endpoint = await push.endpoint();
        sendAction({ type: 'push', action: 'cancel', ...(endpoint ? { endpoint } : {}) });
      }
    } catch (e) {
      fx.toast(t(e && e.message === 'blocked' ? 'notify.blocked' : 'push.unsupported'));
    }
  }

  // The chat's panel hidden or shown (the choice kept by this browser).
  function toggleChat() {
    const chat = model.online.chat;
    chat.hidden = !chat.hidden;
    fx.store(CHAT_HIDDEN_KEY, chat.hidden ? '1' : null);
    if (!chat.hidden) chat.unread = 0;
    redraw();
  }

  // A chat line sent; false when it could not go (said).
  function sendChat(text) {
    if (!sendInRoom({ type: 'chat', text })) { fx.toast(t('conn.reconnecting.now')); return false; }
    model.online.chat.sentAt = Date.now();
    model.online.chat.unsent = text;
    return true;
  }

  // The room's name for this page: the seat's, or a spectator's own (null:
  // none); false when it could not go.
  function sendName(name) {
    if (!sendInRoom({ type: 'name', name })) { fx.toast(t('conn.reconnecting.now')); return false; }
    model.online.myName = name;
    remember(name);
    fx.toast(t('name.saved'));
    return true;
  }

  // The name offered to a joiner: given, or not now (not offered again).
  function giveName(name) {
    if (!sendName(name)) return;
    model.online.askName = false;
    redraw();
  }

  function skipName() {
    fx.store(ASKED_KEY, '1');
    model.online.askName = false;
    redraw();
  }

  // Sends obj in the room: only once the socket's join is answered (a
  // message before it would get not_joined). False when it could not go.
  function sendInRoom(obj) {
    return !!conn && model.online.conn === 'open' && conn.send(obj);
  }

  function sendAction(obj) {
    if (!sendInRoom(obj)) fx.toast(t('conn.reconnecting.now'));
  }

  function play(letter) {
    const st = model.state;
    const ply = st.moves.length;
    // A record the engine refuses: let the server judge the move.
    if (!model.timeline) { sendAction({ type: 'move', pit: wirePit(letter), ply }); return; }
    // The engine says at once what it thinks of the move; the board sows it
    // when the server's state brings it.
    const p = model.timeline.preview(letter);
    if (p.error) { fx.toast(engineText(p.error, model.kind)); return; }
    model.online.pending = { pit: letter, ply };
    model.preview = null;
    sendAction({ type: 'move', pit: wirePit(letter), ply });
    redraw();
  }

  // kind: 'draw' or 'rematch'; accept: true, or false to decline.
  function answerOffer(kind, accept) {
    if (kind !== 'draw' && kind !== 'rematch') return;
    sendAction({ type: kind, action: accept ? 'accept' : 'decline' });
  }

  // Ends the game before both have moved (asks first).
  async function abort() {
    const st = model.state;
    const alone = st && !(st.seats.south.taken && st.seats.north.taken);
    if (await fx.confirm(t(alone ? 'action.abort.confirm.alone' : 'action.abort.confirm'), t('action.abort.yes'))) sendAction({ type: 'abort' });
  }

  async function resign() {
    if (await fx.confirm(t('action.resign.confirm'), t('action.resign.yes'))) sendAction({ type: 'resign' });
  }

  // The connection line's button: 'home' (the start page), 'retry' (now,
  // not after the wait) or 'takeback' (this seat, from the tab that took it).
  function connAction(action) {
    if (action === 'home') { fx.leave(); return; }
    if (action === 'retry') { conn.nudge(); return; }
    model.online.stopped = null;
    conn.open();
  }

  // The device's network went (up false) or came back: the socket closes
  // (the seat token stays) and opens again with it.
  function network(up) {
    model.online.netDown = !up;
    // A room being created has nothing to keep: the start page says why.
    if (!up && !model.online.room && !model.state) {
      if (conn) conn.stop();
      fx.home(t('create.offline'));
      return;
    }
    if (!up) {
      if (conn && !model.online.stopped) conn.stop();
    } else if (conn && !model.online.stopped && !conn.ws) conn.open();
    else if (conn) conn.nudge();
    redraw();
  }

  // Everything this room runs stops (a new room replaces it).
  function close() {
    if (conn) conn.stop();
    fx.clock(null);
    clearInterval(tickTimer);
    clearInterval(retryTimer);
    clearTimeout(rejoinTimer);
  }

  // Frozen: the intents are these (a misspelled one is a type error too).
  return Object.freeze({
    state: model,
    open,
    close,
    play,
    offerDraw: () => sendAction({ type: 'draw', action: 'offer' }),
    offerRematch: () => sendAction({ type: 'rematch', action: 'offer' }),
    claim: () => sendAction({ type: 'claim' }),
    answerOffer,
    abort,
    resign,
    connAction,
    network,
    toggleChat,
    setMuted,
    setNotify,
    setPush,
    sendChat,
    sendName,
    giveName,
    skipName,
    // The tab is shown again: what happened meanwhile is seen.
    seen: () => { model.online.unseen = 0; },
    nudge: () => conn && conn.nudge(),
  });
}

/** @typedef {ReturnType<typeof onlineGame>} OnlineGame */

// ---- the page's binding: one room at a time ----

/** @type {OnlineGame | null} */
let room = null;
let backToStart = (_why, _refusedName) => {};  // app.js's: the start page, with a sentence under the create form
// The browser says this device has no network (navigator.onLine false, the
// 'offline' event): the room's socket is closed and the page says plainly
// that online rooms need the network; the seat token stays, and the room
// is joined again when the 'online' event comes.
const offlineNow = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** @type {OnlineEffects} */
const pageEffects = {
  toast,
  announce,
  confirm: confirmDialog,
  store,
  load,
  show: () => show('game'),
  words: (kind) => applyStatic(document, kind),
  // (The low time said at set points: ear.js, loaded with a clock.)
  clock: (m) => scheduleClock(m, drawClocks, (r) => import('./ear.js').then((ear) => ear.lowTime(r))),
  animate: animateMove,
  boardIntoView,
  stopStale,
  chatRestore: restoreChatLine,
  remember: rememberName,
  chatEvent,
  stateEvents,
  roomUrl: (name) => {
    const u = new URL(window.location.href);
    u.search = '';
    u.searchParams.set('room', name);
    window.history.replaceState(null, '', u.href);
  },
  leave: () => { window.location.href = './'; },
  home: (why, refusedName) => backToStart(why, refusedName),
  myName,
};

// Opens room (null: creates one, on createSide).
// createKind: the game of a room this page creates ('oware' or 'togyz';
// a room joined says its own).
export function startOnline(name, createSide, createClock = null, createPosition = null, createKind) {
  if (room) room.close();
  room = onlineGame({ room: name, createSide, createClock, createPosition, createKind, stallMs: hooks.stallMs, netDown: offlineNow() }, requestRedraw);
  setModel(room.state);
  pageEffects.show();
  room.open();
}

// Leaves this room (over, or never joined by an opponent) for a new one,
// created as the start page does: on this player's side, south for a
// spectator (the start page's default).
export function newRoom() {
  const side = mySide(shown) || 'south';
  const st = room.state;
  const start = st.state && st.state.start || null;  // the new room starts where this one did
  startOnline(null, side, null, start, st.kind);
}

// ---- the room's intents (actions.js and conn-line.js wire their buttons) ----

export const playOnline = (letter) => room.play(letter);
export const offerDraw = () => room.offerDraw();
export const offerRematch = () => room.offerRematch();
export const claim = () => room.claim();
export const answerOffer = (kind, accept) => room.answerOffer(kind, accept);
export const abort = () => room.abort();
export const resign = () => room.resign();
export const connAction = (action) => room.connAction(action);

// What the room's code needs once: the way back to the start page
// (home(error): error said under the create form), the chat, the alerts,
// and coming back quickly when the tab returns or the network does.
export function wireOnline({ backToStart: home }) {
  backToStart = home;
  wireChat(() => room);
  wireAlerts(() => room);
  const mine = () => !!room && shown === room.state;  // the room is the screen shown
  window.addEventListener('offline', () => { if (mine()) room.network(false); });
  window.addEventListener('online', () => { if (mine()) room.network(true); });
  window.addEventListener('focus', () => room && room.nudge());
  window.addEventListener('pageshow', () => room && room.nudge());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && room) room.nudge();
  });
}
