// event-view.js: the club event's page drawn from its controller's state
// (event.js's eventScreen), and its buttons wired to the controller's
// intents: the event's facts, the organiser's links and controls, the
// join form, the player's own box, the standings, the rounds' boards and
// the players. It imports no state: drawEvent is handed the controller.
// @ts-check
import { t, tIn, fmtNum, applyStatic } from './i18n.js';
import { $, copyText } from './ui.js';
import { controlText } from './clock.js';
import { keyedList, setAttr, setData, setHidden, setText } from './dom.js';
import { myName } from './names.js';
import { kindOf } from './kind.js';

/** @typedef {import('./event.js').EventScreen} EventScreen */

const RESULT_CHOICES = ['white', 'draw', 'black', 'white_forfeit', 'black_forfeit', 'double_forfeit'];
const MAX_SEEDS = { oware: 48, togyz: 162 };

// The event's clock (as `event_create` gave it, in seconds) in the words
// of a room's time control ("10+5", "3 days per move"); none: real boards.
export function eventClockText(c) {
  if (!c) return t('event.clock.real');
  if (c.days) return controlText({ kind: 'correspondence', days: c.days });
  const s = (v) => Number(v || 0) * 1000;
  const initial = c.initial !== undefined ? { south: s(c.initial), north: s(c.initial) } : { south: s(c.south), north: s(c.north) };
  return controlText({ kind: 'realtime', initial, increment: s(c.increment) });
}

// "Swiss, 5 rounds", "Round robin", "Double round robin".
export function formatText(ev) {
  if (ev.format === 'swiss') return t('event.format.swiss.rounds', { n: ev.rounds || 0 });
  return t(`event.format.${ev.format === 'double_round_robin' ? 'double_round_robin' : 'round_robin'}`);
}

function stateText(ev) {
  if (ev.state === 'entry') return t('event.state.entry');
  if (ev.state === 'over') return t('event.state.over');
  return ev.rounds ? t('event.state.running', { round: ev.round, rounds: ev.rounds }) : t('event.state.running.open', { round: ev.round });
}

// A board's result as a score ("1–0", "½–½", "1–0 by forfeit", "Bye").
export function resultText(b) {
  if (b.result === null || b.result === undefined) return t('event.result.none');
  return t(`event.result.${b.result}`);
}

// An entry withdrawn before the start: gone from the event (its name is
// free again, and its player may enter again).
export const gone = (p) => !!p && !!p.withdrawn && p.number === null;

// This page's player's entry, when it is gone (s.mine names it).
const mineGone = (s, ev) => !!s.mine && gone((ev.players || [])[s.mine.entry]);

const nameOf = (ev, entry) => {
  const p = entry === null || entry === undefined ? null : (ev.players || [])[entry];
  return p ? p.name : '?';
};

// The page's own address with ?event=<id> (and the fragment of the
// organiser's token, or with role 'player' a player's).
function eventLink(id, token, role = 'organiser') {
  const u = new URL(window.location.href);
  u.search = '';
  u.hash = '';
  u.searchParams.set('event', id);
  if (token) u.hash = `${role}=${token}`;
  return u.href;
}

// A board's seeds worth showing: an organiser's result without seeds
// comes as [0, 0] (no game ends 0–0 on a board the organiser records).
export const seedsGiven = (b) => Array.isArray(b.seeds) && b.black !== null &&
  !(b.by === 'organiser' && b.seeds[0] === 0 && b.seeds[1] === 0);

// The round's boards all have a result.
const complete = (ev) => {
  const r = (ev.schedule || []).find((x) => x.round === ev.round);
  return !!r && (r.boards || []).every((b) => b.result !== null);
};

// ---- the page's elements ----

// An element: attributes (true: present and empty; data-i18n and the like
// as written), then its children.
function el(tag, attrs = {}, kids = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'hidden') e.hidden = !!v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...kids);
  return e;
}

// The page's elements, made once (in the words of kind, the controller's
// game: no event is read yet) when an event is first opened: index.html
// holds only the screen (#event), so that the start page does not carry
// them.
/** @param {HTMLElement} root @param {string} kind */
export function buildEventPage(root, kind) {
  if (root.firstElementChild) return;
  root.append(
    el('div', { id: 'ev-conn', class: 'conn', role: 'status', hidden: true }, [
      el('span', { id: 'ev-conn-text' }),
    ]),
    el('div', { class: 'card ev-head' }, [
      el('h1', { id: 'event-title', tabindex: '-1' }),
      el('p', { id: 'ev-facts', class: 'ev-facts' }),
      el('p', { id: 'ev-state', class: 'ev-state' }),
    ]),
    el('p', { id: 'ev-gone', class: 'card form-error', hidden: true }),
    el('section', { id: 'ev-links', class: 'card share', hidden: true, 'aria-labelledby': 'ev-links-title' }, [
      el('h2', { id: 'ev-links-title', 'data-i18n': 'event.links.title' }),
      el('label', { class: 'ev-link', for: 'ev-public-link', 'data-i18n': 'event.links.public' }),
      el('div', { class: 'share-row' }, [
        el('input', { id: 'ev-public-link', type: 'text', readonly: true }),
        el('button', { type: 'button', id: 'ev-public-copy', class: 'primary', 'data-i18n': 'share.copy' }),
      ]),
      el('label', { class: 'ev-link', for: 'ev-org-link', 'data-i18n': 'event.links.organiser' }),
      el('div', { class: 'share-row' }, [
        el('input', { id: 'ev-org-link', type: 'text', readonly: true, 'aria-describedby': 'ev-org-note' }),
        el('button', { type: 'button', id: 'ev-org-copy', 'data-i18n': 'share.copy' }),
      ]),
      el('p', { id: 'ev-org-note', class: 'muted', 'data-i18n': 'event.links.organiser.note' }),
      el('p', { id: 'ev-links-note', class: 'copy-note', role: 'status' }),
    ]),
    el('section', { id: 'ev-you', class: 'card ev-you', hidden: true, 'aria-labelledby': 'ev-you-title' }, [
      el('h2', { id: 'ev-you-title', tabindex: '-1' }),
      el('p', { id: 'ev-you-text' }),
      el('button', { type: 'button', id: 'ev-you-play', class: 'primary', 'data-i18n': 'event.you.play', hidden: true }),
      el('button', { type: 'button', id: 'ev-you-withdraw', class: 'danger', 'data-i18n': 'event.withdraw', hidden: true }),
      el('p', { class: 'form-error', id: 'ev-you-error', role: 'alert', hidden: true }),
      // The player's own link: his entry on another device.
      el('div', { id: 'ev-you-link-box', hidden: true }, [
        el('label', { class: 'ev-link', for: 'ev-you-link', 'data-i18n': 'event.you.link' }),
        el('div', { class: 'share-row' }, [
          el('input', { id: 'ev-you-link', type: 'text', readonly: true, 'aria-describedby': 'ev-you-link-note' }),
          el('button', { type: 'button', id: 'ev-you-copy', 'data-i18n': 'share.copy' }),
        ]),
        el('p', { id: 'ev-you-link-note', class: 'muted', 'data-i18n': 'event.you.link.note' }),
        el('p', { id: 'ev-you-link-copied', class: 'copy-note', role: 'status' }),
      ]),
    ]),
    el('form', { id: 'ev-join', class: 'card ev-join', hidden: true, novalidate: true, 'aria-labelledby': 'ev-join-title' }, [
      el('h2', { id: 'ev-join-title' }),
      el('p', { id: 'ev-join-text', class: 'muted' }),
      el('label', { id: 'ev-join-label', class: 'ev-link', for: 'ev-join-name', 'data-i18n': 'event.join.name' }),
      el('div', { id: 'ev-join-row', class: 'share-row' }, [
        el('input', { id: 'ev-join-name', type: 'text', autocomplete: 'nickname', maxlength: '24', spellcheck: 'false', required: true, 'aria-describedby': 'ev-join-text ev-join-error' }),
        el('button', { type: 'submit', class: 'primary', id: 'ev-join-go', 'data-i18n': 'event.join.go' }),
      ]),
      el('p', { class: 'form-error', id: 'ev-join-error', role: 'alert', hidden: true }),
    ]),
    el('section', { id: 'ev-org', class: 'card ev-org', hidden: true, 'aria-labelledby': 'ev-org-title' }, [
      el('h2', { id: 'ev-org-title', 'data-i18n': 'event.org.title' }),
      el('p', { id: 'ev-org-text', class: 'muted' }),
      el('div', { class: 'buttons' }, [
        el('button', { type: 'button', id: 'ev-start', class: 'primary', 'data-i18n': 'event.org.start', hidden: true }),
        el('button', { type: 'button', id: 'ev-next', class: 'primary', hidden: true }),
        el('button', { type: 'button', id: 'ev-finish', 'data-i18n': 'event.org.finish', hidden: true }),
      ]),
      el('p', { id: 'ev-org-pairing', class: 'form-error', role: 'status', hidden: true }),
      el('p', { class: 'form-error', id: 'ev-org-error', role: 'alert', hidden: true }),
      // Entries: closed or open, and how many one address may make.
      el('div', { id: 'ev-org-entries', class: 'buttons', hidden: true }, [
        el('button', { type: 'button', id: 'ev-entries-toggle' }),
      ]),
      el('form', { id: 'ev-per-address', class: 'ev-per-address', hidden: true }, [
        el('label', { for: 'ev-per-address-n', 'data-i18n': 'event.org.per_address' }),
        el('input', { id: 'ev-per-address-n', type: 'number', min: '1', max: '256', step: '1', inputmode: 'numeric' }),
        el('button', { type: 'submit', id: 'ev-per-address-go', class: 'small', 'data-i18n': 'event.org.per_address.save' }),
      ]),
      el('p', { class: 'form-error', id: 'ev-entries-error', role: 'alert', hidden: true }),
    ]),
    el('section', { id: 'ev-standings', class: 'card', 'aria-labelledby': 'ev-standings-title' }, [
      el('h2', { id: 'ev-standings-title', 'data-i18n': 'event.standings.title' }),
      el('p', { id: 'ev-standings-none', class: 'muted', 'data-i18n': 'event.standings.none' }),
      el('div', { class: 'ev-table-wrap', role: 'region', tabindex: '0', 'aria-labelledby': 'ev-table-caption' }, [
        el('table', { id: 'ev-table', class: 'ev-table', hidden: true }, [
          el('caption', { id: 'ev-table-caption', class: 'sr-only' }),
          el('thead', {}, [
            el('tr', { id: 'ev-table-head' }),
          ]),
          el('tbody', { id: 'ev-table-body' }),
        ]),
      ]),
      el('button', { type: 'button', id: 'ev-tb-more', class: 'link ev-tb-more', 'aria-controls': 'ev-table', 'aria-expanded': 'false', hidden: true }),
      el('p', { id: 'ev-tiebreaks', class: 'muted' }),
      el('p', { class: 'ev-export' }, [
        el('a', { id: 'ev-trf', class: 'button small', download: true, 'data-i18n': 'event.export.trf' }),
        el('a', { id: 'ev-csv', class: 'button small', download: true, 'data-i18n': 'event.export.csv' }),
      ]),
    ]),
    el('section', { id: 'ev-rounds', class: 'card', 'aria-labelledby': 'ev-rounds-title' }, [
      el('h2', { id: 'ev-rounds-title', 'data-i18n': 'event.rounds.title' }),
      el('p', { id: 'ev-rounds-none', class: 'muted', 'data-i18n': 'event.rounds.none' }),
      el('div', { id: 'ev-round-list' }),
    ]),
    el('section', { id: 'ev-players', class: 'card', 'aria-labelledby': 'ev-players-title' }, [
      el('h2', { id: 'ev-players-title' }),
      el('ol', { id: 'ev-player-list', class: 'ev-players' }),
    ]),
    el('p', {}, [
      el('a', { class: 'button', href: './', id: 'ev-home', 'data-i18n': 'action.home' }),
    ]),
  );
  applyStatic(root, kind);
}

// An element the keyboard's focus may stay on: on the page and shown.
const shown = (el) => el.isConnected && !el.closest('[hidden]') && el.getClientRects().length > 0;

// Draws the page, keeping the keyboard's focus: the element that had it
// kept it if it is still shown; else (a button hidden by the event's
// change, a board gone) the heading of its part of the page, else the
// event's title, so that a screen reader's reading goes on from there
// and not from the page's top.
/** @param {EventScreen} ctrl */
export function drawEvent(ctrl) {
  const root = document.getElementById('event');
  const had = /** @type {HTMLElement | null} */ (document.activeElement);
  const inside = had && root && root.contains(had) && had !== root ? had : null;
  const part = inside ? /** @type {HTMLElement | null} */ (inside.closest('#event > *')) : null;
  draw(ctrl);
  const now = document.activeElement;
  if (!inside || focusYou || (now !== inside && now && now !== document.body) || shown(inside)) return;
  const head = part && shown(part) ? /** @type {HTMLElement | null} */ (part.querySelector('h1, h2')) : null;
  const to = head && shown(head) ? head : $('event-title');
  if (!to.hasAttribute('tabindex')) to.setAttribute('tabindex', '-1');
  to.focus();
}

/** @param {EventScreen} ctrl */
function draw(ctrl) {
  const s = ctrl.state;
  const ev = s.event;
  // The game whose words the page speaks: its event's (before it is
  // read, the one created or offered).
  const kind = s.kind;
  drawConn(s);
  const gone = s.stopped === 'no_event';
  const pageError = s.error && s.error.at === 'page' ? s.error.code : null;
  setHidden($('ev-gone'), !gone && !pageError);
  setText($('ev-gone'), gone ? t('event.error.no_event') : pageError ? errorWords(pageError) : '');
  const title = ev ? ev.title : gone ? t('event.page') : t('conn.connecting');
  setText($('event-title'), title);
  document.title = ev ? `${ev.title} · ${tIn(kind, 'app.title')}` : tIn(kind, 'app.title');
  setHidden($('ev-facts'), !ev);
  setHidden($('ev-state'), !ev);
  const parts = ['ev-links', 'ev-you', 'ev-join', 'ev-org', 'ev-standings', 'ev-rounds', 'ev-players'];
  if (!ev) { parts.forEach((id) => setHidden($(id), true)); return; }
  const facts = [t(`event.game.${kindOf(ev.kind)}`), formatText(ev), eventClockText(ev.clock)];
  if (ev.max_players) facts.push(t('event.max', { n: ev.max_players }));
  if (!ev.auto) facts.push(t('event.manual'));
  const rules = (ev.format === 'swiss' ? '' : 'rr.') + (ev.rules === 'fide_2017' ? '2017' : '2025');
  facts.push(t(`event.rules.${rules}`));
  setText($('ev-facts'), facts.join(' · '));
  setText($('ev-state'), stateText(ev));
  setData($('ev-state'), 'state', ev.state);
  drawLinks(s, ev);
  drawYou(s, ev);
  drawJoin(s, ev);
  drawOrganiser(s, ev);
  drawStandings(s, ev);
  drawRounds(s, ev);
  drawPlayers(s, ev);
}

const errorWords = (code) => {
  for (const k of [`event.error.${code}`, `error.${code}`]) {
    const w = t(k);
    if (w !== k) return w;
  }
  return t('error.unknown', { code });
};

// A button whose action waits for its answer: said busy, but not
// disabled (a disabled button would drop the keyboard's focus; the
// controller sends an action once while it waits).
function busy(el, waiting) {
  setAttr(el, 'aria-disabled', waiting ? 'true' : null);
  el.classList.toggle('busy', waiting);
}

// The error of the action at (shown in el), if the last refusal was its.
function drawError(el, s, at) {
  const code = s.error && s.error.at === at ? s.error.code : null;
  setHidden(el, !code);
  setText(el, code ? errorWords(code) : '');
}

function drawConn(s) {
  const line = $('ev-conn');
  let text = '';
  if (s.stopped) text = '';
  else if (s.conn === 'connecting' || s.conn === 'idle') text = s.event && !s.seen ? t('conn.reconnecting.now') : t('conn.connecting');
  // Offline with the event shown (as last seen): what is kept, and what needs the network.
  else if (s.conn === 'retry' && s.event) text = t('event.offline.seen');
  else if (s.conn === 'retry') text = s.retryIn >= 1500 ? t('conn.reconnecting', { s: Math.ceil(s.retryIn / 1000) }) : t('conn.reconnecting.now');
  setHidden(line, !text);
  setText($('ev-conn-text'), text);
}

function drawLinks(s, ev) {
  const org = s.role === 'organiser' && !!s.token;
  setHidden($('ev-links'), !org);
  if (!org) return;
  const pub = eventLink(ev.event, null);
  if ($('ev-public-link').value !== pub) $('ev-public-link').value = pub;
  const own = eventLink(ev.event, s.token);
  if ($('ev-org-link').value !== own) $('ev-org-link').value = own;
}

// The player's game (`you.game`) in a sentence: its round and board, the
// opponent, the colour and who moves first (the player's box, and what
// event.js says when it is paired).
export function gameText(ev, game) {
  const board = ((ev.schedule || []).find((r) => r.round === game.round) || { boards: [] }).boards.find((b) => b.board === game.board);
  const opp = board ? nameOf(ev, game.side === 'south' ? board.black : board.white) : '?';
  const side = tIn(kindOf(ev.kind), `side.${game.side === 'north' ? 'north' : 'south'}`);
  return t(game.side === 'south' ? 'event.you.game.first' : 'event.you.game.second', { round: game.round, board: game.board, name: opp, side });
}

// What the player of entry hears of his boards that changed from prev to
// ev: a result recorded ("Your game of round 1: you won (1–0)."), a bye
// given with a round: {results, byes}, sentences. A game paired is said
// apart (gameText), with the player's own part of the event.
export function ownChanges(prev, ev, entry) {
  const results = [], byes = [];
  const before = new Map();
  for (const r of prev.schedule || []) for (const b of r.boards || []) before.set(`${r.round}:${b.board}`, b);
  for (const r of ev.schedule || []) {
    for (const b of r.boards || []) {
      if (b.white !== entry && b.black !== entry) continue;
      const had = before.get(`${r.round}:${b.board}`);
      if (b.black === null) {
        if (!had) byes.push(t('event.you.bye', { round: r.round }));
        continue;
      }
      if (b.result === null || b.result === undefined || (had && had.result === b.result)) continue;
      const white = b.white === entry;
      const won = white ? ['white', 'white_forfeit'] : ['black', 'black_forfeit'];
      const how = b.result === 'draw' ? 'draw' : won.includes(b.result) ? 'won' : 'lost';
      results.push(t(`event.announce.you.${how}`, { round: r.round, result: resultText(b) }));
    }
  }
  return { results, byes };
}

// The player's own box: the game of the round, a bye, the place at the end.
function drawYou(s, ev) {
  const you = s.mine;
  // (An entry gone before the start leaves no box: the join form says so.)
  const me = you && !mineGone(s, ev) ? (ev.players || [])[you.entry] : null;
  setHidden($('ev-you'), !me);
  if (!me) return;
  setText($('ev-you-title'), t('event.you.title', { name: me.name }));
  const game = you.game;
  let text;
  if (me.withdrawn) text = t('event.you.withdrawn');
  else if (ev.state === 'entry') text = t('event.you.entered');
  else if (game) text = gameText(ev, game);
  else if (ev.state === 'over') {
    const row = (ev.standings || []).find((r) => r.entry === you.entry);
    text = row ? t('event.you.place', { place: row.place, points: row.points }) : t('event.state.over');
  } else {
    const round = (ev.schedule || []).find((r) => r.round === ev.round);
    const board = round && round.boards.find((b) => b.white === you.entry || b.black === you.entry);
    // (A late entry has no board in the round it joined.)
    text = !board ? t('event.you.later', { round: ev.round + 1 })
      : board.black === null ? t('event.you.bye', { round: ev.round }) : t('event.you.waiting', { round: ev.round });
  }
  setText($('ev-you-text'), text);
  setHidden($('ev-you-play'), !game || me.withdrawn);
  setHidden($('ev-you-withdraw'), me.withdrawn || ev.state === 'over');
  // (The organiser who plays has the player's token apart.)
  const token = s.player || (s.role === 'player' ? s.token : null);
  setHidden($('ev-you-link-box'), !token || me.withdrawn || ev.state === 'over');
  const link = token ? eventLink(ev.event, token, 'player') : '';
  if ($('ev-you-link').value !== link) $('ev-you-link').value = link;
  busy($('ev-you-withdraw'), s.busy === 'withdraw');
  drawError($('ev-you-error'), s, 'withdraw');
}

let focusYou = false;  // the join form had the focus when it went
function drawJoin(s, ev) {
  // (The organiser may play in the event too: the form says so.)
  // A player whose entry is gone (withdrawn before the start) may enter again.
  const again = mineGone(s, ev);
  const canJoin = !s.stopped && (again || (s.role !== 'player' && !s.player));
  const open = !!ev.join_open && canJoin;
  // Anyone else is told why nobody may join (not after the end: the page says it is over).
  const closed = !ev.join_open && canJoin && s.role !== 'organiser' && ev.state !== 'over';
  // Joined: the keyboard's focus goes from the form to the player's box
  // (shown with the event that follows the welcome).
  if (!open && !$('ev-join').hidden && $('ev-join').contains(document.activeElement)) focusYou = true;
  if (focusYou && !$('ev-you').hidden) { focusYou = false; $('ev-you-title').focus(); }
  setHidden($('ev-join'), !open && !closed);
  for (const id of ['ev-join-label', 'ev-join-row']) setHidden($(id), !open);
  if (closed) {
    setText($('ev-join-title'), t('event.join.closed.title'));
    setText($('ev-join-text'), t(`event.join.closed.${closedWhy(ev)}`));
    setHidden($('ev-join-error'), true);
    return;
  }
  if (!open) return;
  const late = ev.state === 'running' && ev.format === 'swiss';
  // The organiser's offer to play comes after his controls, a player's
  // form before them (the order of the page is the keyboard's too).
  const org = s.role === 'organiser';
  const before = org ? $('ev-org') : $('ev-you');
  if ($('ev-join').previousElementSibling !== before) before.after($('ev-join'));
  setText($('ev-join-title'), t(org ? 'event.join.organiser.title' : 'event.join.title'));
  setText($('ev-join-text'), late ? t('event.join.late', { n: ev.round }) : again ? t('event.join.again')
    : t(org ? 'event.join.organiser.text' : 'event.join.text'));
  setHidden($('ev-join-text'), false);
  const input = $('ev-join-name');
  if (!input.value && !input.dataset.touched) input.value = myName() || '';
  busy($('ev-join-go'), s.busy === 'join');
  drawError($('ev-join-error'), s, 'join');
}

// Why an event takes no entry (its join_open false, not over): the
// organiser closed them, a round robin started, a Swiss past half its
// rounds (docs/events.md, "Late entries"), else it is full.
export function closedWhy(ev) {
  if (ev.entries_open === false) return 'organiser';
  if (ev.state === 'running') return ev.format === 'swiss' ? 'late' : 'started';
  return 'full';
}

function drawOrganiser(s, ev) {
  const org = s.role === 'organiser' && !!s.token;
  setHidden($('ev-org'), !org);
  if (!org) return;
  const players = (ev.players || []).filter((p) => !p.withdrawn || p.number !== null).length;
  const running = ev.state === 'running';
  const done = running && complete(ev);
  let text;
  if (ev.state === 'entry') text = t('event.org.entry', { n: players });
  else if (ev.state === 'over') text = t('event.org.over');
  else if (!done) text = t('event.org.waiting', { round: ev.round });
  else text = ev.auto ? t('event.org.stuck') : t('event.org.ready', { round: ev.round });
  setText($('ev-org-text'), text);
  setHidden($('ev-start'), ev.state !== 'entry');
  const last = ev.rounds && ev.round >= ev.rounds;
  setHidden($('ev-next'), !done);
  setText($('ev-next'), last ? t('event.org.end') : t('event.org.next', { n: ev.round + 1 }));
  setHidden($('ev-finish'), !done || last);
  busy($('ev-start'), s.busy === 'start');
  busy($('ev-next'), s.busy === 'next');
  busy($('ev-finish'), s.busy === 'finish');
  const at = s.error && ['start', 'next', 'finish'].includes(s.error.at) ? s.error.at : 'start';
  drawError($('ev-org-error'), s, at);
  drawEntries(s, ev);
}

// The organiser's entries: closed or open, the entries one address may
// make, and why a round waits for want of rooms (the server's pairing_error).
function drawEntries(s, ev) {
  const pe = ev.pairing_error;
  setHidden($('ev-org-pairing'), !pe);
  if (pe) setText($('ev-org-pairing'), pe.code === 'too_many_rooms' ? t('event.org.no_rooms') : t(`event.error.${pe.code}`));
  const live = ev.state !== 'over';
  const open = ev.entries_open !== false;
  setHidden($('ev-org-entries'), !live);
  setText($('ev-entries-toggle'), t(open ? 'event.org.entries.close' : 'event.org.entries.reopen'));
  busy($('ev-entries-toggle'), s.busy === 'entries');
  setHidden($('ev-per-address'), !live || !open);
  const input = /** @type {HTMLInputElement} */ ($('ev-per-address-n'));
  if (document.activeElement !== input && Number.isInteger(ev.per_address)) input.value = String(ev.per_address);
  busy($('ev-per-address-go'), s.busy === 'per_address');
  const at = s.error && ['entries', 'per_address'].includes(s.error.at) || (s.error && String(s.error.at).startsWith('remove:')) ? s.error.at : 'entries';
  drawError($('ev-entries-error'), s, at);
}

// ---- the standings ----

const TB_KNOWN = ['buchholz_cut1', 'buchholz', 'sonneborn_berger', 'direct_encounter', 'number_of_wins', 'koya', 'seeds'];
const tbKey = (k) => (TB_KNOWN.includes(k) ? k : 'other');
const TB_SHOWN = 2;  // the tie-breaks a phone's table shows unless asked

function drawStandings(s, ev) {
  setHidden($('ev-standings'), false);
  const rows = Array.isArray(ev.standings) ? ev.standings : [];
  const tbs = Array.isArray(ev.tiebreaks) ? ev.tiebreaks : [];
  setHidden($('ev-standings-none'), rows.length > 0);
  setHidden($('ev-table'), !rows.length);
  setText($('ev-tiebreaks'), tbs.length ? t('event.tb.order', { list: tbs.map((k) => t(`event.tb.${tbKey(k)}`)).join(', ') }) : '');
  setText($('ev-table-caption'), t('event.standings.caption', { title: ev.title }));
  // The head: place, player, points, then the tie-breaks named (short, with the full name).
  const head = $('ev-table-head');
  const cols = ['place', 'name', 'points', ...tbs.map((k) => `tb:${k}`)];
  // On a phone the tie-breaks after the first two fold away (event.css)
  // until asked for: the table fits 360 px without scrolling sideways.
  const more = tbs.length > TB_SHOWN;
  setHidden($('ev-tb-more'), !more || !rows.length);
  const all = more && $('ev-tb-more').getAttribute('aria-expanded') === 'true';
  $('ev-table').parentElement.classList.toggle('all', all);
  setText($('ev-tb-more'), t(all ? 'event.tb.fewer' : 'event.tb.all'));
  const low = (i) => i >= 3 + TB_SHOWN;
  keyedList(head, cols, (c) => c, (c) => {
    const th = document.createElement('th');
    th.scope = 'col';
    if (c.startsWith('tb:')) th.append(document.createElement('abbr'));
    return th;
  }, (th, c) => {
    if (c.startsWith('tb:')) {
      const k = tbKey(c.slice(3));
      const abbr = th.firstChild;
      setText(abbr, t(`event.tb.${k}.short`));
      setAttr(abbr, 'title', t(`event.tb.${k}`));
      setAttr(th, 'aria-label', t(`event.tb.${k}`));
    } else setText(th, t(`event.col.${c}`));
    th.classList.toggle('ev-tb-low', low(cols.indexOf(c)));
  });
  const mine = s.mine ? s.mine.entry : null;
  keyedList($('ev-table-body'), rows, (r) => r.entry, () => document.createElement('tr'), (tr, r) => {
    const cells = [r.place, null, fmtNum(r.points), ...(r.tiebreaks || []).map((v) => fmtNum(v))];
    while (tr.children.length > cells.length) tr.lastChild.remove();
    while (tr.children.length < cells.length) tr.append(document.createElement(tr.children.length === 1 ? 'th' : 'td'));
    cells.forEach((v, i) => {
      const cell = tr.children[i];
      if (i === 1) {
        setAttr(cell, 'scope', 'row');
        const p = (ev.players || [])[r.entry];
        setText(cell, p ? (r.withdrawn ? t('event.player.withdrawn', { name: p.name }) : p.name) : '?');
      } else setText(cell, v);
      cell.classList.toggle('ev-tb-low', low(i));
    });
    tr.classList.toggle('me', r.entry === mine);
  });
  const base = `api/events/${encodeURIComponent(ev.event)}`;
  setAttr($('ev-trf'), 'href', `${base}/trf`);
  setAttr($('ev-csv'), 'href', `${base}/csv`);
  setHidden($('ev-trf').parentElement, ev.state === 'entry');
}

// ---- the rounds and their boards ----

function drawRounds(s, ev) {
  const rounds = Array.isArray(ev.schedule) ? ev.schedule.slice().sort((a, b) => b.round - a.round) : [];
  setHidden($('ev-rounds'), ev.state === 'entry' && !rounds.length);
  setHidden($('ev-rounds-none'), rounds.length > 0);
  const org = s.role === 'organiser' && !!s.token;
  keyedList($('ev-round-list'), rounds, (r) => r.round, (r) => {
    const d = document.createElement('details');
    d.className = 'ev-round';
    // The round in play opens; an earlier one closes when the next is
    // paired, unless the reader opened or closed it or works in it.
    d.open = r.round === ev.round;
    const sum = document.createElement('summary');
    sum.addEventListener('click', () => { d.dataset.touched = '1'; });
    const ol = document.createElement('ol');
    ol.className = 'ev-boards';
    d.append(sum, ol);
    return d;
  }, (d, r) => {
    const boards = r.boards || [];
    // (Not while the keyboard's focus is inside: the organiser is there.)
    if (r.round < ev.round && d.open && !d.dataset.touched && d.dataset.shown === String(r.round) &&
        !d.contains(document.activeElement)) d.open = false;
    d.dataset.shown = String(ev.round);
    // (A bye is no game: it counts neither as a result nor as a board.)
    const games = boards.filter((b) => b.black !== null);
    const done = games.filter((b) => b.result !== null).length;
    setText(d.firstChild, t('event.round.title', { n: r.round, done, total: games.length }));
    keyedList(d.lastChild, boards, (b) => b.board, (b) => makeBoard(r.round, b), (li, b) => drawBoard(li, s, ev, r.round, b, org));
  });
}

// One board: its number, the two names (white first), the result, the
// link to its room, and the organiser's form for its result.
function makeBoard(round, b) {
  const li = document.createElement('li');
  li.className = 'ev-board';
  const line = document.createElement('div');
  line.className = 'ev-board-line';
  const no = document.createElement('span');
  no.className = 'ev-board-no';
  const who = document.createElement('span');
  who.className = 'ev-board-who';
  const res = document.createElement('span');
  res.className = 'ev-board-result';
  // Its link says which board to a screen reader, after the visible word.
  const watch = document.createElement('a');
  watch.className = 'button small ev-watch';
  const which = document.createElement('span');
  which.className = 'sr-only';
  watch.append(document.createElement('span'), which);
  line.append(no, who, res, watch);
  li.append(line);
  const rec = document.createElement('details');
  rec.className = 'ev-record';
  const sum = document.createElement('summary');
  const form = document.createElement('form');
  form.className = 'ev-record-form';
  form.dataset.round = String(round);
  form.dataset.board = String(b.board);
  const sel = document.createElement('select');
  sel.name = 'result';
  // No result chosen beforehand: the organiser picks one.
  for (const r of ['', ...RESULT_CHOICES]) {
    const o = document.createElement('option');
    o.value = r;
    sel.append(o);
  }
  const field = (cls, el) => {
    const l = document.createElement('label');
    l.className = cls;
    l.append(document.createElement('span'), el);
    return l;
  };
  const seeds = (name) => {
    const i = document.createElement('input');
    i.type = 'number';
    i.name = name;
    i.min = '0';
    i.inputMode = 'numeric';
    return i;
  };
  const go = document.createElement('button');
  go.type = 'submit';
  go.className = 'primary small';
  form.append(field('ev-rec-result', sel), field('ev-rec-seeds', seeds('white')), field('ev-rec-seeds', seeds('black')), go);
  rec.append(sum, form);
  const err = document.createElement('p');
  err.className = 'form-error';
  err.setAttribute('role', 'alert');
  err.hidden = true;
  li.append(rec, err);
  return li;
}

function drawBoard(li, s, ev, round, b, org) {
  const kind = s.kind;
  const [line, rec, err] = li.children;
  const [no, who, res, watch] = line.children;
  setText(no, t('event.board.no', { n: b.board }));
  const bye = b.black === null;
  setText(who, bye ? nameOf(ev, b.white) : t('event.board.pair', { white: nameOf(ev, b.white), black: nameOf(ev, b.black) }));
  let result = resultText(b);
  if (seedsGiven(b)) result += ` (${b.seeds[0]}–${b.seeds[1]})`;
  setText(res, result);
  // A result recorded closes its form.
  if (li.dataset.result !== (b.result || 'none') && rec.open) {
    if (rec.contains(document.activeElement)) rec.firstChild.focus();
    rec.open = false;
  }
  setData(li, 'result', b.result || 'none');
  const mine = s.mine && (b.white === s.mine.entry || b.black === s.mine.entry);
  li.classList.toggle('me', !!mine);
  setHidden(watch, !b.room);
  if (b.room) {
    setAttr(watch, 'href', `?room=${encodeURIComponent(b.room)}`);
    setText(watch.firstChild, b.result === null ? t('event.board.watch') : t('event.board.record'));
    setText(watch.lastChild, ` (${t('event.board.watch.label', { n: b.board, white: nameOf(ev, b.white), black: nameOf(ev, b.black) })})`);
  }
  // The organiser records or corrects any board played (not a bye).
  setHidden(rec, !org || bye);
  if (org && !bye) {
    setText(rec.firstChild, b.result === null ? t('event.record.title') : t('event.record.correct'));
    const form = rec.lastChild;
    const [rl, wl, bl, go] = form.children;
    setText(rl.firstChild, t('event.record.result'));
    const sel = rl.lastChild;
    for (const o of sel.options) setText(o, o.value ? t(`event.record.${o.value}`, { white: nameOf(ev, b.white), black: nameOf(ev, b.black) }) : t('event.record.choose'));
    const side = (sd) => tIn(kind, `side.${sd}`);
    setText(wl.firstChild, t('event.record.seeds', { side: side('south'), name: nameOf(ev, b.white) }));
    setText(bl.firstChild, t('event.record.seeds', { side: side('north'), name: nameOf(ev, b.black) }));
    for (const i of [wl.lastChild, bl.lastChild]) setAttr(i, 'max', String(MAX_SEEDS[kind]));
    setText(go, t('event.record.save'));
    busy(go, s.busy === `result:${round}:${b.board}`);
  }
  drawError(err, s, `result:${round}:${b.board}`);
}

function drawPlayers(s, ev) {
  // (An entry gone before the start is not listed: the players counted are those shown.)
  const players = (Array.isArray(ev.players) ? ev.players : []).filter((p) => !gone(p));
  setHidden($('ev-players'), false);
  setText($('ev-players-title'), t('event.players.title', { n: players.length }));
  const mine = s.mine ? s.mine.entry : null;
  // The organiser removes an entry before the start, withdraws a player after.
  const org = s.role === 'organiser' && !!s.token && ev.state !== 'over';
  keyedList($('ev-player-list'), players, (p) => p.entry, () => {
    const li = document.createElement('li');
    li.append(el('span', {}), el('button', { type: 'button', class: 'link small ev-remove', hidden: true }));
    return li;
  }, (li, p) => {
    const marks = [];
    if (p.entry === mine) marks.push(t('event.player.you'));
    if (p.late) marks.push(t('event.player.late'));
    if (p.withdrawn) marks.push(t('event.player.out'));
    setText(li.firstChild, marks.length ? `${p.name} (${marks.join(', ')})` : p.name);
    li.classList.toggle('me', p.entry === mine);
    li.classList.toggle('out', !!p.withdrawn);
    const b = /** @type {HTMLButtonElement} */ (li.lastChild);
    const shown = org && !p.withdrawn;
    setHidden(b, !shown);
    if (shown) {
      const before = ev.state === 'entry';
      setText(b, t(before ? 'event.org.remove' : 'event.org.withdraw'));
      setAttr(b, 'aria-label', t(before ? 'event.org.remove.label' : 'event.org.withdraw.label', { name: p.name }));
      setData(b, 'entry', String(p.entry));
      busy(b, s.busy === `remove:${p.entry}`);
    }
  });
}

// ---- wiring ----

/** @param {() => EventScreen | null} get the page's controller */
export function wireEvent(get) {
  buildEventPage(document.getElementById('event'), get().state.kind);
  const copy = (input) => copyText(input.value, t('share.copied'), input, $('ev-links-note'));
  $('ev-public-copy').addEventListener('click', () => copy($('ev-public-link')));
  $('ev-org-copy').addEventListener('click', () => copy($('ev-org-link')));
  $('ev-public-link').addEventListener('focus', (e) => e.target.select());
  $('ev-org-link').addEventListener('focus', (e) => e.target.select());
  $('ev-you-copy').addEventListener('click', () => copyText($('ev-you-link').value, t('share.copied'), $('ev-you-link'), $('ev-you-link-copied')));
  $('ev-you-link').addEventListener('focus', (e) => e.target.select());
  $('ev-join-name').addEventListener('input', (e) => { e.target.dataset.touched = '1'; });
  $('ev-join').addEventListener('submit', (e) => {
    e.preventDefault();
    const c = get();
    if (c) c.join($('ev-join-name').value);
  });
  $('ev-you-play').addEventListener('click', () => { const c = get(); if (c) c.play(); });
  $('ev-you-withdraw').addEventListener('click', () => { const c = get(); if (c) c.withdraw(); });
  $('ev-tb-more').addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.currentTarget);
    b.setAttribute('aria-expanded', String(b.getAttribute('aria-expanded') !== 'true'));
    const c = get();
    if (c) drawEvent(c);
  });
  $('ev-start').addEventListener('click', () => { const c = get(); if (c) c.start(); });
  $('ev-next').addEventListener('click', () => { const c = get(); if (c) c.next(); });
  $('ev-finish').addEventListener('click', () => { const c = get(); if (c) c.finish(); });
  $('ev-entries-toggle').addEventListener('click', () => {
    const c = get();
    if (c && c.state.event) c.entries({ open: c.state.event.entries_open === false });
  });
  $('ev-per-address').addEventListener('submit', (e) => {
    e.preventDefault();
    const c = get();
    const n = Number(/** @type {HTMLInputElement} */ ($('ev-per-address-n')).value);
    if (c) c.entries({ per_address: n });
  });
  $('ev-player-list').addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target);
    if (!b.classList || !b.classList.contains('ev-remove')) return;
    const c = get();
    if (c) c.remove(Number(b.dataset.entry));
  });
  // A board's result form (made by makeBoard): its round and board in data-.
  $('ev-round-list').addEventListener('submit', (e) => {
    const form = /** @type {HTMLFormElement} */ (e.target);
    if (!form.classList || !form.classList.contains('ev-record-form')) return;
    e.preventDefault();
    const c = get();
    if (!c) return;
    const f = new FormData(form);
    const res = String(f.get('result'));
    const w = String(f.get('white') || ''), b = String(f.get('black') || '');
    const seeds = w === '' && b === '' ? null : [Number(w || 0), Number(b || 0)];
    c.result(Number(form.dataset.round), Number(form.dataset.board), res, seeds);
  });
}
