// texts.js: the sentences the page says about a game: sides, last move, result, errors, the record.
import { t } from './i18n.js';
import { mySide } from './model.js';
import { displayName, seatName } from './names.js';

export const sideName = (side) => t(`side.${side}`);

export function lastText(last, mover) {
  if (!last) return '';
  const side = displayName(mover);
  if (last.grand_slam) return t('last.slam', { side, pit: last.pit });
  if (last.seeds > 0) return t('last.capture', { side, pit: last.pit, n: last.seeds, pits: last.captured.join(', ') });
  return t('last.move', { side, pit: last.pit });
}

// The result as this browser's player sees it ("you won" or a side).
export function resultText(game) {
  const me = mySide();
  if (game.reason === 'aborted' || !game.winner) return t('over.aborted');
  if (game.winner === 'draw') return t('over.draw');
  if (me) return game.winner === me ? t('over.you_win') : t('over.you_lose');
  return t('over.winner', { side: displayName(game.winner) });
}

// st: the protocol state; timeline (may be null) adds the captures.
export function recordText(st, timeline) {
  const g = st.game;
  const lines = [t('record.header'), new Date().toISOString().slice(0, 10)];
  // The players' names, when they gave any.
  if (seatName('south') || seatName('north')) {
    lines.push(t('record.south', { name: displayName('south') }), t('record.north', { name: displayName('north') }));
  }
  if (g.over) {
    // The record names sides (or names), not "you".
    const neutral = g.reason === 'aborted' || !g.winner ? t('over.aborted')
      : g.winner === 'draw' ? t('over.draw') : t('over.winner', { side: displayName(g.winner) });
    lines.push(`${t('record.result')}: ${neutral} ${g.reason ? `(${t(`reason.${g.reason}`)})` : ''}`.trim());
    lines.push(t('over.score', { south: g.captured.south, north: g.captured.north }));
  }
  lines.push('', formatMoves(st.moves, timeline));
  return lines.join('\n');
}

// "1. a F 2. c+3 A" ; +N marks seeds captured.
function formatMoves(moves, timeline) {
  const parts = [];
  moves.forEach((m, i) => {
    const info = timeline && timeline.history[i];
    const s = m + (info && info.seeds ? `+${info.seeds}` : '');
    if (i % 2 === 0) parts.push(`${i / 2 + 1}. ${s}`);
    else parts[parts.length - 1] += ` ${s}`;
  });
  return parts.join(' ');
}

export function engineText(code) {
  const key = `engine.${code}`;
  const text = t(key);
  return text === key ? t('error.illegal_move') : text;
}

export function errorText(code) {
  const key = `error.${code}`;
  const text = t(key);
  return text === key ? t('error.unknown', { code }) : text;
}
