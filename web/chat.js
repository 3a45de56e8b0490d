// chat.js: the room's chat panel (issue 14): the lines (always drawn as
// text, never as markup), the form players write in, hiding the panel (the
// choice remembered), the name field, and the spectators line for players.
// @ts-check
import { t, tIn, getLang } from './i18n.js';
import { $, toast } from './ui.js';
import { keyedList, setText, setHidden, setAttr, setData } from './dom.js';
import { cleanText, cleanName, loadNameWords, CHAT_MAX } from './names.js';

// A line the server refused goes back into the field (unless something
// new was typed there meanwhile), so that nothing written is lost.
export function restoreChatLine(text) {
  const input = $('chat-input');
  if (!input.value) { input.value = text; countChars(); }
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
// down. The lines, the unread count and the line sent last are the
// room's state (model.online.chat, kept by online.js's controller); the
// list keeps the room and the id of the last line it drew
// (data-last): a new last line, or a new room's, scrolls it. me: the side
// of this page in the room (its lines are marked).
/** @param {import('./model.js').GameState} model @param {string | null} me */
function drawLines(model, me) {
  const list = $('chat-lines');
  const { lines } = model.online.chat;
  keyedList(list, lines, (l) => l.id, makeLine, (li, l) => drawLine(li, l, model.kind, me));
  const last = lines.length ? `${model.online.room}:${lines[lines.length - 1].id}` : null;
  if (last !== null && last !== list.dataset.last) list.scrollTop = list.scrollHeight;
  setData(list, 'last', last);
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
  // A line in Arabic or Hebrew reads right to left, on its own.
  text.dir = 'auto';
  li.append(who, ' ', when, ' ', text);
  return li;
}

// l: a line of the chat of a room of kind's game (a side without a name
// is named as the game names it), mine when it is from me's side.
/** @param {any} li @param {any} l @param {string} kind @param {string | null} me */
function drawLine(li, l, kind, me) {
  setData(li, 'from', l.from === 'north' ? 'north' : 'south');
  li.classList.toggle('mine', l.from === me);
  setText(li.querySelector('.chat-name'), l.name || tIn(kind, `side.${l.from === 'north' ? 'north' : 'south'}`));
  const when = li.querySelector('.chat-time');
  if (typeof l.at === 'number') setAttr(when, 'datetime', new Date(l.at).toISOString());
  setText(when, timeText(l.at));
  setText(li.querySelector('.chat-text'), l.text);
}

// The panel for the room shown (f: render.js's facts): hidden in a local game.
/** @param {import('./model.js').Facts} f */
export function drawChat(f) {
  const { model } = f;
  const panel = $('chat');
  const online = f.online;
  setHidden(panel, !online);
  if (!online) return;
  const { hidden, unread, lines } = model.online.chat;
  const opened = !hidden && $('chat-body').hidden;
  panel.classList.toggle('collapsed', hidden);
  setHidden($('chat-body'), hidden);
  const toggle = $('chat-toggle');
  const missed = t('chat.show.unread', { n: unread });
  setText(toggle, hidden ? (unread ? missed : t('chat.show')) : t('chat.hide'));
  setAttr(toggle, 'aria-expanded', String(!hidden));
  const player = !!f.me;
  setHidden($('chat-form'), !player);
  setHidden($('chat-spectator'), player);
  setHidden($('chat-empty'), lines.length > 0);
  const input = $('room-name');
  const name = (player ? (model.state.names || {})[f.me] : model.online.myName) || model.online.savedName || '';
  if (document.activeElement !== input && input.value !== name) input.value = name;
  drawLines(model, f.me);
  if (opened) $('chat-lines').scrollTop = $('chat-lines').scrollHeight;
  drawWatchers(f);
}

// The joiner of a room (a seat first taken by its link) is offered a name,
// unless this browser has one, the seat has one, or a joiner said "Not
// now" before; the offer goes with a save or a skip (not with the game's
// end, which would move the buttons under the player's finger).
/** @param {import('./model.js').Facts} f */
export function drawAskName(f) {
  const { model, me: side } = f;
  const seatName = side && model.state.names && model.state.names[side];
  const shown = !!(f.online && side && model.online.askName && !seatName && !model.online.savedName);
  setHidden($('ask-name'), !shown);
  if (shown) setText($('ask-name-why'), t('ask.why', { side: tIn(f.kind, `side.${side}`) }));
}

// Players (and spectators) see how many watch, and the names given.
/** @param {import('./model.js').Facts} f */
function drawWatchers(f) {
  const { st } = f;
  const el = $('watchers');
  const n = st.spectators || 0;
  setHidden(el, !f.me || n === 0);
  if (el.hidden) return;
  const names = Array.isArray(st.spectator_names) ? st.spectator_names.filter((x) => typeof x === 'string') : [];
  const count = n === 1 ? t('watchers.one') : t('watchers.many', { n });
  setText(el, names.length ? t('watchers.names', { count, names: names.join(', ') }) : count);
}

// The chat's buttons and forms, wired to the intents of the room shown
// (room(): online.js's controller, or null).
export function wireChat(room) {
  $('chat-toggle').addEventListener('click', () => { const r = room(); if (r) r.toggleChat(); });
  $('chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('chat-input');
    const text = cleanText(input.value, CHAT_MAX);
    if (!text) { toast(t('chat.bad')); return; }
    const r = room();
    if (!r || !r.sendChat(text)) return;
    input.value = '';
    countChars();
  });
  $('chat-input').addEventListener('input', countChars);
  $('ask-name').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const raw = $('ask-name-input').value;
    await loadNameWords(); // the words a name may not be (names.js), once
    const name = cleanName(raw);
    if (!name) {
      // Said at the field, which keeps the focus.
      setText($('ask-name-error'), t('name.bad'));
      setHidden($('ask-name-error'), false);
      $('ask-name-input').focus();
      return;
    }
    setHidden($('ask-name-error'), true);
    const r = room();
    if (r) r.giveName(name);
  });
  $('ask-name-input').addEventListener('input', () => setHidden($('ask-name-error'), true));
  $('ask-name-skip').addEventListener('click', () => { const r = room(); if (r) r.skipName(); });
  $('name-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const raw = $('room-name').value;
    const r = room();
    if (!r) return;
    if (!raw.trim()) { r.sendName(null); return; }
    await loadNameWords();
    const name = cleanName(raw);
    if (!name) { toast(t('name.bad')); return; }
    r.sendName(name);
  });
}
