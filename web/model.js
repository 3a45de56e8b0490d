// model.js: the state of the game screen (one object, sealed), and what it implies: who plays which side, what is shown, whether the pits respond.
// @ts-check

/** @typedef {ReturnType<typeof newModel>} GameState */
/** @typedef {ReturnType<typeof facts>} Facts  what a draw is handed (render.js) */

// The state of the screen shown: the controller's (online.js's onlineGame,
// local.js's localGame, study.js's record), published here for the root
// (app.js, which hands it to the draw pass) and the review's intents;
// views are handed it (docs/web-client.md, "Controllers"). Null on the
// start page.
/** @type {GameState | null} */
export let model = null;

/** @param {GameState | null} m */
export function setModel(m) { model = m; }

// The state of the game screen, made once per screen and sealed at every
// level: each field is declared here, grouped by what it belongs to, and a
// field added anywhere else throws (modules are strict code). Sockets,
// timers and workers live with the code that owns them, not here.
/** @param {'online' | 'local' | 'record'} mode */
export function newModel(mode) {
  return Object.seal({
    // 'online' | 'local' | 'record' (a record opened for review)
    mode,
    // the game (kinds.js's records; its words: i18n.js's tIn)
    kind: /** @type {'oware' | 'togyz'} */ ('oware'),
    // The game shown, whatever the mode.
    // protocol `state` (local, record: built from the timeline)
    state: null,
    // Timeline of state.moves (null: a record the engine refuses)
    timeline: null,
    // local, record: the position the game starts from (null: the standard start)
    start: null,
    // ply shown in review, or null for the live position
    review: null,
    // engine preview of the hovered pit
    preview: null,
    // the board turned by hand (a local game, a spectator)
    flipped: false,
    // The online room.
    online: Object.seal({
      // its name (null: this page creates it)
      room: null,
      // 'south' | 'north' | 'spectator'
      seat: null,
      // the side asked for when this page creates the room
      createSide: null,
      // create's `clock`
      createClock: null,
      // create's `position` (null: the standard start)
      createPosition: null,
      // create's game: 'oware' | 'togyz'
      createKind: 'oware',
      // the name this page last gave the room (null: the remembered one)
      myName: null,
      // the name this browser remembers (names.js), read when the room is made, kept in step
      savedName: null,
      // alerts.js: the sounds off (this browser's choice, read when the room is made)
      muted: false,
      // alerts.js: notifications asked for (this browser's choice; the browser's permission apart)
      notify: false,
      // the server's Web Push key (the welcome's push_key; null: it sends none)
      pushKey: null,
      // this seat asked to be told of its move with the page closed (push.js; kept per room)
      push: false,
      // this page just took a seat by the link: offer the name (chat.js)
      askName: false,
      // {pit, ply} of a move sent and not yet confirmed
      pending: null,
      // the socket reopened since: resend the pending move
      pendingAck: false,
      // connection state: net.js's, but 'joining' from open to welcome
      conn: 'idle',
      // ms of the wait before the next reconnection attempt
      retryIn: 0,
      // ms timestamp of the next reconnection attempt
      retryAt: 0,
      // a welcome came once
      everJoined: false,
      // the next state is the first on a new connection: taken whatever its version
      freshJoin: false,
      // why it stopped reconnecting: 'replaced', 'no_room', 'too_many_spectators'
      stopped: null,
      // ms timestamp when claim becomes possible
      claimAt: null,
      // this player's offer the opponent declined: {kind, by, moved, game, ply, version}
      declined: null,
      // performance.now() when the state (and its clock) arrived
      clockAt: 0,
      // performance.now() when the joined socket was lost: the clocks stand there
      lostAt: 0,
      // the state shown is this browser's last copy (the network is down), not yet the server's
      saved: false,
      // the game_number the timeline follows
      timelineGame: null,
      // the device has no network (navigator.onLine, the 'offline' event)
      netDown: false,
      // clock.js: the game_number:ply whose low time was beeped
      warned: null,
      // alerts.js: things that happened while the tab was hidden
      unseen: 0,
      // alerts.js: the last of them
      unseenText: '',
      // The room's chat (chat.js).
      chat: Object.seal({
        // by id
        lines: /** @type {{id: number, from: string, name: string | null, text: string, at: number}[]} */ ([]),
        // lines that came while the panel was hidden
        unread: 0,
        // the panel hidden (this browser's choice, read when the room opens)
        hidden: false,
        // ms of the last line this page sent (for its errors)
        sentAt: 0,
        // the text of the last line sent, until the server shows it (put back if refused)
        unsent: null,
      }),
    }),
    // The game on this device (two players, or against the computer).
    local: Object.seal({
      // counts the games since the page loaded
      game: 1,
      // against the computer: {level, side}
      ai: null,
      // varies easy's slips from game to game
      aiSeed: 0,
      // the id of the computer's pending search
      thinking: null,
      // {ply, move} the hint shown, or {ply} while it is searched
      hint: null,
    }),
    // The record under review or study (a finished game, or a record opened).
    study: Object.seal({
      // analysis.js: the engine's judgement of the moves
      analysis: null,
      // a record opened: its Date tag (null: unknown)
      date: null,
      // analysis.js: the best line shown whole
      wholeLine: false,
    }),
  });
}

export const other = (side) => (side === 'south' ? 'north' : 'south');

export function moverOf(pit) { return pit === pit.toLowerCase() ? 'south' : 'north'; }

// A player of a club event's board (st.event) who has not come to its
// room yet: seated from the start (the event seats both), not connected,
// and no move of his played. (One who came and left before his first
// move reads so too: the room's state cannot tell them apart.)
export function notArrived(st, side) {
  if (!st || typeof st.event !== 'string' || !st.event || !st.seats || !st.seats[side]) return false;
  const seat = st.seats[side];
  if (!seat.taken || seat.connected) return false;
  const first = st.start && st.start.turn === 'north' ? 'north' : 'south';
  const n = Array.isArray(st.moves) ? st.moves.length : 0;
  return side === first ? n === 0 : n <= 1;
}

// The side this browser plays (null: two players on one device, or a
// spectator).
/** @param {GameState | null} m */
export function mySide(m) {
  if (!m) return null;
  if (m.mode === 'local') return m.local.ai ? other(m.local.ai.side) : null;
  const { seat } = m.online;
  return seat === 'south' || seat === 'north' ? seat : null;
}

// The side whose row is at the bottom (turned by hand: a local game, or a
// spectator's view of a room).
/** @param {GameState} m */
export function viewSide(m) {
  const base = mySide(m) || 'south';
  const turnable = m.mode === 'local' || !mySide(m);
  return turnable && m.flipped ? other(base) : base;
}

// How many moves Undo takes back now: with two players the last one;
// against the computer, back to before the player's last move (so the
// computer's reply too, once it came); 0 when there is none.
/** @param {GameState} m */
export function undoCount(m) {
  const moves = m.timeline ? m.timeline.moves : [];
  const { ai } = m.local;
  if (!ai) return moves.length ? 1 : 0;
  const me = other(ai.side);
  for (let i = moves.length - 1; i >= 0; i--) if (moverOf(moves[i]) === me) return moves.length - i;
  return 0;
}

// The ply the board shows: the one reviewed, else the last.
/** @param {GameState} m */
export function shownPly(m) {
  return m.review === null ? m.state.moves.length : m.review;
}

// ---- what the state implies ----

// The seats of a local game: both taken and present.
const LOCAL_SEATS = { south: { taken: true, connected: true }, north: { taken: true, connected: true } };

// The local hint's pit, while it is about the position shown and playable.
function hintShown(m, st, canMove, reviewing) {
  const h = m.local.hint;
  return h && h.move && h.ply === st.moves.length && canMove && !reviewing ? h.move : null;
}

// What the parts share: the state, who is who, and what is shown.
/**
 * What the state implies; reads nothing else (pure).
 * @param {GameState} m
 */
export function facts(m) {
  const st = m.state;
  const g = st.game;
  const online = m.mode === 'online';
  const me = mySide(m);
  const seats = st.seats || LOCAL_SEATS;
  const bothSeated = seats.south.taken && seats.north.taken;
  const connected = !online || m.online.conn === 'open';
  // Review shows a ply of the timeline; without one, the live position.
  const reviewing = m.review !== null && !!m.timeline;
  const shown = reviewing ? m.timeline.at(m.review) : { game: g, last: st.last };
  // Whether the pits respond.
  // a record opened for review: nobody moves
  const record = m.mode === 'record';
  let canMove = false;
  if (!reviewing && !g.over && !record) {
    if (!online) canMove = !m.local.ai || g.turn === me;
    else canMove = me === g.turn && bothSeated && connected && !m.online.pending;
  }
  const near = viewSide(m);
  // The preview of a hovered pit, while that pit may be played.
  const pv = m.preview;
  const preview = canMove && pv && pv.at === `${st.game_number}:${st.moves.length}` ? pv : null;
  return {
    // the state these are the facts of
    model: m,
    // the game: its words (i18n.js's tIn, wordsIn) and its pits
    kind: m.kind,
    // the players' names the room (or the record) has: with kind, names.js's Who
    names: st.names || null,
    // the protocol state
    st,
    // st.game: the live position
    g,
    online,
    // mySide(m)
    me,
    opp: me ? other(me) : null,
    seats,
    bothSeated,
    // online: the socket is open (local: always)
    connected,
    reviewing,
    // the moves can be stepped through (and analysed)
    reviewable: g.over || record,
    // {game, last}: the position on the board and the move that led to it
    shown,
    canMove,
    // {at, move, state} of the hovered pit, or null
    preview,
    // the pit a hint suggests, or null
    hint: hintShown(m, st, canMove, reviewing),
    // the side at the bottom
    near,
    far: other(near),
  };
}

// A hovered pit's preview goes once the pits stop responding (a move
// played, a review, the connection lost): each intent that may stop them
// calls this after changing the state.
/** @param {GameState | null} m */
export function dropIdlePreview(m) {
  if (m && m.preview && !(m.state && facts(m).canMove)) m.preview = null;
}
