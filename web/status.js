// status.js: draws the lines under the board: whose turn it is (and the tab's title), and the note.
// @ts-check
import { t, tIn } from './i18n.js';
import { $ } from './ui.js';
import { moverOf, notArrived } from './model.js';
import { sideName, lastText } from './texts.js';
import { pitLabel } from './kind.js';
import { setText } from './dom.js';
import { displayName, nameAndSide } from './names.js';

/** @param {import('./model.js').Facts} f */
export function drawStatus(f) {
  const { st, g, me, online } = f;
  let status = '';
  if (online && f.model.online.stopped) status = '';
  else if (f.reviewing || f.model.mode === 'record') status = '';  // the review bar under the board says which position
  else if (g.over) status = '';
  else if (online && !f.bothSeated) status = me ? '' : t('turn.side', { side: nameAndSide(f, g.turn) });
  else if (online && f.model.online.pending) status = t('turn.sending');
  // This browser's copy of the room (no network): whose turn it was, not a call to play.
  else if (online && f.model.online.saved) status = t('turn.side', { side: nameAndSide(f, g.turn) });
  else if (!online && f.model.local.ai) status = g.turn === me ? tIn(f.kind, 'turn.yours') : t('ai.thinking');
  else if (!online) status = tIn(f.kind, 'turn.local', { side: sideName(g.turn, f.kind) });
  else if (me === g.turn) status = tIn(f.kind, 'turn.yours');
  else if (me) status = t('turn.theirs', { side: displayName(f, g.turn) });
  else status = t('turn.side', { side: nameAndSide(f, g.turn) });
  setText($('status'), status);
  $('status').classList.toggle('mine', f.canMove);
  // The tab's title says when it is this player's move.
  const title = online && f.canMove ? `● ${t('title.turn')} · ${tIn(f.kind, 'app.title')}` : tIn(f.kind, 'app.title');
  if (document.title !== title) document.title = title;
}

/** @param {import('./model.js').Facts} f */
export function drawNote(f) {
  const { st, g, opp, seats } = f;
  const shownLast = f.shown.last;
  let note = '';
  if (f.preview) {
    const m = f.preview.move;
    const land = pitLabel(m.sown[m.sown.length - 1], f.kind);
    if (m.grand_slam) note = t('preview.slam', { pit: land });
    else if (m.tuzdyk) note = t('preview.tuzdyk', { pit: land });
    else if (m.seeds) note = tIn(f.kind, 'preview.captures', { pit: land, n: m.seeds });
    else note = tIn(f.kind, 'preview.lands', { pit: land });
  } else if (f.hint) {
    note = tIn(f.kind, 'hint.note', { pit: pitLabel(f.hint, f.kind) });
  } else if (shownLast) {
    note = lastText(shownLast, moverOf(shownLast.pit), f);
  } else if (f.online && f.me && st.game_number > 1 && !g.over) {
    // A rematch swapped the sides: said until the first move.
    note = t('rematch.sides', { side: sideName(f.me, f.kind) });
  }
  let away = false;
  if (f.online && f.connected && f.bothSeated && !g.over && opp && !seats[opp].connected && !f.reviewing && !f.preview) {
    away = true;
    // (An event's opponent who has not come yet is waited for, not back.)
    const wait = notArrived(st, opp) ? t('wait.opponent') : t('wait.reconnect');
    if (seats[opp].claimable) note = t('wait.claimable');
    else if (f.model.online.claimAt && g.turn === opp) {
      const s = Math.max(0, Math.ceil((f.model.online.claimAt - Date.now()) / 1000));
      note = `${wait} ${t('wait.claim_in', { s })}`;
    } else note = wait;
  }
  setText($('note'), note);
  $('note').classList.toggle('slam', !!(shownLast && shownLast.grand_slam && !f.preview && !away));
  $('note').classList.toggle('away', away);
}
