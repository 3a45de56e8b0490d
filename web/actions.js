// actions.js: draws the share card, an incoming offer, the action buttons and the game-over card.
import { t } from './i18n.js';
import { $ } from './ui.js';
import { model, board, mySide, undoCount } from './model.js';
import { resultText } from './texts.js';

export function drawShare(f) {
  $('share').hidden = !(f.online && f.me && !f.bothSeated && !f.g.over);
  if (f.online && model.room) $('share-link').value = roomLink(model.room);
}

// The page's own address with ?room=: the link to send to the opponent.
function roomLink(room) {
  const u = new URL(window.location.href);
  u.search = '';
  u.hash = '';
  u.searchParams.set('room', room);
  return u.href;
}

export function drawOffer(f) {
  const { st, g, me, opp } = f;
  const offer = $('offer');
  let offerKind = null;
  if (f.online && me) {
    if (!g.over && st.draw_offer === opp) offerKind = 'draw';
    if (g.over && st.rematch_offer === opp) offerKind = 'rematch';
  }
  offer.hidden = !offerKind;
  if (offerKind) {
    offer.dataset.kind = offerKind;
    $('offer-text').textContent = t(offerKind === 'draw' ? 'action.draw.incoming' : 'action.rematch.incoming');
    $('offer-accept').textContent = t(offerKind === 'draw' ? 'action.draw.accept' : 'action.rematch.accept');
  }
}

export function drawActions(f) {
  const { st, g, me, opp, online, connected } = f;
  const act = (id, shown, disabled = false) => { const b = $(id); b.hidden = !shown; b.disabled = disabled; };
  const playing = online && me && !g.over;
  const mineOffer = (online && me && !g.over && st.draw_offer === me);
  act('act-draw', playing && f.bothSeated && st.draw_offer !== opp, mineOffer || !connected);
  $('act-draw').textContent = mineOffer ? t('action.draw.offered') : t('action.draw.offer');
  act('act-abort', playing && st.moves.length < 2, !connected);
  act('act-claim', playing && opp && !!f.seats[opp].claimable, !connected);
  act('act-resign', playing && f.bothSeated && st.moves.length >= 2, !connected);
  const rematchMine = online && me && g.over && st.rematch_offer === me;
  act('act-rematch', online && me && g.over && st.rematch_offer !== opp, rematchMine || !connected);
  $('act-rematch').textContent = rematchMine ? t('action.rematch.offered') : t('action.rematch');
  act('act-new', !online);
  // The hint: its button, and its mark on the board.
  const hintNow = model.hint && model.hint.ply === st.moves.length;
  act('act-hint', !online && f.canMove, !!(hintNow && !model.hint.move));
  $('act-hint').textContent = hintNow && !model.hint.move ? t('ai.thinking.short') : t('action.hint');
  board.markHint(hintNow && model.hint.move && !f.reviewing && f.canMove ? model.hint.move : null);
  act('act-undo', !online, !online && undoCount() === 0);
  act('act-flip', !online || !me);  // spectators may turn the board too
  act('act-home', true);
}

export function drawOver(f) {
  const { g } = f;
  $('over').hidden = !g.over;
  if (!g.over) return;
  $('over-result').textContent = resultText(g);
  $('over-reason').textContent = g.reason ? t(`reason.${g.reason}`) : '';
  $('over-score').textContent = t('over.score', { south: g.captured.south, north: g.captured.north });
  $('over').dataset.outcome = !mySide() || !g.winner || g.winner === 'draw' ? 'neutral' : (g.winner === mySide() ? 'win' : 'loss');
}
