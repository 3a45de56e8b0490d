// games.js: "Your games" on the start page (issue 14): the rooms this
// browser holds a seat in (a token kept per room), asked about all at once
// with POST api/rooms (protocol/PROTOCOL.md, "Your games"): the opponent,
// your side, whose move it is or the result, the last activity; a click
// goes back in, and finished or expired rooms can be removed. Games of
// days get the room's push switch (games-push.js, imported only then).
// @ts-check
import { t, tIn, getLang } from './i18n.js';
import { $, store, shownScreen } from './ui.js';
import { controlText } from './clock.js';
import { keyedList, setText, setHidden, setData } from './dom.js';
import { kindOf } from './kind.js';
import { kindRec } from './kinds.js';

const TOKEN_PREFIX = 'oware.token.';
const MAX = 50; // rooms a request may ask about

// The rooms with a seat token in this browser: [{room, token}].
function heldRooms() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length && out.length < MAX; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(TOKEN_PREFIX)) {
        const token = localStorage.getItem(k);
        if (token) out.push({ room: k.slice(TOKEN_PREFIX.length), token });
      }
    }
  } catch { /* storage off: no games to list */ }
  return out;
}

let asked = 0; // the latest request: an older answer is dropped

// The club events this browser organises or plays in (a token kept per
// event, event.js): [{id, role, title}], by title.
const EVENT_PREFIX = 'oware.event.';
function heldEvents() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length && out.length < MAX; i++) {
      const k = localStorage.key(i);
      if (!k || !k.startsWith(EVENT_PREFIX)) continue;
      try {
        const v = JSON.parse(localStorage.getItem(k) || 'null');
        if (v && typeof v.token === 'string') out.push({ id: k.slice(EVENT_PREFIX.length), role: v.role === 'organiser' ? 'organiser' : 'player', title: String(v.title || '') });
      } catch { /* not one of ours */ }
    }
  } catch { /* storage off */ }
  return out.sort((a, b) => a.title.localeCompare(b.title));
}

// The events' list: a link to each event's page, and a button that
// forgets it (the token kept).
function drawEvents(events) {
  keyedList($('games-events'), events, (e) => e.id, (e) => {
    const li = listItem('game-item event-item', `?event=${encodeURIComponent(e.id)}`);
    const rm = document.createElement('button');
    rm.type = 'button';
    rm.className = 'small';
    rm.addEventListener('click', () => {
      store(EVENT_PREFIX + e.id, null);
      li.remove();
      if (!$('games-events').children.length && !$('games-list').children.length) $('games').hidden = true;
    });
    li.append(rm);
    return li;
  }, (li, e) => {
    const [info, open, rm] = li.children;
    setText(info.children[0], e.title || t('event.games.untitled'));
    setText(info.children[1], t(e.role === 'organiser' ? 'event.games.organiser' : 'event.games.player'));
    setText(open, t('event.games.open'));
    setText(rm, t('games.remove'));
  });
  setHidden($('games-events'), !events.length);
}

// Fills the list (hidden while this browser holds no seat and no event).
export async function drawGames() {
  const section = $('games');
  const held = heldRooms();
  const events = heldEvents();
  const mine = ++asked;
  drawEvents(events);
  if (!held.length) {
    $('games-list').replaceChildren();
    $('games-note').hidden = true;
    section.hidden = !events.length;
    return;
  }
  let answer;
  try {
    // Without the network the list is not asked for (said so, not "failed").
    if (navigator.onLine === false) throw new Error('offline');
    const r = await fetch('api/rooms', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rooms: held }),
    });
    if (!r.ok) throw new Error(String(r.status));
    answer = await r.json();
  } catch {
    if (mine !== asked) return;
    section.hidden = false;
    $('games-list').replaceChildren();
    $('games-note').textContent = t(navigator.onLine === false ? 'games.offline' : 'games.failed');
    $('games-note').hidden = false;
    return;
  }
  if (mine !== asked || shownScreen() !== 'start') return;
  const rooms = (Array.isArray(answer.rooms) ? answer.rooms : []).filter((g) => g && typeof g.room === 'string');
  // Games on first (yours to move first), then the finished, then the gone; newest first.
  // (A room still waiting for its opponent is not "your move" yet.)
  const opponentIn = (g) => !!(g.seats && g.seats[g.seat === 'south' ? 'north' : 'south'] &&
    g.seats[g.seat === 'south' ? 'north' : 'south'].taken);
  const rank = (g) => (!g.found || !g.seat ? 3 : g.over ? 2 : g.turn === g.seat && opponentIn(g) ? 0 : 1);
  rooms.sort((a, b) => rank(a) - rank(b) || (b.updated || 0) - (a.updated || 0));
  keyedList($('games-list'), rooms, (g) => g.room, makeItem, drawItem);
  if (rooms.some((g) => g.found && g.seat && !g.over && g.time_control && g.time_control.kind === 'correspondence')) {
    import('./games-push.js').then((m) => mine === asked && m.drawPushes($('games-list'), rooms, held), () => {});
  }
  $('games-note').hidden = true;
  section.hidden = false;
}

// A side's name in the room's own game (White/Black in a Togyz room).
const side = (s, kind) => tIn(kindOf(kind), `side.${s === 'north' ? 'north' : 'south'}`);

// "5 minutes ago", in the page's language.
function ago(seconds) {
  if (typeof seconds !== 'number') return '';
  const d = Math.round(Date.now() / 1000 - seconds);
  const fmt = new Intl.RelativeTimeFormat(getLang(), { numeric: 'auto' });
  if (d < 60) return fmt.format(0, 'second');
  if (d < 3600) return fmt.format(-Math.floor(d / 60), 'minute');
  if (d < 86400) return fmt.format(-Math.floor(d / 3600), 'hour');
  return fmt.format(-Math.floor(d / 86400), 'day');
}

// One room of the list, from text nodes only: made once per room, then
// kept (its text and buttons follow the answer).
function makeItem(g) {
  const li = listItem('game-item', `?room=${encodeURIComponent(g.room)}`);
  li.dataset.room = g.room;
  return li;
}

// An item of the lists (a room, an event): its title and detail, and a
// link that opens it at href.
function listItem(className, href) {
  const li = document.createElement('li');
  li.className = className;
  const info = document.createElement('span');
  info.className = 'game-info';
  const title = document.createElement('span');
  title.className = 'game-title';
  const detail = document.createElement('span');
  detail.className = 'game-detail';
  info.append(title, detail);
  const open = document.createElement('a');
  open.className = 'button small';
  open.href = href;
  li.append(info, open);
  return li;
}

// The button that forgets a finished or gone room (this browser's seat token).
function removeButton(room, li) {
  const rm = document.createElement('button');
  rm.type = 'button';
  rm.className = 'small';
  rm.addEventListener('click', () => {
    store(TOKEN_PREFIX + room, null);
    li.remove();
    if (!$('games-list').children.length && !$('games-events').children.length) $('games').hidden = true;
  });
  return rm;
}

function drawItem(li, g) {
  const [info, open] = li.children;
  let rm = li.querySelector('button:not(.game-push)');
  const [title, detail] = info.children;
  let removable = true;
  let state = null;
  if (!g.found || !g.seat) {
    state = 'gone';
    setText(title, t('games.gone'));
    setText(detail, '');
  } else {
    const opp = g.seat === 'south' ? 'north' : 'south';
    const names = g.names || {};
    const oppName = typeof names[opp] === 'string' ? names[opp] : null;
    const waiting = !g.seats || !g.seats[opp] || !g.seats[opp].taken;
    // Each state said once: the title names the opponent (or that there
    // never was one), the detail the rest. An unnamed opponent is not
    // called by a side's name, which would read as a name.
    let heading = waiting ? t('games.waiting') : oppName ? t('games.against', { name: oppName }) : t('games.against.unnamed');
    let said = '';
    if (g.over) {
      state = 'over';
      if (waiting) heading = t('games.unjoined');  // closed before anyone came: aborted, nothing more to say
      else {
        said = g.reason === 'aborted' || !g.winner ? t('games.aborted') : g.winner === 'draw' ? t('games.draw')
          : g.winner === g.seat ? t('games.won') : t('games.lost');
      }
    } else {
      removable = false;
      state = waiting ? 'waiting' : g.turn === g.seat ? 'yours' : 'theirs';
      if (!waiting) said = g.turn === g.seat ? t('games.your_move') : t('games.their_move');
    }
    setText(title, heading);
    // A Togyz room says its game (Oware is the default).
    setText(detail, [kindRec(g.kind).named ? t(`kind.${kindOf(g.kind)}`) : '', t('games.you_play', { side: side(g.seat, g.kind) }), said, controlText(g.time_control),
      ago(g.updated)].filter(Boolean).join(' · '));
  }
  setData(li, 'state', state);
  setText(open, g.found && g.seat ? t('games.open') : t('games.look'));
  setHidden(open, !g.found || !g.seat);
  if (removable && !rm) li.append(rm = removeButton(g.room, li));
  if (!removable && rm) rm.remove();
  if (rm) setText(rm, t('games.remove'));
}
