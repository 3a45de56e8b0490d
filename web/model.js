// model.js: the game this page shows, the board it is drawn on, and who plays which side.

export let model = null;  // see newModel(); null on the start page
export let board = null;  // the Board of the game screen

export function setModel(m) { model = m; }
export function setBoard(b) { board = b; }

export function newModel(mode) {
  return {
    mode,               // 'online' | 'local' | 'record' (a record opened for review)
    start: null,        // local, record: the position the game starts from (null: the standard start)
    analysis: null,     // analysis.js: the engine's judgement of the moves
    state: null,        // protocol `state` (local: built from the engine)
    timeline: null,     // Timeline of state.moves (null: a record the engine refuses)
    timelineGame: null, // online: the game_number the timeline follows
    review: null,       // ply shown in review, or null for the live position
    shownKey: null,     // game_number:ply the board shows
    prevGame: null,     // the live position drawn last, and its key: a move
    prevKey: null,      //   from it is animated
    preview: null,      // engine preview of the hovered pit
    // Online.
    room: null,
    seat: null,         // 'south' | 'north' | 'spectator'
    createSide: null,   // the side asked for when this page creates the room
    pending: null,      // {pit, ply} of a move sent and not yet confirmed
    pendingAck: false,  // the socket reopened since: resend the pending move
    conn: 'idle',       // connection state: net.js's, but 'joining' from open to welcome
    retryIn: 0,
    retryAt: 0,         // ms timestamp of the next reconnection attempt
    retryTimer: null,   // counts the wait down on screen
    rejoinTimer: null,  // a join answered `internal` is sent again
    everJoined: false,
    stopped: null,      // why it stopped reconnecting: 'replaced', 'no_room', 'too_many_spectators'
    claimAt: null,      // ms timestamp when claim becomes possible
    declined: null,     // this player's offer the opponent declined: {kind, by, moved, game, ply, version}
    clockAt: 0,         // performance.now() when the state (and its clock) arrived
    createClock: null,  // create's `clock` when this page creates the room
    // Local.
    localGame: 1,       // counts the games since the page loaded
    flipped: false,     // the board turned by hand
    ai: null,           // against the computer: {level, side}
    aiSeed: 0,          // varies easy's slips from game to game
    thinking: null,     // the id of the computer's pending search
    hint: null,         // {ply, move} the hint shown, or {ply} while it is searched
  };
}

export const other = (side) => (side === 'south' ? 'north' : 'south');

export function moverOf(pit) { return pit === pit.toLowerCase() ? 'south' : 'north'; }

// The side this browser plays (null: two players on one device, or a
// spectator).
export function mySide() {
  if (!model) return null;
  if (model.mode === 'local') return model.ai ? other(model.ai.side) : null;
  return model.seat === 'south' || model.seat === 'north' ? model.seat : null;
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
  if (!model.ai) return moves.length ? 1 : 0;
  const me = other(model.ai.side);
  for (let i = moves.length - 1; i >= 0; i--) if (moverOf(moves[i]) === me) return moves.length - i;
  return 0;
}

// The ply the board shows: the one reviewed, else the last.
export function shownPly() {
  return model.review === null ? model.state.moves.length : model.review;
}
