// model.js: the state of the game screen (one object, sealed), and what it implies: who plays which side, what is shown, whether the pits respond.

export let model = null;  // see newModel(); null on the start page

export function setModel(m) { model = m; }

// The state of the game screen, made once per screen and sealed at every
// level: each field is declared here, grouped by what it belongs to, and a
// field added anywhere else throws (modules are strict code). Sockets,
// timers and workers live with the code that owns them, not here.
export function newModel(mode) {
  return Object.seal({
    mode,               // 'online' | 'local' | 'record' (a record opened for review)
    // The game shown, whatever the mode.
    state: null,        // protocol `state` (local, record: built from the timeline)
    timeline: null,     // Timeline of state.moves (null: a record the engine refuses)
    start: null,        // local, record: the position the game starts from (null: the standard start)
    review: null,       // ply shown in review, or null for the live position
    preview: null,      // engine preview of the hovered pit
    flipped: false,     // the board turned by hand (a local game, a spectator)
    // The online room.
    online: Object.seal({
      room: null,         // its name (null: this page creates it)
      seat: null,         // 'south' | 'north' | 'spectator'
      createSide: null,   // the side asked for when this page creates the room
      createClock: null,  // create's `clock`
      createPosition: null, // create's `position` (null: the standard start)
      createKind: 'oware', // create's game: 'oware' | 'togyz'
      myName: null,       // the name this page last gave the room (null: the remembered one)
      askName: false,     // this page just took a seat by the link: offer the name (chat.js)
      pending: null,      // {pit, ply} of a move sent and not yet confirmed
      pendingAck: false,  // the socket reopened since: resend the pending move
      conn: 'idle',       // connection state: net.js's, but 'joining' from open to welcome
      retryIn: 0,         // ms of the wait before the next reconnection attempt
      retryAt: 0,         // ms timestamp of the next reconnection attempt
      everJoined: false,  // a welcome came once
      freshJoin: false,   // the next state is the first on a new connection: taken whatever its version
      stopped: null,      // why it stopped reconnecting: 'replaced', 'no_room', 'too_many_spectators'
      claimAt: null,      // ms timestamp when claim becomes possible
      declined: null,     // this player's offer the opponent declined: {kind, by, moved, game, ply, version}
      clockAt: 0,         // performance.now() when the state (and its clock) arrived
      timelineGame: null, // the game_number the timeline follows
    }),
    // The game on this device (two players, or against the computer).
    local: Object.seal({
      game: 1,            // counts the games since the page loaded
      ai: null,           // against the computer: {level, side}
      aiSeed: 0,          // varies easy's slips from game to game
      thinking: null,     // the id of the computer's pending search
      hint: null,         // {ply, move} the hint shown, or {ply} while it is searched
    }),
    // The record under review or study (a finished game, or a record opened).
    study: Object.seal({
      analysis: null,     // analysis.js: the engine's judgement of the moves
      date: null,         // a record opened: its Date tag (null: unknown)
    }),
  });
}

export const other = (side) => (side === 'south' ? 'north' : 'south');

export function moverOf(pit) { return pit === pit.toLowerCase() ? 'south' : 'north'; }

// The side this browser plays (null: two players on one device, or a
// spectator).
export function mySide() {
  if (!model) return null;
  if (model.mode === 'local') return model.local.ai ? other(model.local.ai.side) : null;
  const { seat } = model.online;
  return seat === 'south' || seat === 'north' ? seat : null;
}

// The side whose row is at the bottom (turned by hand: a local game, or a
// spectator's view of a room).
export function viewSide() {
  const base = mySide() || 'south';
  const turnable = model.mode === 'local' || !mySide();
  return turnable && model.flipped ? other(base) : base;
}

// How many moves Undo takes back now: with two players the last one;
// against the computer, back to before the player's last move (so the
// computer's reply too, once it came); 0 when there is none.
export function undoCount() {
  const moves = model.timeline ? model.timeline.moves : [];
  const { ai } = model.local;
  if (!ai) return moves.length ? 1 : 0;
  const me = other(ai.side);
  for (let i = moves.length - 1; i >= 0; i--) if (moverOf(moves[i]) === me) return moves.length - i;
  return 0;
}

// The ply the board shows: the one reviewed, else the last.
export function shownPly() {
  return model.review === null ? model.state.moves.length : model.review;
}

// ---- what the state implies ----

// The seats of a local game: both taken and present.
const LOCAL_SEATS = { south: { taken: true, connected: true }, north: { taken: true, connected: true } };

// The local hint's pit, while it is about the position shown and playable.
function hintShown(st, canMove, reviewing) {
  const h = model.local.hint;
  return h && h.move && h.ply === st.moves.length && canMove && !reviewing ? h.move : null;
}

// What the parts share: the state, who is who, and what is shown.
export function facts() {
  const st = model.state;
  const g = st.game;
  const online = model.mode === 'online';
  const me = mySide();
  const seats = st.seats || LOCAL_SEATS;
  const bothSeated = seats.south.taken && seats.north.taken;
  const connected = !online || model.online.conn === 'open';
  // Review shows a ply of the timeline; without one, the live position.
  const reviewing = model.review !== null && !!model.timeline;
  const shown = reviewing ? model.timeline.at(model.review) : { game: g, last: st.last };
  // Whether the pits respond.
  const record = model.mode === 'record';  // a record opened for review: nobody moves
  let canMove = false;
  if (!reviewing && !g.over && !record) {
    if (!online) canMove = !model.local.ai || g.turn === me;
    else canMove = me === g.turn && bothSeated && connected && !model.online.pending;
  }
  const near = viewSide();
  // The preview of a hovered pit, while that pit may be played.
  const pv = model.preview;
  const preview = canMove && pv && pv.at === `${st.game_number}:${st.moves.length}` ? pv : null;
  return {
    st,                 // the protocol state
    g,                  // st.game: the live position
    online,
    me,                 // mySide()
    opp: me ? other(me) : null,
    seats,
    bothSeated,
    connected,          // online: the socket is open (local: always)
    reviewing,
    reviewable: g.over || record,  // the moves can be stepped through (and analysed)
    shown,              // {game, last}: the position on the board and the move that led to it
    canMove,
    preview,            // {at, move, state} of the hovered pit, or null
    hint: hintShown(st, canMove, reviewing),  // the pit a hint suggests, or null
    near,               // the side at the bottom
    far: other(near),
  };
}

// A hovered pit's preview goes once the pits stop responding (a move
// played, a review, the connection lost): each intent that may stop them
// calls this after changing the state.
export function dropIdlePreview() {
  if (model && model.preview && !(model.state && facts().canMove)) model.preview = null;
}
