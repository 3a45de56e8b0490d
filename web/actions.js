// actions.js: the share card, an incoming offer, the action buttons and the game-over card: drawn, and their buttons wired to the intents of online.js and local.js.
// @ts-check
import { t, tIn } from './i18n.js';
import { $, copyText } from './ui.js';
import { resultText, resultSentence, declinedText } from './texts.js';
import { undoCount } from './model.js';
import { controlText } from './clock.js';
import { seatName, displayName } from './names.js';
import * as online from './online.js';
import * as local from './local.js';
import { setAttr, setData, setDisabled, setHidden, setText } from './dom.js';
import { kindRec, presetOf } from './kinds.js';
import { nextLevel } from './ai.js';

// What the share sheet says (the room as drawn last).
let sharing = { title: '', text: '' };

// Whether the share card shows: a player's room waiting for the opponent.
/** @param {import('./model.js').Facts} f */
export const shareShown = (f) => !!(f.online && f.me && !f.bothSeated && !f.g.over);

/** @param {import('./model.js').Facts} f */
export function drawShare(f) {
  const { model } = f;
  setHidden($('share'), !shareShown(f));
  if (f.online && model.online.room) $('share-link').value = roomLink(model.online.room);
  if (f.online) sharing = { title: tIn(f.kind, 'app.title'), text: shareText(f) };
  const control = controlText(f.st.clock);
  setHidden($('share-clock'), !control);
  setText($('share-clock'), control ? t('clock.share', { control }) : '');
  const from = fromText(f.kind, f.st);
  setHidden($('share-position'), !from);
  setText($('share-position'), from);
}

// A room from a set-up position says so to everyone in it, over the
// board, with the preset's name where it is one: "From a position:
// Handicap: North gives 4".
/** @param {import('./model.js').Facts} f */
export function drawFromPosition(f) {
  const from = f.online ? fromText(f.kind, f.st) : '';
  setHidden($('from-position'), !from);
  setText($('from-position'), from);
}

/** @param {string} kind @param {any} st */
function fromText(kind, st) {
  if (!st || !st.start) return '';
  const preset = kindRec(kind).studied ? presetOf(st.start) : null;  // the editor's handicaps
  return preset ? t('position.from.named', { name: t(`editor.preset.${preset}`) }) : t('position.from');
}

// What a share sheet says: the invitation, with the time control.
/** @param {import('./model.js').Facts} f */
function shareText(f) {
  const control = controlText(f.st.clock);
  const name = f.me ? seatName(f, f.me) : null;
  const base = name ? tIn(f.kind, 'share.message.named', { name }) : tIn(f.kind, 'share.message');
  if (!control) return base;
  return base.endsWith(':') ? `${base.slice(0, -1)} (${control}):` : `${base} (${control})`;
}

// The page's own address with ?room=: the link to send to the opponent.
function roomLink(room) {
  const u = new URL(window.location.href);
  u.search = '';
  u.hash = '';
  u.searchParams.set('room', room);
  return u.href;
}

/** @param {import('./model.js').Facts} f */
export function drawOffer(f) {
  const { st, g, me, opp } = f;
  const offer = $('offer');
  let offerKind = null;
  if (f.online && me) {
    if (!g.over && st.draw_offer === opp) offerKind = 'draw';
    if (g.over && st.rematch_offer === opp) offerKind = 'rematch';
  }
  const declined = offerKind || !f.online || !me ? null : declinedText(st, me, f.model.online.declined, f.kind);
  setHidden(offer, !offerKind && !declined);
  setHidden(offer.querySelector('.buttons'), !offerKind);
  setData(offer, 'kind', offerKind || (declined ? 'declined' : ''));
  if (offerKind) {
    setText($('offer-text'), t(offerKind === 'draw' ? 'action.draw.incoming' : 'action.rematch.incoming'));
    setText($('offer-accept'), t(offerKind === 'draw' ? 'action.draw.accept' : 'action.rematch.accept'));
  } else if (declined) {
    setText($('offer-text'), declined);
  }
}

/** @type {Promise<typeof import('./event-room.js')> | null} */
let eventLine = null;

/** @param {import('./model.js').Facts} f */
export function drawActions(f) {
  const { st, g, me, opp, online, connected } = f;
  const act = (id, shown, disabled = false) => { const b = $(id); setHidden(b, !shown); setDisabled(b, disabled); };
  const playing = online && me && !g.over;
  const mineOffer = (online && me && !g.over && st.draw_offer === me);
  act('act-draw', playing && f.bothSeated && st.draw_offer !== opp, mineOffer || !connected);
  setText($('act-draw'), mineOffer ? t('action.draw.offered') : t('action.draw.offer'));
  // A club event's board cannot be aborted (the server refuses it: a game
  // of an event is played, resigned, or given a result by the organiser).
  const eventBoard = online && typeof st.event === 'string' && !!st.event;
  act('act-abort', playing && st.moves.length < 2 && !eventBoard, !connected);
  act('act-claim', playing && opp && !!f.seats[opp].claimable, !connected);
  act('act-resign', playing && f.bothSeated && st.moves.length >= 2, !connected);
  const rematchMine = online && me && g.over && st.rematch_offer === me;
  // A rematch needs an opponent who once joined; without one (an aborted
  // room nobody joined), or for a spectator of a game that is over: a new
  // room of one's own.
  // A club event's board (its state names the event) has no rematch: the
  // way back is to the event's page.
  const event = online && typeof st.event === 'string' && st.event ? st.event : null;
  act('act-rematch', online && me && g.over && f.bothSeated && st.rematch_offer !== opp && !event, rematchMine || !connected);
  setHidden($('act-event'), !event);
  if (event) setAttr($('act-event'), 'href', `?event=${encodeURIComponent(event)}`);
  // The line naming the event, round and board (event-room.js, loaded here only).
  if (event || eventLine) (eventLine ||= import('./event-room.js')).then((m) => m.drawEventLine(event, st.room));
  act('act-newroom', online && g.over && (!me || !f.bothSeated));
  setText($('act-newroom'), t(me ? 'action.newroom' : 'action.newroom.own'));
  setText($('act-rematch'), rematchMine ? t('action.rematch.offered') : t('action.rematch'));
  const { model } = f;
  const record = model.mode === 'record';
  act('act-new', !online && !record);
  // A game won against the computer: the offer of the level above (none
  // at the top, nor after a loss or a draw).
  const ai = !online && model.mode === 'local' ? model.local.ai : null;
  const next = ai && g.over && g.winner === f.me ? nextLevel(ai.level, model.timeline.kind) : null;
  act('act-next-level', !!next);
  if (next) setText($('act-next-level'), t('ai.next', { level: t(`ai.level.${next}`) }));
  // One filled button, the next thing to do: the level above after a win,
  // else New game where nothing is lost (a game over, or not begun);
  // during a game it is a plain button.
  $('act-new').classList.toggle('primary', !next && (g.over || st.moves.length === 0));
  // Once the game is over, what comes next leads (the level above, New
  // game, Analyse) and Undo follows them; during a game Undo is beside Hint.
  moveBefore($('act-undo'), g.over ? $('act-flip') : $('act-next-level'));
  // The hint's button (its mark is the board's).
  const hintNow = model.local.hint && model.local.hint.ply === st.moves.length;
  act('act-hint', !online && f.canMove, !!(hintNow && !model.local.hint.move));
  const seeking = !!(hintNow && !model.local.hint.move);
  setText($('act-hint'), seeking ? t('ai.thinking.short') : t('action.hint'));
  $('act-hint').classList.toggle('busy', seeking);  // a spinner beside "Thinking…"
  setAttr($('act-hint'), 'aria-busy', seeking ? 'true' : null);
  act('act-undo', !online && !record, !online && undoCount(model) === 0);
  act('act-flip', !online || !me);  // spectators may turn the board too
  act('act-home', true);
}

// Puts el just before ref (the DOM order is the order of the keyboard and
// of a screen reader, which CSS's order would not change); a focused button
// keeps the focus.
function moveBefore(el, ref) {
  if (el.nextElementSibling === ref) return;
  const focused = document.activeElement === el;
  ref.before(el);
  if (focused) el.focus({ preventScroll: true });
}

/** @param {import('./model.js').Facts} f */
export function drawOver(f) {
  const { g } = f;
  setHidden($('over'), !g.over);
  if (!g.over) return;
  setText($('over-result'), resultText(g, f.me, f));
  setText($('over-reason'), resultSentence(f.st, f.me, f.kind));
  // An aborted game has no final score.
  setHidden($('over-score'), g.reason === 'aborted');
  setText($('over-score'), t('over.score', { south: g.captured.south, north: g.captured.north, southName: displayName(f, 'south'), northName: displayName(f, 'north') }));
  setData($('over'), 'outcome', !f.me || !g.winner || g.winner === 'draw' ? 'neutral' : (g.winner === f.me ? 'win' : 'loss'));
}

export function wireActions() {
  $('share-copy').addEventListener('click', () => copyText($('share-link').value, t('share.copied'), $('share-link')));
  $('share-link').addEventListener('focus', (ev) => ev.target.select());
  // Phones offer their own share sheet (messaging apps) besides the copy.
  if (typeof navigator.share === 'function') {
    setHidden($('share-native'), false);
    $('share-native').addEventListener('click', () => {
      navigator.share({ title: sharing.title, text: sharing.text, url: $('share-link').value }).catch(() => {});
    });
  }
  $('offer-accept').addEventListener('click', () => online.answerOffer($('offer').dataset.kind, true));
  $('offer-decline').addEventListener('click', () => online.answerOffer($('offer').dataset.kind, false));
  $('act-draw').addEventListener('click', online.offerDraw);
  $('act-abort').addEventListener('click', online.abort);
  $('act-newroom').addEventListener('click', online.newRoom);
  $('act-claim').addEventListener('click', online.claim);
  $('act-rematch').addEventListener('click', online.offerRematch);
  $('act-resign').addEventListener('click', online.resign);
  $('act-new').addEventListener('click', local.newGame);
  $('act-next-level').addEventListener('click', local.playNextLevel);
  $('act-hint').addEventListener('click', local.askHint);
  $('act-undo').addEventListener('click', () => {
    local.undo();
    // A focused button that turns disabled drops the focus: keep it nearby.
    if (document.activeElement === $('act-undo') && local.undoLeft() === 0) $('act-new').focus();
  });
  $('act-flip').addEventListener('click', local.flip);
}
