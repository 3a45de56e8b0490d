// chat.js: the room's chat panel (issue 14): the lines (always drawn as
// text, never as markup), the form players write in, hiding the panel (the
// choice remembered), the name field, and the spectators line for players.
import { t, getLang } from './i18n.js';
import { $, toast, load, store } from './ui.js';
import { model, mySide } from './model.js';
import { requestRedraw } from './redraw.js';
import { keyedList, setText, setHidden, setAttr, setData } from './dom.js';
import { cleanText, cleanName, myName, rememberName, displayName, CHAT_MAX } from './names.js';

const HIDDEN_KEY = 'oware.chat.hidden';
const ASKED_KEY = 'oware.name.skipped';  // "Not now" pressed once: the name is not offered again
const KEEP = 200; // lines kept on the page

let send = () => false;  // set by wireChat: sends a message on the room's socket
let lines = [];          // {id, from, name, text, at}, by id
let unread = 0;
let lastSent = 0;        // ms of the last line this page sent (for its errors)
let unsent = null;       // the text of the last line sent, until the server shows it (put back if refused)
let lastDrawn = null;    // the id of the last line drawn: a new last line scrolls the list down

const isHidden = () => load(HIDDEN_KEY) === '1';

// A new room: no lines yet.
export function resetChat() {
  lines = [];
  unread = 0;
  lastDrawn = null;
  $('chat-lines').replaceChildren();
}

// `chat` and `chat_history` from the server.
export function onChatMessage(msg) {
  const add = msg.type === 'chat_history' ? (Array.isArray(msg.messages) ? msg.messages : []) : [msg];
  let fresh = 0;
  for (const m of add) {
    if (!m || typeof m.id !== 'number' || typeof m.text !== 'string') continue;
    if (lines.some((l) => l.id === m.id)) continue;
    lines.push({ id: m.id, from: m.from, name: typeof m.name === 'string' ? m.name : null, text: m.text, at: m.at });
    if (msg.type === 'chat' && m.from !== mySide()) fresh++;
    if (msg.type === 'chat' && m.from === mySide() && m.text === unsent) unsent = null;
  }
  lines.sort((a, b) => a.id - b.id);
  if (lines.length > KEEP) lines = lines.slice(lines.length - KEEP);
  if (isHidden()) unread += fresh;
  requestRedraw();
}

// An error the server answered: 1 when it was about a chat line just sent.
// The line refused goes back into the field (unless something new was
// typed there meanwhile), so that nothing written is lost.
export function chatError(code) {
  if (Date.now() - lastSent > 5000) return false;
  if (code !== 'rate_limited' && code !== 'bad_message') return false;
  toast(t(code === 'rate_limited' ? 'chat.rate_limited' : 'chat.bad'));
  const input = $('chat-input');
  if (unsent !== null && !input.value) { input.value = unsent; countChars(); }
  unsent = null;
  return true;
}

// The field's counter: shown from 200 characters (code points, as the
// server counts them) up to the limit.
function countChars() {
  const n = [...$('chat-input').value].length;
  setText($('chat-count'), n >= 200 ? t('chat.count', { n, max: CHAT_MAX }) : '');
  $('chat-count').classList.toggle('full', n >= CHAT_MAX);
}

function timeText(at) {
  if (typeof at !== 'number') return '';
  return new Date(at).toLocaleTimeString(getLang() === 'en' ? 'en-GB' : getLang(), { hour: '2-digit', minute: '2-digit' });
}

// Each line: author, time, text, built from text nodes only; a line
// drawn stays (only new ones are added), and a new one scrolls the list
// down.
function drawLines() {
  const list = $('chat-lines');
  keyedList(list, lines, (l) => l.id, makeLine, drawLine);
  const last = lines.length ? lines[lines.length - 1].id : null;
  if (last !== null && last !== lastDrawn) list.scrollTop = list.scrollHeight;
  lastDrawn = last;
}

function makeLine() {
  const li = document.createElement('li');
  li.className = 'chat-line';
  const who = document.createElement('span');
  who.className = 'chat-name';
  const when = document.createElement('time');
  when.className = 'chat-time';
  const text = document.createElement('span');
  text.className = 'chat-text';
  text.dir = 'auto';  // a line in Arabic or Hebrew reads right to left, on its own
  li.append(who, ' ', when, ' ', text);
  return li;
}

function drawLine(li, l) {
  setData(li, 'from', l.from === 'north' ? 'north' : 'south');
  li.classList.toggle('mine', l.from === mySide());
  setText(li.querySelector('.chat-name'), l.name || t(`side.${l.from === 'north' ? 'north' : 'south'}`));
  const when = li.querySelector('.chat-time');
  if (typeof l.at === 'number') setAttr(when, 'datetime', new Date(l.at).toISOString());
  setText(when, timeText(l.at));
  setText(li.querySelector('.chat-text'), l.text);
}

// The panel for the room shown: hidden in a local game.
export function drawChat() {
  const panel = $('chat');
  const online = !!(model && model.mode === 'online' && model.state);
  setHidden(panel, !online);
  if (!online) return;
  const hidden = isHidden();
  const opened = !hidden && $('chat-body').hidden;
  panel.classList.toggle('collapsed', hidden);
  setHidden($('chat-body'), hidden);
  const toggle = $('chat-toggle');
  const missed = t('chat.show.unread', { n: unread });
  setText(toggle, hidden ? (unread ? missed : t('chat.show')) : t('chat.hide'));
  setAttr(toggle, 'aria-expanded', String(!hidden));
  const player = !!mySide();
  setHidden($('chat-form'), !player);
  setHidden($('chat-spectator'), player);
  setHidden($('chat-empty'), lines.length > 0);
  const input = $('room-name');
  const name = (player ? (model.state.names || {})[mySide()] : model.online.myName) || myName() || '';
  if (document.activeElement !== input && input.value !== name) input.value = name;
  drawLines();
  if (opened) $('chat-lines').scrollTop = $('chat-lines').scrollHeight;
  drawWatchers();
}

// The joiner of a room (a seat first taken by its link) is offered a name,
// unless this browser has one, the seat has one, or a joiner said "Not
// now" before; the offer goes with a save or a skip (not with the game's
// end, which would move the buttons under the player's finger).
export function drawAskName(f) {
  const me = mySide();
  const shown = !!(f.online && me && model.online.askName && !seatNameOf(me) &&
    !myName() && load(ASKED_KEY) !== '1');
  setHidden($('ask-name'), !shown);
  if (shown) setText($('ask-name-why'), t('ask.why', { side: t(`side.${me}`) }));
}

const seatNameOf = (side) => (model.state && model.state.names && model.state.names[side]) || null;

// Players (and spectators) see how many watch, and the names given.
function drawWatchers() {
  const st = model.state;
  const el = $('watchers');
  const n = st.spectators || 0;
  setHidden(el, !mySide() || n === 0);
  if (el.hidden) return;
  const names = Array.isArray(st.spectator_names) ? st.spectator_names.filter((x) => typeof x === 'string') : [];
  const count = n === 1 ? t('watchers.one') : t('watchers.many', { n });
  setText(el, names.length ? t('watchers.names', { count, names: names.join(', ') }) : count);
}

// The room's name sent to the server: the seat's, or a spectator's own.
function sendName(name) {
  if (!send({ type: 'name', name })) { toast(t('conn.reconnecting.now')); return false; }
  if (model) model.online.myName = name;
  rememberName(name);
  toast(t('name.saved'));
  return true;
}

export function wireChat(sender) {
  send = sender;
  $('chat-toggle').addEventListener('click', () => {
    store(HIDDEN_KEY, isHidden() ? null : '1');
    if (!isHidden()) unread = 0;
    requestRedraw();
  });
  $('chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('chat-input');
    const text = cleanText(input.value, CHAT_MAX);
    if (!text) { toast(t('chat.bad')); return; }
    if (!send({ type: 'chat', text })) { toast(t('conn.reconnecting.now')); return; }
    lastSent = Date.now();
    unsent = text;
    input.value = '';
    countChars();
  });
  $('chat-input').addEventListener('input', countChars);
  $('ask-name').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const raw = $('ask-name-input').value;
    const name = cleanName(raw);
    if (!name) {
      // Said at the field, which keeps the focus.
      setText($('ask-name-error'), t('name.bad'));
      setHidden($('ask-name-error'), false);
      $('ask-name-input').focus();
      return;
    }
    setHidden($('ask-name-error'), true);
    if (!sendName(name)) return;
    model.online.askName = false;
    requestRedraw();
  });
  $('ask-name-input').addEventListener('input', () => setHidden($('ask-name-error'), true));
  $('ask-name-skip').addEventListener('click', () => {
    store(ASKED_KEY, '1');
    model.online.askName = false;
    requestRedraw();
  });
  $('name-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const raw = $('room-name').value;
    if (!raw.trim()) { sendName(null); return; }
    const name = cleanName(raw);
    if (!name) { toast(t('name.bad')); return; }
    sendName(name);
  });
}

// Names also reach the player bars etc. through displayName (names.js).
export { displayName };
