// event-room.js: a club event's board room says which event, round and
// board it is ("Thursday club · round 3, board 2", above the board).
// actions.js loads it only in a room whose state names an event, so that
// other rooms and a first visit carry none of it; it reads the event once
// a room (GET /api/events/<id>, protocol/PROTOCOL.md) and the event's own
// words (i18n.js's part 'event').
// @ts-check
import { t, loadPart } from './i18n.js';
import { setHidden, setText } from './dom.js';
import { requestRedraw } from './redraw.js';

let asked = '';  // "<event>/<room>" read (or being read)
/** @type {{title: string, round: number, board: number} | null} */
let found = null;  // this room among the event's boards, once read
let words = false;  // the part 'event' is loaded
let failed = 0;  // when the last read failed (ms): asked again 10 s later

// Where this room is in event ev (its `event` message without `you`):
// {title, round, board}, or null.
export function boardOf(ev, room) {
  for (const r of (ev && Array.isArray(ev.schedule) ? ev.schedule : [])) {
    for (const b of r.boards || []) {
      if (b.room === room) return { title: String(ev.title || ''), round: r.round, board: b.board };
    }
  }
  return null;
}

// The line above the players and the board: made once.
function line() {
  let p = document.getElementById('event-line');
  if (!p) {
    p = document.createElement('p');
    p.id = 'event-line';
    p.className = 'clock-line event-line';
    p.hidden = true;
    const table = document.querySelector('#game .table');
    table.parentElement.insertBefore(p, table);
  }
  return p;
}

function draw() {
  const p = line();
  setHidden(p, !found || !words);
  if (found && words) setText(p, t('event.room.line', found));
}

// Draws the line of room (id) whose state names event (null: no event,
// the line hidden). Called with every draw of the room: the event is read
// when the room or its event changes, not on every state.
export function drawEventLine(event, room) {
  if (!event || !room) {
    asked = '';
    found = null;
    draw();
    return;
  }
  const key = `${event}/${room}`;
  if (asked !== key && Date.now() - failed > 10000) {
    asked = key;
    found = null;
    // (The room is drawn again with them: the end of a game the organiser
    // recorded is said in the event's words, result.organiser.*.)
    if (!words) loadPart('event').then(() => { words = true; draw(); requestRedraw(); });
    fetch(new URL(`api/events/${encodeURIComponent(event)}`, document.baseURI), { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : null))
      .then((ev) => {
        if (asked !== key) return;
        found = boardOf(ev, room);
        draw();
      })
      .catch(() => {
        if (asked !== key) return;
        asked = '';
        failed = Date.now();
      });
  }
  draw();
}
