// games-push.js: in "your games" (games.js), the switch "Tell me when it
// is my move, even when this page is closed" on each seat this browser
// holds in a game with a clock of days still going; imported only when
// the list has one. Pressed, it subscribes (or cancels) with POST api/push
// (PROTOCOL.md "Push from your games"; push.js, imported then): the
// seat's token proves it and the room is not joined, so the player's open
// tab keeps its seat.
// @ts-check
import { t } from './i18n.js';
import { store, load, toast } from './ui.js';
import { setText, setHidden, setAttr } from './dom.js';

const PUSH_PREFIX = 'oware.push.';  // '1': this seat is told (online.js keeps it too)

/** @type {string | null | undefined} the server's key: undefined until asked, null when off */
let pushKey;
/** @type {Map<string, string>} the listed rooms' seat tokens */
let tokens = new Map();

// A seat of a game of days still going, in a browser that can be told.
const pushable = (g) => !!(g.found && g.seat && !g.over && g.time_control &&
  g.time_control.kind === 'correspondence' && 'serviceWorker' in navigator &&
  typeof window.PushManager === 'function' && typeof Notification === 'function' &&
  Notification.permission !== 'denied');

// GET api/push: the server's key (null: --push off; undefined: asked again later).
async function askKey() {
  try {
    const r = await fetch('api/push');
    const j = r.ok ? await r.json() : null;
    return j && typeof j.push_key === 'string' ? j.push_key : null;
  } catch { return undefined; }
}

// The seat of room g told (on) or not, without joining it.
async function setPush(g, on, button) {
  const token = tokens.get(g.room);
  if (!token || !pushKey) return;
  button.disabled = true;
  try {
    await (await import('./push.js')).seatPush(g.room, token, pushKey, on);
    store(PUSH_PREFIX + g.room, on ? '1' : null);
    toast(t(on ? 'push.enabled' : 'push.cancelled'));
  } catch (e) {
    const why = e && e.message;
    toast(t(why === 'blocked' ? 'notify.blocked' : why === 'push_refused' ? 'error.push_refused'
      : why === 'unsupported' ? 'push.unsupported' : 'push.failed'));
  }
  button.disabled = false;
  drawButton(button, g);
}

function drawButton(button, g) {
  const on = load(PUSH_PREFIX + g.room) === '1';
  setText(button, t(on ? 'push.on' : 'push.off'));
  setAttr(button, 'aria-pressed', String(on));
}

function makeButton(li) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'small game-push';
  b.addEventListener('click', () => {
    const g = /** @type {any} */ (b).game;
    if (g) setPush(g, load(PUSH_PREFIX + g.room) !== '1', b);
  });
  li.append(b);
  return b;
}

// The switches of list's items (li[data-room]) for rooms, the answer of
// POST api/rooms; held: [{room, token}], the seats asked about.
export async function drawPushes(list, rooms, held) {
  if (pushKey === undefined) pushKey = await askKey();
  tokens = new Map(held.map((h) => [h.room, h.token]));
  for (const li of list.children) {
    const g = rooms.find((x) => x.room === /** @type {HTMLElement} */ (li).dataset.room);
    const on = !!g && pushable(g) && !!pushKey;
    let b = li.querySelector('.game-push');
    if (on && !b) b = makeButton(li);
    if (!b) continue;
    /** @type {any} */ (b).game = g;
    setHidden(b, !on);
    if (on) drawButton(b, g);
  }
}
