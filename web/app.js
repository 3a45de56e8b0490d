// app.js: the page: start screen, online room (protocol oware.v1) and the
// local two-player game, drawn with board.js and checked with engine.js.
import { loadEngine, Game, replay, EngineError } from './engine.js';
import { Computer, LEVELS } from './ai.js';
import { t, initLang, setLang, getLang, applyStatic } from './i18n.js';
import { Board } from './board.js';
import { Connection, socketUrl, CLOSE_REPLACED } from './net.js';

const $ = (id) => document.getElementById(id);
const other = (side) => (side === 'south' ? 'north' : 'south');
const sideName = (side) => t(`side.${side}`);
const TOKEN_KEY = (room) => `oware.token.${room}`;
const LOCAL_KEY = 'oware.local';

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage may be off: the seat then lasts as long as the tab */ }
}
function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

// ---------------------------------------------------------------- shared UI

let board = null;
let model = null;      // the game shown: see newModel()
let toastTimer = null;

function newModel(mode) {
  return {
    mode,               // 'online' | 'local'
    room: null,
    seat: null,         // 'south' | 'north' | 'spectator' (online)
    state: null,        // protocol `state` (local: built from the engine)
    replayed: null,     // Game replayed from state.moves (move records)
    review: null,       // ply shown in review, or null for the live position
    shownKey: null,     // game_number:ply the board shows
    pending: null,      // {pit, ply} of a move sent and not yet confirmed
    preview: null,      // engine preview of the hovered pit
    conn: 'idle',       // connection state (online)
    retryIn: 0,
    stopped: null,      // why it stopped reconnecting: 'replaced', 'no_room', 'too_many_spectators'
    flipped: false,     // local: the board turned by hand
    ai: null,           // local against the computer: {level, side}
    thinking: null,     // the id of the computer's pending search
    hint: null,         // {ply, move} the hint shown, or {ply} while it is searched
    claimAt: null,      // ms timestamp when claim becomes possible
  };
}

function toast(text) {
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

function announce(text) {
  const el = $('live');
  el.textContent = '';
  // A fresh text node makes screen readers speak a repeated sentence too.
  setTimeout(() => { el.textContent = text; }, 30);
}

function confirmDialog(text, okLabel) {
  const dlg = $('confirm');
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = okLabel;
  return new Promise((resolve) => {
    const done = () => { dlg.removeEventListener('close', done); resolve(dlg.returnValue === 'ok'); };
    dlg.addEventListener('close', done);
    dlg.returnValue = '';
    if (typeof dlg.showModal === 'function') dlg.showModal();
    else resolve(window.confirm(text));
  });
}

async function copyText(text, okMsg, fallbackEl) {
  try {
    await navigator.clipboard.writeText(text);
    toast(okMsg);
    return true;
  } catch {
    if (fallbackEl) {
      fallbackEl.hidden = false;
      if (fallbackEl.select) fallbackEl.select();
      else {
        const r = document.createRange();
        r.selectNodeContents(fallbackEl);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(r);
      }
    }
    toast(t('error.copy'));
    return false;
  }
}

// The side this browser plays (null: two players on one device, or a
// spectator).
function mySide() {
  if (!model) return null;
  if (model.mode === 'local') return model.ai ? other(model.ai.side) : null;
  return model.seat === 'south' || model.seat === 'north' ? model.seat : null;
}

function viewSide() {
  const base = mySide() || 'south';
  return model.mode === 'local' && model.flipped ? other(base) : base;
}

function lastText(last, mover) {
  if (!last) return '';
  const side = sideName(mover);
  if (last.grand_slam) return t('last.slam', { side, pit: last.pit });
  if (last.seeds > 0) return t('last.capture', { side, pit: last.pit, n: last.seeds, pits: last.captured.join(', ') });
  return t('last.move', { side, pit: last.pit });
}

function moverOf(pit) { return pit === pit.toLowerCase() ? 'south' : 'north'; }

function resultText(game) {
  const me = mySide();
  if (game.reason === 'aborted' || !game.winner) return t('over.aborted');
  if (game.winner === 'draw') return t('over.draw');
  if (me) return game.winner === me ? t('over.you_win') : t('over.you_lose');
  return t('over.winner', { side: sideName(game.winner) });
}

function recordText() {
  const st = model.state;
  const g = st.game;
  const lines = [t('record.header'), new Date().toISOString().slice(0, 10)];
  if (g.over) {
    // The record names sides, not "you".
    const neutral = g.reason === 'aborted' || !g.winner ? t('over.aborted')
      : g.winner === 'draw' ? t('over.draw') : t('over.winner', { side: sideName(g.winner) });
    lines.push(`${t('record.result')}: ${neutral} ${g.reason ? `(${t(`reason.${g.reason}`)})` : ''}`.trim());
    lines.push(t('over.score', { south: g.captured.south, north: g.captured.north }));
  }
  lines.push('', formatMoves(st.moves, model.replayed));
  return lines.join('\n');
}

// "1. a F 2. c+3 A" ; +N marks seeds captured.
function formatMoves(moves, game) {
  const parts = [];
  moves.forEach((m, i) => {
    const info = game && game.history[i];
    const s = m + (info && info.seeds ? `+${info.seeds}` : '');
    if (i % 2 === 0) parts.push(`${i / 2 + 1}. ${s}`);
    else parts[parts.length - 1] += ` ${s}`;
  });
  return parts.join(' ');
}

// ------------------------------------------------------------------ render

function renderAll() {
  if (!model || !model.state) return;
  const st = model.state;
  const g = st.game;
  const me = mySide();
  const online = model.mode === 'online';
  const opp = me ? other(me) : null;
  const seats = st.seats || { south: { taken: true, connected: true }, north: { taken: true, connected: true } };
  const bothSeated = seats.south.taken && seats.north.taken;
  const connected = !online || model.conn === 'open';

  $('game').classList.add('has-state');
  document.body.dataset.mode = model.mode;
  document.body.dataset.seat = model.seat || '';
  board.setView(viewSide());
  // Stores: left is the far player's, right the near player's.
  const near = viewSide(), far = other(near);
  board.stores = { [far]: document.querySelector('.store-left'), [near]: document.querySelector('.store-right') };

  // Board contents: the live position, or the review position.
  let shownGame = g;
  let shownLast = st.last;
  const reviewing = model.review !== null && model.replayed;
  if (reviewing) {
    const r = replay(st.moves.slice(0, model.review));
    shownGame = r.state();
    shownLast = model.review > 0 ? r.history[model.review - 1] : null;
    board.finish();
    board.show(shownGame);
    model.shownKey = null;
  } else {
    const key = `${st.game_number}:${st.moves.length}`;
    if (model.shownKey !== key) {
      const prev = model.prevGame;
      const step = prev && model.prevKey === `${st.game_number}:${st.moves.length - 1}` && st.last;
      model.shownKey = key;
      if (step) board.animate(prev, st.last, g).then(() => renderAll());
      else { board.finish(); board.show(g); }
    } else if (!board.anim) {
      board.show(g);
    }
    model.prevGame = g;
    model.prevKey = key;
  }
  board.markLast(shownLast);

  // Which pits respond.
  let canMove = false;
  if (!reviewing && !g.over) {
    if (!online) canMove = !model.ai || g.turn === me;
    else canMove = me === g.turn && bothSeated && connected && !model.pending;
  }
  board.setLegal(canMove && !board.anim ? g.legal : []);
  if (!canMove && model.preview) { model.preview = null; board.markPreview(null); }
  $('board').classList.toggle('my-turn', canMove);

  // Players: the one nearest is at the bottom.
  drawPlayer($('player-bottom'), near, seats, shownGame, g);
  drawPlayer($('player-top'), far, seats, shownGame, g);

  // Status line.
  let status = '';
  if (online && model.stopped) status = '';
  else if (reviewing) status = model.review === 0 ? t('review.start') : t('review.position', { n: model.review, total: st.moves.length });
  else if (g.over) status = '';
  else if (online && !bothSeated) status = me ? '' : t('turn.side', { side: sideName(g.turn) });
  else if (online && model.pending) status = t('turn.sending');
  else if (online && !connected) status = t('turn.side', { side: sideName(g.turn) });
  else if (!online && model.ai) status = g.turn === me ? t('turn.yours') : t('ai.thinking');
  else if (!online) status = t('turn.local', { side: sideName(g.turn) });
  else if (me === g.turn) status = t('turn.yours');
  else if (me) status = t('turn.theirs', { side: sideName(g.turn) });
  else status = t('turn.side', { side: sideName(g.turn) });
  $('status').textContent = status;
  $('status').classList.toggle('mine', canMove);
  // The tab's title says when it is this player's move.
  document.title = online && canMove ? `● ${t('title.turn')} · ${t('app.title')}` : t('app.title');

  // Note: a preview, else the last move in words.
  let note = '';
  if (model.preview && !reviewing) {
    const m = model.preview.move;
    const land = m.sown[m.sown.length - 1];
    if (m.grand_slam) note = t('preview.slam', { pit: land });
    else if (m.seeds) note = t('preview.captures', { pit: land, n: m.seeds });
    else note = t('preview.lands', { pit: land });
  } else if (model.hint && model.hint.move && model.hint.ply === st.moves.length && canMove) {
    note = t('hint.note', { pit: model.hint.move });
  } else if (shownLast) {
    note = lastText(shownLast, moverOf(shownLast.pit));
  }
  let away = false;
  if (online && connected && bothSeated && !g.over && opp && !seats[opp].connected && !reviewing && !model.preview) {
    away = true;
    if (seats[opp].claimable) note = t('wait.claimable');
    else if (model.claimAt && g.turn === opp) {
      const s = Math.max(0, Math.ceil((model.claimAt - Date.now()) / 1000));
      note = `${t('wait.reconnect')} ${t('wait.claim_in', { s })}`;
    } else note = t('wait.reconnect');
  }
  $('note').textContent = note;
  $('note').classList.toggle('slam', !!(shownLast && shownLast.grand_slam && !model.preview && !away));
  $('note').classList.toggle('away', away);

  // Share card while waiting for the opponent.
  $('share').hidden = !(online && me && !bothSeated && !g.over);
  if (online && model.room) $('share-link').value = roomLink(model.room);

  // Offers.
  const offer = $('offer');
  let offerKind = null;
  if (online && me) {
    if (!g.over && st.draw_offer === opp) offerKind = 'draw';
    if (g.over && st.rematch_offer === opp) offerKind = 'rematch';
  }
  offer.hidden = !offerKind;
  if (offerKind) {
    offer.dataset.kind = offerKind;
    $('offer-text').textContent = t(offerKind === 'draw' ? 'action.draw.incoming' : 'action.rematch.incoming');
    $('offer-accept').textContent = t(offerKind === 'draw' ? 'action.draw.accept' : 'action.rematch.accept');
  }

  // Actions.
  const act = (id, show, disabled = false) => { const b = $(id); b.hidden = !show; b.disabled = disabled; };
  const playing = online && me && !g.over;
  const mineOffer = (online && me && !g.over && st.draw_offer === me);
  act('act-draw', playing && bothSeated && st.draw_offer !== opp, mineOffer || !connected);
  $('act-draw').textContent = mineOffer ? t('action.draw.offered') : t('action.draw.offer');
  act('act-abort', playing && st.moves.length < 2, !connected);
  act('act-claim', playing && opp && !!seats[opp].claimable, !connected);
  act('act-resign', playing && bothSeated && st.moves.length >= 2, !connected);
  const rematchMine = online && me && g.over && st.rematch_offer === me;
  act('act-rematch', online && me && g.over && st.rematch_offer !== opp, rematchMine || !connected);
  $('act-rematch').textContent = rematchMine ? t('action.rematch.offered') : t('action.rematch');
  act('act-new', !online);
  const hintNow = model.hint && model.hint.ply === st.moves.length;
  act('act-hint', !online && canMove, !!(hintNow && !model.hint.move));
  $('act-hint').textContent = hintNow && !model.hint.move ? t('ai.thinking.short') : t('action.hint');
  board.markHint(hintNow && model.hint.move && !reviewing && canMove ? model.hint.move : null);
  act('act-undo', !online, !online && undoCount() === 0);
  act('act-flip', !online);
  act('act-home', true);

  // Game over.
  $('over').hidden = !g.over;
  if (g.over) {
    $('over-result').textContent = resultText(g);
    $('over-reason').textContent = g.reason ? t(`reason.${g.reason}`) : '';
    $('over-score').textContent = t('over.score', { south: g.captured.south, north: g.captured.north });
    $('over').dataset.outcome = !mySide() || !g.winner || g.winner === 'draw' ? 'neutral' : (g.winner === mySide() ? 'win' : 'loss');
  }

  drawMoves();
  $('review').hidden = !(g.over && st.moves.length > 0);
  if (!$('review').hidden) {
    const at = model.review === null ? st.moves.length : model.review;
    $('rv-first').disabled = $('rv-prev').disabled = at === 0;
    $('rv-next').disabled = $('rv-last').disabled = at === st.moves.length;
    $('review-pos').textContent = at === 0 ? t('review.start') : t('review.position', { n: at, total: st.moves.length });
  }
  $('record-copy').hidden = st.moves.length === 0;

  drawConn();
  if (model.ai) aiTurn();
}

function drawPlayer(el, side, seats, shownGame, liveGame) {
  const me = mySide();
  const seat = seats[side];
  let name = sideName(side);
  if (me === side) name = t('seat.you', { side: sideName(side) });
  else if (model.ai && model.ai.side === side) name = t('ai.name', { side: sideName(side), level: t(`ai.level.${model.ai.level}`) });
  el.querySelector('.player-name').textContent = name;
  // While this page is offline it knows nobody's presence.
  const known = model.mode === 'online' && model.conn === 'open';
  const here = known && seat.taken && seat.connected;
  let status = '';
  if (known) {
    if (!seat.taken) status = t('seat.waiting');
    else status = seat.connected ? t('seat.connected') : t('seat.disconnected');
  }
  el.querySelector('.player-status').textContent = status;
  el.querySelector('.player-score').textContent = String(shownGame.captured[side]);
  el.querySelector('.player-turn').textContent = t('player.turn');
  el.dataset.side = side;
  el.classList.toggle('online', here);
  el.classList.toggle('absent', model.mode === 'online' && !here);
  const started = model.mode !== 'online' || (seats.south.taken && seats.north.taken);
  el.classList.toggle('turn', started && !liveGame.over && liveGame.turn === side && model.review === null);
}

function drawMoves() {
  const st = model.state;
  const list = $('moves');
  const items = [];
  const hist = model.replayed ? model.replayed.history : [];
  for (let i = 0; i < st.moves.length; i += 2) {
    const li = document.createElement('li');
    for (let k = i; k < Math.min(i + 2, st.moves.length); k++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv';
      b.dataset.ply = String(k + 1);
      const info = hist[k];
      b.textContent = st.moves[k] + (info && info.seeds ? ` +${info.seeds}` : '');
      if (info && info.grand_slam) b.classList.add('slam');
      const current = model.review === null ? st.moves.length : model.review;
      if (k + 1 === current) b.setAttribute('aria-current', 'step');
      b.disabled = !st.game.over;
      li.appendChild(b);
    }
    items.push(li);
  }
  list.replaceChildren(...items);
  $('moves-none').hidden = st.moves.length > 0;
  $('record-text').textContent = recordText();
}

function drawConn() {
  const el = $('conn');
  const btn = $('conn-action');
  if (model.mode !== 'online') { el.hidden = true; return; }
  btn.hidden = true;
  let text = '';
  let kind = 'warn';
  if (model.stopped === 'replaced') {
    text = t('conn.replaced');
    btn.hidden = false;
    btn.textContent = t('conn.takeback');
    btn.dataset.action = 'takeback';
  } else if (model.stopped) {
    text = model.stopped === 'no_room' ? t('conn.noroom') : errorText(model.stopped);
    btn.hidden = false;
    btn.textContent = t('conn.home');
    btn.dataset.action = 'home';
  } else if (model.conn === 'retry') {
    const left = Math.ceil((model.retryAt - Date.now()) / 1000);
    text = left >= 1 ? t('conn.reconnecting', { s: left }) : t('conn.reconnecting.now');
    if (model.retryIn >= 1500) {
      btn.hidden = false;
      btn.textContent = t('conn.retry');
      btn.dataset.action = 'retry';
    }
  } else if (model.conn === 'connecting' && model.everJoined) {
    text = t('conn.reconnecting.now');
  } else if (model.seat === 'spectator') {
    text = t('role.spectator');
    kind = 'info';
    const n = model.state ? model.state.spectators : 0;
    if (n > 1) text += ` · ${t('seat.spectators', { n })}`;
  }
  el.hidden = !text;
  el.dataset.kind = kind;
  $('conn-text').textContent = text;
}

function roomLink(room) {
  const u = new URL(window.location.href);
  u.search = '';
  u.hash = '';
  u.searchParams.set('room', room);
  return u.href;
}

// Keeps model.replayed in step with state.moves (the engine's records of
// every move) and checks the server's board against the engine.
function syncReplay() {
  const st = model.state;
  let g = model.replayed;
  const same = g && model.replayedGame === st.game_number && g.moves.length <= st.moves.length &&
    g.moves.every((m, i) => m === st.moves[i]);
  try {
    if (!same) { g = Game.start(); model.replayedGame = st.game_number; }
    for (let i = g.moves.length; i < st.moves.length; i++) g.play(st.moves[i]);
    model.replayed = g;
  } catch (e) {
    model.replayed = null;  // a record the engine refuses: show the server's view only
    console.warn('replay failed', e);
  }
}

// ------------------------------------------------------------------ online

let conn = null;

function startOnline(room, createSide) {
  model = newModel('online');
  $('game').classList.remove('has-state');
  model.room = room;
  model.createSide = createSide || null;
  show('game');
  conn = new Connection({
    url: () => socketUrl(model.room),
    hello: () => {
      if (!model.room) return { type: 'create', side: model.createSide };
      const token = load(TOKEN_KEY(model.room));
      return token ? { type: 'join', room: model.room, token } : { type: 'join', room: model.room };
    },
    message: onMessage,
    status: ({ state, retryIn }) => {
      model.conn = state;
      model.retryIn = retryIn;
      model.retryAt = Date.now() + retryIn;
      // Count the wait down on screen.
      clearInterval(model.retryTimer);
      if (state === 'retry' && retryIn >= 1500) {
        model.retryTimer = setInterval(() => { if (model && model.conn === 'retry') drawConn(); }, 1000);
      }
      if (state === 'retry' || state === 'connecting') model.pendingAck = true;
      if (model.state) renderAll(); else drawConnBare();
    },
    closed: (code) => {
      if (code === CLOSE_REPLACED) { model.stopped = 'replaced'; return false; }
      if (model.stopped) return false;
      return true;
    },
  });
  conn.open();
  if (model.room) drawConnBare();
}

function drawConnBare() {
  // Before the first state: only the connection line.
  const el = $('conn');
  el.hidden = false;
  el.dataset.kind = 'info';
  $('conn-action').hidden = !model.stopped;
  if (model.stopped) {
    $('conn-text').textContent = model.stopped === 'no_room' ? t('conn.noroom') : errorText(model.stopped);
    $('conn-action').textContent = t('conn.home');
    $('conn-action').dataset.action = 'home';
  } else if (model.conn === 'retry') {
    $('conn-text').textContent = t('conn.reconnecting.now');
  } else {
    $('conn-text').textContent = t('conn.connecting');
  }
}

function onMessage(msg) {
  switch (msg.type) {
  case 'welcome': {
    const first = !model.room;
    model.room = msg.room;
    model.seat = msg.seat;
    model.everJoined = true;
    if (msg.token) store(TOKEN_KEY(msg.room), msg.token);
    if (first) {
      const u = new URL(window.location.href);
      u.search = '';
      u.searchParams.set('room', msg.room);
      window.history.replaceState(null, '', u.href);
    }
    conn.joined();
    break;
  }
  case 'state': onState(msg); break;
  case 'error': onError(msg); break;
  default: break;
  }
}

function onState(st) {
  const prev = model.state;
  if (prev && st.version !== undefined && prev.version !== undefined && st.version < prev.version &&
      st.game_number === prev.game_number) return;  // an old state after a newer one
  const firstState = !prev;
  model.state = st;
  if (prev && prev.game_number !== st.game_number) {
    model.review = null;
    model.prevGame = null;
    announce(t('announce.start'));
  }
  if (model.pending) {
    const p = model.pending;
    if (st.moves.length > p.ply || st.game.over) model.pending = null;
    else if (st.moves.length === p.ply && conn.connected && model.pendingAck) {
      // Reconnected with a move unconfirmed: send it again (the server
      // treats a repeat of a recorded move as a resend).
      model.pendingAck = false;
      conn.send({ type: 'move', pit: p.pit, ply: p.ply });
    }
  }
  model.pendingAck = false;
  syncReplay();
  // claim_in counts down from now.
  model.claimAt = st.claim_in !== null && st.claim_in !== undefined ? Date.now() + st.claim_in * 1000 : null;
  scheduleTick();
  if (firstState) {
    $('conn').hidden = true;
  } else {
    announceChange(prev, st);
  }
  renderAll();
}

function announceChange(prev, st) {
  const me = mySide();
  const parts = [];
  if (prev.game_number === st.game_number && st.moves.length === prev.moves.length + 1 && st.last) {
    const mover = moverOf(st.last.pit);
    if (mover !== me) parts.push(lastText(st.last, mover));
  }
  if (me && prev.seats && !prev.seats[other(me)].taken && st.seats[other(me)].taken) parts.push(t('announce.opponent_joined'));
  if (!prev.game.over && st.game.over) parts.push(`${resultText(st.game)} ${st.game.reason ? t(`reason.${st.game.reason}`) : ''}`);
  else if (me && !st.game.over && st.game.turn === me && (prev.game.turn !== me || prev.game_number !== st.game_number) && st.seats[other(me)].taken) parts.push(t('announce.turn'));
  if (st.draw_offer && st.draw_offer !== prev.draw_offer && st.draw_offer !== me) parts.push(t('action.draw.incoming'));
  if (st.rematch_offer && st.rematch_offer !== prev.rematch_offer && st.rematch_offer !== me) parts.push(t('action.rematch.incoming'));
  if (parts.length) announce(parts.join(' '));
}

let tickTimer = null;
function scheduleTick() {
  clearInterval(tickTimer);
  if (model.claimAt) tickTimer = setInterval(() => { if (model && model.claimAt) renderAll(); }, 1000);
}

function onError(msg) {
  const code = msg.code;
  if (code === 'bad_token' && model.room) {
    store(TOKEN_KEY(model.room), null);
    toast(t('error.bad_token'));
    conn.send({ type: 'join', room: model.room });
    return;
  }
  if (code === 'no_room' || (code === 'too_many_spectators' && !model.state)) {
    model.stopped = code;
    if (code === 'no_room') store(TOKEN_KEY(model.room), null);
    conn.stop();
    if (model.state) renderAll(); else drawConnBare();
    return;
  }
  if (code === 'replaced') { model.stopped = 'replaced'; renderAll(); return; }
  if (!model.room && !model.state) {  // create failed: back to the start page
    conn.stop();
    showStart(errorText(code));
    return;
  }
  if (model.pending && ['illegal_move', 'not_your_turn', 'stale_ply', 'game_over', 'opponent_missing'].includes(code)) {
    model.pending = null;
    model.shownKey = null;  // undo the optimistic animation
  }
  toast(errorText(code));
  if (model.state) renderAll();
}

function engineText(code) {
  const key = `engine.${code}`;
  const text = t(key);
  return text === key ? t('error.illegal_move') : text;
}

function errorText(code) {
  const key = `error.${code}`;
  const text = t(key);
  return text === key ? t('error.unknown', { code }) : text;
}

function sendAction(obj) {
  if (!conn || !conn.send(obj)) toast(t('conn.reconnecting.now'));
}

// ------------------------------------------------------------------- local

function saveLocal() {
  store(LOCAL_KEY, JSON.stringify({ moves: model.replayed.moves, ai: model.ai, flipped: model.flipped }));
}

function readLocal() {
  try {
    const saved = JSON.parse(load(LOCAL_KEY) || 'null');
    if (!saved || !Array.isArray(saved.moves)) return null;
    const ai = saved.ai && LEVELS.includes(saved.ai.level) && ['south', 'north'].includes(saved.ai.side)
      ? { level: saved.ai.level, side: saved.ai.side } : null;
    return { moves: saved.moves.filter((m) => typeof m === 'string'), ai, flipped: !!saved.flipped };
  } catch { return null; }
}

// Starts a new local game: ai null (two players) or {level, side}.
function newLocal(ai) {
  store(LOCAL_KEY, JSON.stringify({ moves: [], ai }));
  window.location.href = '?local=1';
}

function startLocal() {
  model = newModel('local');
  const saved = readLocal();
  let g = Game.start();
  if (saved) {
    try { g = replay(saved.moves); } catch { g = Game.start(); }
    model.ai = saved.ai;
    model.flipped = saved.flipped;
  }
  model.replayed = g;
  localState();
  show('game');
  renderAll();
}

// The computer's turn: web/ai.js searches in a worker while the page lives.
let computer = null;
let aiSeq = 0;
function aiTurn() {
  if (!model || model.mode !== 'local' || !model.ai || model.thinking || board.anim) return;
  const g = model.replayed;
  if (g.over || model.review !== null || g.state().turn !== model.ai.side) return;
  const id = ++aiSeq;
  model.thinking = id;
  const moves = g.moves.slice();
  const started = Date.now();
  if (!computer) computer = new Computer();
  // Easy's slips vary from game to game and move to move.
  const seed = (model.aiSeed = model.aiSeed || (Date.now() >>> 0)) + moves.length;
  computer.best({ moves, level: model.ai.level, seed }).then((r) => {
    // A short pause, so a quick reply still reads as a move.
    setTimeout(() => {
      if (!model || model.thinking !== id) return;
      model.thinking = null;
      if (model.replayed.moves.length === moves.length) playLocal(r.move);
    }, Math.max(0, 500 - (Date.now() - started)));
  }, (e) => {
    if (!model || model.thinking !== id) return;
    model.thinking = null;
    if (!(e && e.cancelled)) toast(t('error.unknown', { code: 'ai' }));
  });
}

function localState() {
  const g = model.replayed;
  const n = g.moves.length;
  model.state = {
    game_number: model.localGame || 1,
    game: g.state(),
    moves: g.moves.slice(),
    last: n ? g.history[n - 1] : null,
    seats: null,
    draw_offer: null,
    rematch_offer: null,
  };
}

function playLocal(letter) {
  const g = model.replayed;
  let info;
  try { info = g.play(letter); } catch (e) {
    if (e instanceof EngineError) toast(engineText(e.code));
    return;
  }
  localState();
  model.preview = null;
  board.markPreview(null);
  saveLocal();
  announce(lastText(info, moverOf(letter)) + (model.state.game.over ? ` ${resultText(model.state.game)}` : ''));
  renderAll();
}

// How many moves Undo takes back now: with two players the last one;
// against the computer, back to before the player's last move (so the
// computer's reply too, once it came); 0 when there is none.
function undoCount() {
  const moves = model.replayed ? model.replayed.moves : [];
  if (!model.ai) return moves.length ? 1 : 0;
  const me = other(model.ai.side);
  for (let i = moves.length - 1; i >= 0; i--) if (moverOf(moves[i]) === me) return moves.length - i;
  return 0;
}

function undoLocal() {
  if (!model || model.mode !== 'local') return;
  const k = undoCount();
  if (!k) return;
  const hadFocus = document.activeElement === $('act-undo');
  const moves = model.replayed.moves;
  const gone = moves.slice(moves.length - k);
  // A search of the computer (its move or a hint) is about a position that
  // goes away: stop it.
  if (computer && (model.thinking || (model.hint && !model.hint.move))) computer.cancel();
  model.thinking = null;
  model.hint = null;
  model.review = null;
  model.preview = null;
  board.markPreview(null);
  board.finish();
  model.replayed = replay(moves.slice(0, moves.length - k));
  localState();
  saveLocal();
  const said = k === 1 ? t('undo.one', { move: gone[0] }) : t('undo.two', { first: gone[0], second: gone[1] });
  const turn = model.ai ? t('announce.turn') : t('turn.local', { side: sideName(model.state.game.turn) });
  announce(`${said} ${turn}`);
  renderAll();
  // A focused button that turns disabled drops the focus: keep it nearby.
  if (hadFocus && $('act-undo').disabled) $('act-new').focus();
}

// -------------------------------------------------------------- the moves

function playOnline(letter) {
  const st = model.state;
  const ply = st.moves.length;
  // Show the move at once (the engine agrees with the server), then confirm.
  let g, info;
  try {
    g = replay(st.moves);
    info = g.play(letter);
  } catch (e) {
    if (e instanceof EngineError && e.ply === undefined) toast(engineText(e.code));
    else sendAction({ type: 'move', pit: letter, ply });  // let the server judge
    return;
  }
  model.pending = { pit: letter, ply };
  model.preview = null;
  board.markPreview(null);
  const before = st.game;
  const after = g.state();
  model.shownKey = `${st.game_number}:${ply + 1}`;
  model.prevGame = after;
  model.prevKey = model.shownKey;
  board.setLegal([]);
  board.markLast(info);
  board.animate(before, info, after).then(() => { if (model.state) renderAll(); });
  sendAction({ type: 'move', pit: letter, ply });
  renderAll();
}

function onPlay(letter) {
  if (!model || !model.state || model.review !== null) return;
  if (model.mode === 'local') playLocal(letter);
  else playOnline(letter);
}

function onPreview(letter) {
  if (!model || !model.state) return;
  if (!letter) {
    model.preview = null;
  } else {
    try {
      const g = model.mode === 'local' ? model.replayed : replay(model.state.moves);
      const p = g.preview(letter);
      model.preview = p.error ? null : p;
    } catch {
      model.preview = null;  // a record the engine refuses: no preview
    }
  }
  board.markPreview(model.preview);
  renderAll();
}

// --------------------------------------------------------------- controls

function reviewTo(ply) {
  const n = model.state.moves.length;
  const at = Math.max(0, Math.min(n, ply));
  model.review = at === n ? null : at;
  renderAll();
}

function wire() {
  board = new Board($('board'), {}, { onPlay, onPreview });

  $('lang').addEventListener('click', () => {
    setLang(getLang() === 'es' ? 'en' : 'es');
    if (model && model.state) renderAll();
    else if (model && model.mode === 'online') drawConnBare();
  });

  $('create-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const side = new FormData(ev.target).get('side') || 'random';
    $('create').disabled = true;
    $('create').textContent = t('start.creating');
    startOnline(null, side);
  });

  $('share-copy').addEventListener('click', () => copyText($('share-link').value, t('share.copied'), $('share-link')));
  $('share-link').addEventListener('focus', (ev) => ev.target.select());
  // Phones offer their own share sheet (messaging apps) besides the copy.
  if (typeof navigator.share === 'function') {
    $('share-native').hidden = false;
    $('share-native').addEventListener('click', () => {
      navigator.share({ title: t('app.title'), text: t('share.message'), url: $('share-link').value }).catch(() => {});
    });
  }

  $('act-draw').addEventListener('click', () => sendAction({ type: 'draw', action: 'offer' }));
  $('act-abort').addEventListener('click', () => sendAction({ type: 'abort' }));
  $('act-claim').addEventListener('click', () => sendAction({ type: 'claim' }));
  $('act-rematch').addEventListener('click', () => sendAction({ type: 'rematch', action: 'offer' }));
  $('act-resign').addEventListener('click', async () => {
    if (await confirmDialog(t('action.resign.confirm'), t('action.resign.yes'))) sendAction({ type: 'resign' });
  });
  $('offer-accept').addEventListener('click', () => {
    const kind = $('offer').dataset.kind;
    sendAction({ type: kind, action: 'accept' });
  });
  $('offer-decline').addEventListener('click', () => {
    const kind = $('offer').dataset.kind;
    sendAction({ type: kind, action: 'decline' });
  });
  $('act-new').addEventListener('click', async () => {
    const g = model.replayed;
    if (g.moves.length && !g.over && !(await confirmDialog(`${t('action.newgame')}?`, t('action.newgame')))) return;
    model.replayed = Game.start();
    model.localGame = (model.localGame || 1) + 1;
    model.review = null;
    model.thinking = null;
    model.aiSeed = 0;
    if (computer) { computer.cancel(); computer.newGame().catch(() => {}); }
    localState();
    saveLocal();
    announce(t('announce.start'));
    renderAll();
  });
  $('act-hint').addEventListener('click', () => {
    const moves = model.replayed.moves.slice();
    model.hint = { ply: moves.length };
    renderAll();
    if (!computer) computer = new Computer();
    computer.hint({ moves }).then((r) => {
      if (!model || !model.hint || model.hint.ply !== moves.length || model.replayed.moves.length !== moves.length) return;
      model.hint = { ply: moves.length, move: r.move };
      announce(t('hint.note', { pit: r.move }));
      renderAll();
    }, () => { if (model) { model.hint = null; renderAll(); } });
  });
  $('act-undo').addEventListener('click', undoLocal);
  $('act-flip').addEventListener('click', () => { model.flipped = !model.flipped; saveLocal(); renderAll(); });
  $('local-play').addEventListener('click', () => newLocal(null));
  $('local-resume').addEventListener('click', () => { window.location.href = '?local=1'; });
  $('ai-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const mine = f.get('ai-side') === 'north' ? 'north' : 'south';
    const level = LEVELS.includes(f.get('ai-level')) ? f.get('ai-level') : 'medium';
    newLocal({ level, side: other(mine) });
  });
  $('conn-action').addEventListener('click', () => {
    const action = $('conn-action').dataset.action;
    if (action === 'home') { window.location.href = './'; return; }
    if (action === 'retry') { conn.nudge(); return; }
    model.stopped = null;
    conn.open();
  });

  $('rv-first').addEventListener('click', () => reviewTo(0));
  $('rv-prev').addEventListener('click', () => reviewTo((model.review === null ? model.state.moves.length : model.review) - 1));
  $('rv-next').addEventListener('click', () => reviewTo((model.review === null ? model.state.moves.length : model.review) + 1));
  $('rv-last').addEventListener('click', () => reviewTo(model.state.moves.length));
  $('moves').addEventListener('click', (ev) => {
    const b = ev.target.closest('button.mv');
    if (b && !b.disabled) reviewTo(Number(b.dataset.ply));
  });
  $('record-copy').addEventListener('click', () => copyText(recordText(), t('record.copied'), $('record-text')));

  document.addEventListener('keydown', (ev) => {
    if (!model || !model.state || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'TEXTAREA' || $('confirm').open) return;
    const g = model.state.game;
    if (g.over && (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight')) {
      const at = model.review === null ? model.state.moves.length : model.review;
      reviewTo(at + (ev.key === 'ArrowLeft' ? -1 : 1));
      ev.preventDefault();
      return;
    }
    if (ev.key.length !== 1 || !/[a-f]/i.test(ev.key)) return;
    // Letters pick a pit of the side to move, whatever the case typed.
    const letter = g.turn === 'south' ? ev.key.toLowerCase() : ev.key.toUpperCase();
    if (board.legal.has(letter)) {
      ev.preventDefault();
      onPlay(letter);
    }
  });

  // Come back quickly when the tab returns or the network does.
  window.addEventListener('online', () => conn && conn.nudge());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && conn) conn.nudge();
  });
}

function show(which) {
  $('loading').hidden = true;
  if (which !== 'start') $('hero-board').querySelectorAll('.row').forEach((r) => r.replaceChildren());
  $('start').hidden = which !== 'start';
  $('game').hidden = which !== 'game';
}

function showStart(error) {
  model = null;
  show('start');
  // A board at rest, for the look of it.
  const hero = new Board($('hero-board'), {});
  const start = Game.start().state();
  hero.show(start);
  hero.setLegal([]);
  $('create').disabled = false;
  $('create').textContent = t('start.create');
  $('create-error').hidden = !error;
  $('create-error').textContent = error || '';
  const saved = readLocal();
  let resumable = false;
  if (saved && saved.moves.length) {
    try { resumable = !replay(saved.moves).over; } catch { resumable = false; }
  }
  $('local-resume').hidden = !resumable;
  if (window.location.search) window.history.replaceState(null, '', './');
}

async function main() {
  initLang();
  applyStatic();
  wire();
  try {
    await loadEngine();
  } catch (e) {
    $('loading').textContent = t('start.error.engine');
    return;
  }
  const params = new URLSearchParams(window.location.search);
  const room = params.get('room');
  if (room) startOnline(room);
  else if (params.has('local')) startLocal();
  else showStart();
  window.owareReady = true;  // for the browser tests
}

main();
