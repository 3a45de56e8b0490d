// event.js: a club event's page (issue 41; protocol/PROTOCOL.md, "Club
// events"): eventScreen(opts, redraw), the controller that owns the
// event's state (its own, not model.js's: the event page shows no board),
// its Connection and the intents the page's buttons call; and the page's
// binding (startEvent, createEvent). event-view.js draws it. Its words are
// a part of their own (web/i18n/event/<lang>.json, i18n.js's loadPart),
// but for the start page's form, "Your games" and the room's way back.
// tests/web/event.test.mjs drives the controller against a fake
// Connection, in node.
// @ts-check
import { t, loadPart, applyStatic } from './i18n.js';
import { Connection, socketUrl } from './net.js';
import { toast, announce, confirmDialog, show, store, load } from './ui.js';
import { cleanName, cleanText, loadNameWords } from './names.js';
import { eventWord } from './name-check.js';
import { kindOf, chosenKind } from './kind.js';
import { drawEvent, wireEvent, gameText, ownChanges } from './event-view.js';

// What this browser keeps of an event it organises or plays in: JSON
// {token, role, title} ("Your games" lists them, games.js), and player:
// the player's token when the organiser plays in the event too (token is
// then the organiser's).
export const EVENT_KEY = (id) => `oware.event.${id}`;
const SEAT_KEY = (room) => `oware.token.${room}`;  // a room's seat token, as online.js keeps it
// The event this browser last saw (one: JSON {id, event, mine}: the
// player's `you` too), shown at once when its page opens again, and
// offline as it was last seen.
export const SEEN_KEY = 'oware.event.seen';
const SEEN_MAX = 512 * 1024;  // a bigger view (a big event's) is not kept

// The results the organiser may record (PROTOCOL.md, `event_result`).
export const RESULTS = Object.freeze(['white', 'draw', 'black', 'white_forfeit', 'black_forfeit', 'double_forfeit']);

/**
 * What the event page does besides its state: the page's own
 * (pageEffects) in the browser; the node tests hand fakes.
 * @typedef {object} EventEffects
 * @property {(text: string) => void} toast
 * @property {(text: string) => void} announce    said to screen readers (the live region)
 * @property {(text: string, ok: string) => Promise<boolean>} confirm
 * @property {(key: string, value: string | null) => void} store
 * @property {(key: string) => string | null} load
 * @property {() => void} show                     the event screen shown
 * @property {(kind: string) => void} words        the page's static words follow the event's game (i18n.js)
 * @property {(id: string) => void} eventUrl       the address bar says ?event=<id> (no fragment)
 * @property {(url: string) => void} go            to another page of the client (a room)
 * @property {(why: string) => void} home          back to the start page, why said under the event form
 */

/**
 * @typedef {object} EventOptions
 * @property {string | null} id          the event to follow (null: create one)
 * @property {any} [create]              event_create's fields when id is null
 * @property {string | null} [organiser] an organiser token from the link's #organiser= fragment
 * @property {string | null} [player]    a player token from the player's link's #player= fragment
 * @property {string} [kind]             the game before the event is read (the start page's offer)
 * @property {typeof Connection} [Conn]  the socket (net.js's; a fake in the tests)
 * @property {() => string} [url]        the socket's URL
 * @property {EventEffects} [effects]
 */

// The state of the event page, sealed: every field declared here.
export function newEventState() {
  return Object.seal({
    id: /** @type {string | null} */ (null),  // the event (null while this page creates it)
    // the game whose words the page speaks: its event's, else (before the event is read) the one created or offered
    kind: /** @type {'oware' | 'togyz'} */ ('oware'),
    create: null,        // event_create's fields while creating
    conn: 'idle',        // the socket: net.js's states ('idle', 'connecting', 'open', 'retry', 'stopped')
    retryIn: 0,          // ms before the next reconnection attempt
    stopped: /** @type {string | null} */ (null),  // 'no_event': the event is not there (or expired)
    event: null,         // the latest `event` message (PROTOCOL.md), null before the first
    token: /** @type {string | null} */ (null),    // this browser's token for the event
    role: /** @type {'organiser' | 'player' | null} */ (null),  // what the token is
    // The organiser plays too: the player's token (the server gives a
    // socket one role, so a second socket follows the event with it).
    player: /** @type {string | null} */ (null),
    playerConn: 'idle',  // that socket's state (net.js's)
    mine: /** @type {any} */ (null),  // the player's `you` ({role, entry, game}) as the server last said it
    seen: false,         // event is the view this device last saw (SEEN_KEY), not heard from the server yet
    busy: /** @type {string | null} */ (null),     // the action sent and not yet answered: 'join', 'result:2:1', ...
    error: /** @type {{at: string, code: string} | null} */ (null),  // the last refusal, shown where the action was
  });
}

/**
 * An event page's controller: made once per page; open() starts its
 * connection (nothing at construction touches the page or the network).
 * @param {EventOptions} opts
 * @param {() => void} redraw
 */
export function eventScreen(opts, redraw) {
  const fx = opts.effects || pageEffects;
  const state = newEventState();
  state.id = opts.id || null;
  state.create = opts.id ? null : opts.create || null;
  state.kind = kindOf(state.create ? state.create.kind : opts.kind);
  /** @type {any} */
  let conn = null;
  /** @type {any} */
  let playerConn = null;  // the organiser's second socket, as the player

  // The token kept for the event: {token, role, title[, player]} or null.
  function kept(id) {
    try {
      const v = JSON.parse(fx.load(EVENT_KEY(id)) || 'null');
      if (!v || typeof v.token !== 'string' || (v.role !== 'organiser' && v.role !== 'player')) return null;
      if (typeof v.player !== 'string' || v.role !== 'organiser') delete v.player;
      return v;
    } catch { return null; }
  }

  function keep(id, token, role, title, player = null) {
    const v = { token, role, title: title || '' };
    fx.store(EVENT_KEY(id), JSON.stringify(player && role === 'organiser' ? { ...v, player } : v));
  }

  const keepState = (title) => keep(state.id, state.token, state.role, title, state.player);

  // The player's token is no longer good (or the event is gone): its
  // socket stops.
  function forgetPlayer() {
    state.player = null;
    state.mine = null;
    if (playerConn) { playerConn.stop(); playerConn = null; }
    state.playerConn = 'idle';
  }

  function forget() {
    if (state.id) fx.store(EVENT_KEY(state.id), null);
    state.token = null;
    state.role = null;
    state.mine = null;
    forgetPlayer();
  }

  function open() {
    if (state.id) {
      // The organiser's own link (?event=<id>#organiser=<token>) opened on
      // this device: the token is kept, and the address loses it.
      // A player's token kept already stays beside it.
      if (opts.organiser) {
        const had = kept(state.id) || {};
        const player = had.role === 'player' ? had.token : had.player || null;
        keep(state.id, opts.organiser, 'organiser', had.title, player !== opts.organiser ? player : null);
        fx.eventUrl(state.id);
      }
      // The player's own link (?event=<id>#player=<token>): kept as the
      // player's token (beside the organiser's, if this device has it).
      if (opts.player) {
        const had = kept(state.id) || {};
        if (had.role === 'organiser') {
          if (opts.player !== had.token) keep(state.id, had.token, 'organiser', had.title, opts.player);
        } else keep(state.id, opts.player, 'player', had.title);
        fx.eventUrl(state.id);
      }
      const k = kept(state.id);
      if (k) { state.token = k.token; state.role = k.role; state.player = k.player || null; }
      const seen = lastSeen(state.id);
      if (seen) {
        state.event = seen.event;
        if (state.player || state.role === 'player') state.mine = seen.mine || null;
        state.seen = true;
        state.kind = kindOf(seen.event.kind);
        fx.words(state.kind);
      }
    }
    const Conn = opts.Conn || Connection;
    conn = new Conn({
      url: opts.url || (() => eventSocketUrl(socketUrl(null), state.id)),
      hello,
      message: onMessage,
      status: ({ state: s, retryIn }) => {
        state.conn = s;
        state.retryIn = retryIn;
        // An action whose socket dropped gets no answer: its button comes back.
        if (s !== 'open') state.busy = null;
        redraw();
      },
      closed: () => !state.stopped,
    });
    conn.open();
    if (state.player) openPlayer();
    redraw();
  }

  // The organiser's second socket, which follows the event with the
  // player's token: the player's `you` (the game and its seat token) and
  // the way to withdraw.
  function openPlayer() {
    if (playerConn || !state.player) return;
    const Conn = opts.Conn || Connection;
    playerConn = new Conn({
      url: opts.url || (() => eventSocketUrl(socketUrl(null), state.id)),
      hello: () => ({ type: 'event_watch', event: state.id, token: state.player }),
      message: onPlayerMessage,
      status: ({ state: s }) => {
        state.playerConn = s;
        if (s !== 'open' && state.busy === 'withdraw') state.busy = null;
        redraw();
      },
      closed: () => !state.stopped && !!state.player,
    });
    playerConn.open();
  }

  function onPlayerMessage(msg) {
    if (msg.type === 'event') { onEvent(msg); return; }
    if (msg.type === 'event_you') { onYou(msg); return; }
    if (msg.type !== 'error') return;
    const code = refusal(msg);
    if (code === 'bad_token' || code === 'no_event') {
      // The player's entry is not (or no longer) the event's; the
      // organiser's socket says the rest.
      forgetPlayer();
      if (state.id && state.token) keepState((kept(state.id) || {}).title);
      if (code === 'bad_token') fx.toast(t('event.error.bad_token'));
      redraw();
      return;
    }
    state.error = { at: state.busy || 'page', code };
    state.busy = null;
    redraw();
  }

  // The first message of each socket: follow the event (with the token
  // kept), or create it.
  function hello() {
    if (!state.id) return { type: 'event_create', ...state.create };
    return state.token ? { type: 'event_watch', event: state.id, token: state.token } : { type: 'event_watch', event: state.id };
  }

  function onMessage(msg) {
    switch (msg.type) {
    case 'event_welcome': welcome(msg); break;
    case 'event': onEvent(msg); break;
    case 'event_you': onYou(msg); break;
    case 'error': onError(msg); break;
    default: break;
    }
  }

  function welcome(msg) {
    if (typeof msg.event !== 'string' || typeof msg.token !== 'string') return;
    if (msg.role === 'player' && state.role === 'organiser' && state.token && msg.event === state.id) {
      // The organiser joined as a player: both tokens kept. The join made
      // the organiser's socket the player's: it follows as the organiser
      // again, and a socket of its own follows as the player (a new one
      // after an entry withdrawn before the start entered again).
      forgetPlayer();
      state.player = msg.token;
      state.busy = null;
      state.error = null;
      keepState(state.event ? state.event.title : '');
      fx.announce(t('event.joined.you'));
      conn.send(hello());
      openPlayer();
      redraw();
      return;
    }
    const created = !state.id;
    state.id = msg.event;
    state.create = null;
    state.token = msg.token;
    state.role = msg.role === 'organiser' ? 'organiser' : 'player';
    state.busy = null;
    state.error = null;
    const title = state.event ? state.event.title : created && opts.create ? opts.create.title : '';
    keep(state.id, state.token, state.role, title);
    if (created) fx.eventUrl(state.id);
    if (state.role === 'player') fx.announce(t('event.joined.you'));
    if (conn) conn.joined();
    redraw();
  }

  // A socket that presented a token hears its own part of the event in
  // `event_you`, after the `event` every follower gets: the player's view
  // from whichever socket presented the player's token (the organiser's
  // says only its own role). A new game is said with what the event just
  // said (one live region: a second sentence would cut the first).
  let lastSaid = { version: -1, said: [] };
  function onYou(msg) {
    if (!msg || msg.event !== state.id || !msg.you || typeof msg.you !== 'object') return;
    const had = state.mine && state.mine.game;
    takeYou(msg.you);
    if (state.event && !state.seen) keepSeen();
    redraw();
    const game = state.mine && state.mine.game;
    if (game && (!had || had.room !== game.room)) {
      const before = lastSaid.version === msg.version ? lastSaid.said : [];
      fx.announce(before.concat(gameText(state.event, game)).join(' '));
    }
  }

  function takeYou(you) {
    if (you.role === 'player') state.mine = you;
    else if (!state.player) state.mine = null;
    if (state.token && (you.role === 'organiser' || (you.role === 'player' && state.role !== 'organiser'))) {
      state.role = you.role;
    }
  }

  // The view kept of event id (SEEN_KEY: {event, mine}), or null.
  function lastSeen(id) {
    try {
      const v = JSON.parse(fx.load(SEEN_KEY) || 'null');
      return v && v.id === id && v.event && v.event.event === id ? v : null;
    } catch { return null; }
  }

  function keepSeen() {
    const text = JSON.stringify({ id: state.id, event: state.event, mine: state.mine });
    if (text.length <= SEEN_MAX) fx.store(SEEN_KEY, text);
  }

  function onEvent(ev) {
    if (!ev || ev.event !== state.id) return;
    // (The view kept is not what the server said last: nothing is said of
    // what changed since.)
    const prev = state.seen ? null : state.event;
    state.seen = false;
    // (The organiser's two sockets each hear every change.)
    const old = prev && typeof ev.version === 'number' && typeof prev.version === 'number' && ev.version < prev.version;
    if (!old) state.event = ev;
    if (!prev) {
      // The event's game known: the page's words follow it.
      state.kind = kindOf(ev.kind);
      fx.words(state.kind);
    }
    // The list of "Your games" names the event as it is called now.
    if (state.token && !old) {
      const k = kept(state.id);
      if (!k || k.title !== ev.title || k.token !== state.token || (k.player || null) !== state.player) keepState(ev.title);
    }
    if (!old) keepSeen();
    state.busy = null;
    redraw();
    const said = prev && !old ? changes(prev, ev) : [];
    lastSaid = { version: ev.version, said };
    if (said.length) fx.announce(said.join(' '));
  }

  // What changed, for screen readers (and for anyone looking away): the
  // event started or ended, a round paired, results in, a player in.
  // The player's own board first: its result, or a bye; the others'
  // results counted without it.
  function changes(prev, ev) {
    const out = [];
    const players = Array.isArray(ev.players) ? ev.players : [];
    if ((prev.players || []).length < players.length) {
      for (const p of players.slice((prev.players || []).length)) out.push(t('event.announce.joined', { name: p.name }));
    }
    const own = state.mine && Number.isInteger(state.mine.entry) ? ownChanges(prev, ev, state.mine.entry) : { results: [], byes: [] };
    out.push(...own.results);
    if (ev.round > prev.round) out.push(t('event.announce.round', { n: ev.round }), ...own.byes);
    else {
      const others = resultsIn(ev) - resultsIn(prev) - own.results.length;
      if (others > 0) out.push(t('event.announce.results', { n: others }));
    }
    if (ev.state === 'over' && prev.state !== 'over') out.push(t('event.announce.over'));
    return out;
  }

  const resultsIn = (ev) => (Array.isArray(ev.schedule) ? ev.schedule : [])
    .reduce((n, r) => n + (r.boards || []).filter((b) => b.result !== null).length, 0);

  function onError(msg) {
    const code = refusal(msg);
    if (!state.id) {  // the event was not created: back to the start page, said there
      state.stopped = 'create';
      conn.stop();
      fx.home(errorText(code));
      return;
    }
    if (code === 'bad_token' && state.token) {
      // The token kept is not (or no longer) the event's: forgotten, and
      // the event followed without it (or with the player's, if the
      // organiser played too).
      const player = state.player;
      const title = (kept(state.id) || {}).title;
      forget();
      if (player) {
        state.token = player;
        state.role = 'player';
        keepState(title);
      }
      state.busy = null;
      fx.toast(t('event.error.bad_token'));
      conn.send(hello());
      redraw();
      return;
    }
    if (code === 'no_event') {
      state.stopped = 'no_event';
      // (Nor is the view kept of it shown.)
      if (lastSeen(state.id)) fx.store(SEEN_KEY, null);
      state.event = null;
      state.seen = false;
      forget();
      conn.stop();
      redraw();
      return;
    }
    state.error = { at: state.busy || 'page', code };
    state.busy = null;
    redraw();
  }

  // Sends an action (at: where the page shows its answer); false when the
  // socket is down (said).
  // (via: the organiser's player socket, for the player's own action.)
  function act(at, msg, via = null) {
    if (state.busy === at) return false;  // sent already, its answer awaited
    state.error = null;
    const c = via || conn;
    if (!c || (via ? state.playerConn : state.conn) !== 'open' || !c.send(msg)) {
      state.error = { at, code: 'offline' };
      redraw();
      return false;
    }
    state.busy = at;
    redraw();
    return true;
  }

  // Enters the event with name (checked as the server checks a name first,
  // and for the words of an event).
  function join(name) {
    const clean = cleanName(name);
    if (!clean) { state.error = { at: 'join', code: 'bad_name' }; redraw(); return; }
    if (eventWord(clean)) { state.error = { at: 'join', code: 'name_reserved' }; redraw(); return; }
    act('join', { type: 'event_join', event: state.id, name: clean });
  }

  // (An action makes its socket follow as the token's role: the
  // organiser's player withdraws on the player's socket.)
  async function withdraw() {
    const token = state.player || (state.role === 'player' ? state.token : null);
    if (!token) return;
    // (Before the start there is no game to lose: the entry goes, and may come again.)
    const before = !!state.event && state.event.state === 'entry';
    if (!await fx.confirm(t(before ? 'event.withdraw.confirm.entry' : 'event.withdraw.confirm'), t('event.withdraw.yes'))) return;
    act('withdraw', { type: 'event_withdraw', event: state.id, token }, state.player ? playerConn : null);
  }

  // The organiser's actions.
  const organiser = (at, type) => {
    if (state.role !== 'organiser' || !state.token) return false;
    return act(at, { type, event: state.id, token: state.token });
  };

  // A board's result (seeds: [white's, black's] or null), once the
  // organiser confirmed it (the board, its players and the result named);
  // res '': none chosen (the form chooses none beforehand).
  async function result(round, board, res, seeds = null) {
    if (state.role !== 'organiser' || !state.token) return;
    const at = `result:${round}:${board}`;
    if (!RESULTS.includes(res)) { state.error = { at, code: 'no_result' }; redraw(); return; }
    const ok = (s) => Number.isInteger(s) && s >= 0 && s <= 162;
    if (seeds && !(seeds.length === 2 && seeds.every(ok))) { state.error = { at, code: 'bad_seeds' }; redraw(); return; }
    const forfeit = res.endsWith('forfeit');
    const r = ((state.event && state.event.schedule) || []).find((x) => x.round === round);
    const b = r && (r.boards || []).find((x) => x.board === board);
    const name = (e) => { const p = b && (state.event.players || [])[e]; return p ? p.name : '?'; };
    const names = { white: name(b && b.white), black: name(b && b.black) };
    const seen = seeds && !forfeit ? ` (${seeds[0]}–${seeds[1]})` : '';
    const text = t('event.record.confirm', { n: board, ...names, result: t(`event.record.${res}`, names) + seen });
    if (!await fx.confirm(text, t('event.record.save'))) return;
    const msg = { type: 'event_result', event: state.id, token: state.token, round, board, result: res };
    act(at, seeds && !forfeit ? { ...msg, seeds } : msg);
  }

  // The organiser removes an entry (before the start) or withdraws its player.
  async function remove(entry) {
    if (state.role !== 'organiser' || !state.token || !Number.isInteger(entry)) return;
    const p = state.event && (state.event.players || [])[entry];
    if (!p) return;
    if (!await fx.confirm(t('event.org.withdraw.confirm', { name: p.name }), t('event.org.withdraw.yes'))) return;
    act(`remove:${entry}`, { type: 'event_withdraw', event: state.id, token: state.token, entry });
  }

  // The organiser closes or reopens entries ({open}), or sets the entries
  // one address may make ({per_address}: 1 to 256).
  function entries(what) {
    if (state.role !== 'organiser' || !state.token) return;
    if (what.per_address !== undefined) {
      const n = what.per_address;
      if (!Number.isInteger(n) || n < 1 || n > 256) { state.error = { at: 'per_address', code: 'bad_per_address' }; redraw(); return; }
      act('per_address', { type: 'event_entries', event: state.id, token: state.token, per_address: n });
      return;
    }
    act('entries', { type: 'event_entries', event: state.id, token: state.token, open: !!what.open });
  }

  async function finish() {
    if (state.role !== 'organiser') return;
    if (!await fx.confirm(t('event.finish.confirm'), t('event.finish.yes'))) return;
    organiser('finish', 'event_finish');
  }

  // The player's board of the round: its seat token kept as the room's
  // (online.js joins with it), and the room opened.
  function play() {
    const game = state.mine && state.mine.game;
    if (!game || typeof game.room !== 'string') return;
    if (typeof game.token === 'string') fx.store(SEAT_KEY(game.room), game.token);
    fx.go(`?room=${encodeURIComponent(game.room)}`);
  }

  function close() {
    state.stopped = state.stopped || 'closed';
    if (conn) conn.stop();
    if (playerConn) playerConn.stop();
  }

  return Object.freeze({
    state,
    open,
    close,
    join,
    withdraw,
    start: () => { organiser('start', 'event_start'); },
    next: () => { organiser('next', 'event_next'); },
    finish,
    result,
    remove,
    entries,
    play,
    // The page is shown again or the network came back: reconnect now.
    nudge: () => { if (conn) conn.nudge(); if (playerConn) playerConn.nudge(); },
  });
}

/** @typedef {ReturnType<typeof eventScreen>} EventScreen */

// The socket's URL (base: net.js's) with ?event=<id>, as a room's has
// ?room=: a cluster's proxy sends an event's followers to the server that
// holds it (docs/cluster.md, "Club events on several servers").
export function eventSocketUrl(base, id) {
  const u = new URL(base);
  if (id) u.searchParams.set('event', id);
  return u.href;
}

// An error's code, a bad name told apart: the server answers one with
// bad_message and `name: …` (PROTOCOL.md, "Names and chat"), which the
// page explains as the start page does (a side's look-alike, "Ѕоuth" in
// Cyrillic, passes names.js's check).
function refusal(msg) {
  const code = typeof msg.code === 'string' ? msg.code : 'unknown';
  return code === 'bad_message' && /^name:/.test(String(msg.message || '')) ? 'bad_name' : code;
}

// A refusal in the page's words: the event's own errors (event.error.*),
// else the room's (error.*), else its code.
export function errorText(code) {
  for (const k of [`event.error.${code}`, `error.${code}`]) {
    const s = t(k);
    if (s !== k) return s;
  }
  return t('error.unknown', { code });
}

// The start page's form (event-form.js) as `event_create`'s fields:
// {fields}, or {error: a message key, field: the choice refused}. raw:
// the form's values as typed (title, kind, format, rounds, clock: the
// choice's value, min, inc: a custom clock's minutes and increment, max,
// auto, rules2017: the older FIDE rules).
/** @returns {{fields: any} | {error: string, field: string}} */
export function eventFields(raw) {
  const title = cleanText(raw.title, 60);
  if (!title) return { error: 'event.form.error.name', field: 'title' };
  const format = ['swiss', 'round_robin', 'double_round_robin'].includes(raw.format) ? raw.format : 'swiss';
  const fields = { title, kind: kindOf(raw.kind), format, rounds: null, clock: null, max_players: null, auto: raw.auto !== false,
    rules: raw.rules2017 ? 'fide_2017' : 'fide_2025' };
  const int = (v) => (String(v).trim() === '' ? NaN : Number(v));
  if (format === 'swiss') {
    const n = int(raw.rounds);
    if (!Number.isInteger(n) || n < 1 || n > 32) return { error: 'event.form.error.rounds', field: 'rounds' };
    fields.rounds = n;
  }
  const c = String(raw.clock || 'none');
  if (/^days:\d+$/.test(c)) fields.clock = { days: Number(c.slice(5)) };
  else if (c === 'custom') {
    const m = int(raw.min), inc = int(raw.inc);
    if (!Number.isInteger(m) || m < 1 || m > 180) return { error: 'clock.error.initial', field: 'min' };
    if (!Number.isInteger(inc) || inc < 0 || inc > 180) return { error: 'clock.error.increment', field: 'inc' };
    fields.clock = { initial: m * 60, increment: inc };
  } else if (/^\d+\+\d+$/.test(c)) {
    const [m, i] = c.split('+').map(Number);
    fields.clock = { initial: m * 60, increment: i };
  }
  if (String(raw.max ?? '').trim() !== '') {
    const n = int(raw.max);
    if (!Number.isInteger(n) || n < 2 || n > 256) return { error: 'event.form.error.max', field: 'max' };
    fields.max_players = n;
  }
  return { fields };
}

// ---- the page's binding: one event at a time ----

/** @type {EventScreen | null} */
let page = null;
let asked = false;
let backToStart = (_why) => {};

function redrawPage() {
  if (asked) return;
  asked = true;
  queueMicrotask(() => {
    asked = false;
    if (page) drawEvent(page);
  });
}

/** @type {EventEffects} */
const pageEffects = {
  toast,
  announce,
  confirm: confirmDialog,
  store,
  load,
  show: () => show('event'),
  words: (kind) => applyStatic(document, kind),
  eventUrl: (id) => {
    const u = new URL(window.location.href);
    u.search = '';
    u.hash = '';
    u.searchParams.set('event', id);
    window.history.replaceState(null, '', u.href);
  },
  go: (url) => { window.location.href = url; },
  home: (why) => backToStart(why),
};

let wired = false;
function bind(opts) {
  if (page) page.close();
  page = eventScreen(opts, redrawPage);
  if (!wired) {
    wired = true;
    wireEvent(() => page);
    const nudge = () => { if (page) page.nudge(); };
    window.addEventListener('online', nudge);
    window.addEventListener('focus', nudge);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') nudge(); });
  }
  pageEffects.show();
  page.open();
}

// The page's own style sheet (event.css, beside index.html), once: resolves
// when it is there (or could not be had: the page still works).
function loadStyles() {
  if (document.getElementById('event-css')) return Promise.resolve();
  const l = document.createElement('link');
  l.id = 'event-css';
  l.rel = 'stylesheet';
  l.href = new URL('event.css', document.baseURI).href;
  const done = new Promise((res) => { l.onload = l.onerror = () => res(undefined); });
  document.head.append(l);
  return done;
}

// Opens the page of event id (app.js, for ?event=<id>); a #organiser=
// fragment is the organiser's token, a #player= one a player's.
export async function startEvent(id) {
  const m = /^#(organiser|player)=([A-Za-z0-9_-]+)$/.exec(window.location.hash || '');
  const token = (role) => (m && m[1] === role ? m[2] : null);
  await Promise.all([loadPart('event'), loadStyles(), loadNameWords()]);
  bind({ id, organiser: token('organiser'), player: token('player'), kind: chosenKind() });
}

// Creates an event with the start page's form (event-form.js); home(why):
// back to the start page when it is refused.
export async function createEvent(fields, home) {
  backToStart = home;
  await Promise.all([loadPart('event'), loadStyles(), loadNameWords()]);
  bind({ id: null, create: fields });
}

// The language changed: the page's words again.
export function redrawEvent() { if (page) drawEvent(page); }

// The game of the event shown (app.js's: the static texts of another
// language follow it).
export const eventKind = () => (page ? page.state.kind : 'oware');
