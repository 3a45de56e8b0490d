// texts.js: the sentences the page says about a game: sides, last move, result, errors.
// @ts-check
import { t, tIn, has } from './i18n.js';
import { displayName, sideWords } from './names.js';
import { pitLabel } from './kind.js';

// The sentences about a game take whose they are last (names.js's Who:
// the game's kind, for its words and its pits, and the room's names;
// model.js's facts carry both), or the kind alone; every caller hands it
// (tests/web/words.test.mjs counts their arguments): there is no page's
// kind to fall back on.
/** @param {string} side @param {string} kind */
export const sideName = (side, kind) => tIn(kind, `side.${side}`);

// A sentence whose subject is side: its words as sideWords gives them
// ({side}, {the}, {The}, {of}), and the key's plural form (key + '.pl')
// where the language makes the verb agree with a plural side ("las Negras
// sembraron"). extra: the sentence's other values.
/** @param {string} key @param {string} side @param {object} extra @param {import('./names.js').Who} who */
export function sideSentence(key, side, extra, who) {
  const w = sideWords(who, side);
  const k = w.plural && has(`${key}.pl`, who.kind) ? `${key}.pl` : key;
  return tIn(who.kind, k, { ...w, ...extra });
}

/** @param {import('./names.js').Who} who */
export function lastText(last, mover, who) {
  return moveWords(last, who, (key, extra) => sideSentence(key, mover, extra, who));
}

// A move said to a screen reader: the player's own (me: this browser's
// side, null for a spectator or two players on one device) in the second
// person ("You sowed c."), any other as lastText says it.
/** @param {import('./names.js').Who} who */
export function moveSaid(last, mover, me, who) {
  if (!me || mover !== me) return lastText(last, mover, who);
  return moveWords(last, who, (key, extra) => tIn(who.kind, key.replace('last.', 'last.you.'), extra));
}

// What a move did, in the sentence say(key, values) makes of last.<what>.
function moveWords(last, who, say) {
  if (!last) return '';
  const label = (p) => pitLabel(p, who.kind);
  const pit = label(last.pit);
  if (last.grand_slam) return say('last.slam', { pit });
  if (last.tuzdyk) return say('last.tuzdyk', { pit, hole: label(last.captured[0]) });
  if (last.seeds > 0) return say('last.capture', { pit, n: last.seeds, pits: last.captured.map(label).join(', ') });
  return say('last.move', { pit });
}

// The result as this browser's player (me: null for a spectator or two
// players on one device) sees it ("you won" or a side): the over card's
// heading.
/** @param {import('./names.js').Who} who */
export function resultText(game, me, who) {
  // A club event's board ended by its organiser's double forfeit: no winner, not aborted.
  if (game.reason === 'organiser' && !game.winner) return t('over.double_forfeit');
  if (game.reason === 'aborted' || !game.winner) return t('over.aborted');
  if (game.winner === 'draw') return t('over.draw');
  if (me) return game.winner === me ? t('over.you_win') : t('over.you_lose');
  return sideSentence('over.winner', game.winner, {}, who);
}

// Who reads a decided result: 'won', 'lost', 'watch' (a spectator, or two
// players on one device: me null), or 'draw' for everyone.
export function resultView(winner, me) {
  if (winner === 'draw') return 'draw';
  if (!me) return 'watch';
  return winner === me ? 'won' : 'lost';
}

// How the game of st ended, in one sentence read from me's side ('south',
// 'north', or null). Each end reason has one entry per viewpoint in
// i18n.js: result.<reason>.<won|lost|watch|draw>; an aborted game says
// who aborted it (st.aborted_by: mine, theirs, watch, or unknown) and
// when: before the first move (start), after it (first), or before anyone
// joined (alone).
/** @param {string} kind the game's */
export function resultSentence(st, me, kind) {
  const g = st.game, whose = { kind, names: st.names };
  if (g.reason === 'organiser' && !g.winner) return tIn(kind, 'result.organiser.none');
  if (g.reason === 'aborted' || !g.winner) {
    const seats = st.seats;
    const alone = !!seats && !(seats.south.taken && seats.north.taken);
    const when = alone ? 'alone' : st.moves.length ? 'first' : 'start';
    const by = st.aborted_by || null;
    let who = !by ? 'unknown' : by === me ? 'mine' : me ? 'theirs' : 'watch';
    if (alone && who === 'theirs') who = 'watch';
    const key = `result.aborted.${when}.${who}`;
    return by ? sideSentence(key, by, { by: displayName(whose, by) }, whose) : tIn(kind, key, { by: '' });
  }
  const key = `result.${g.reason}.${resultView(g.winner, me)}`;
  // A reason this client does not know.
  if (!has(key, kind)) return resultText(g, me, whose);
  const loser = g.winner === 'south' ? 'north' : 'south';
  const lw = sideWords(whose, loser);
  const ww = sideWords(whose, g.winner);
  // The sides "of" (Spanish "del Norte", "de las Negras", "de Ana"), so
  // that no verb need agree with them; or each side as a subject ({lThe}
  // opening the sentence, {wthe} after a verb) with the key's plural form
  // where both sides are plurals ("Las Blancas se han rendido: ganan las
  // Negras").
  const k = lw.plural && ww.plural && has(`${key}.pl`, kind) ? `${key}.pl` : key;
  return tIn(kind, k, { winner: displayName(whose, g.winner), loser: displayName(whose, loser), wof: ww.of, lof: lw.of, wthe: ww.the, lThe: lw.The });
}

// The engine's refusal of a move (engine.<code>: some are the game's own).
/** @param {string} kind */
export function engineText(code, kind) {
  const key = `engine.${code}`;
  const text = tIn(kind, key);
  return text === key ? t('error.illegal_move') : text;
}

export function errorText(code) {
  const key = `error.${code}`;
  // error.*: no game has its own.
  const text = t(key);
  return text === key ? t('error.unknown', { code }) : text;
}

// The offer of mine (me) that the opponent declined (d: the state's
// online.declined, set by online.js), said until the game moves on or a
// new offer is made; null when there is none to say. st: the room's
// state, of kind's game.
/** @param {string} kind */
export function declinedText(st, me, d, kind) {
  if (!d || !me || st.game_number !== d.game || st.draw_offer || st.rematch_offer) return null;
  if (d.kind === 'draw' && (st.game.over || st.moves.length !== d.ply)) return null;
  if (d.kind === 'rematch' && !st.game.over) return null;
  const key = d.kind === 'rematch' ? 'offer.declined.rematch' : d.moved ? 'offer.declined.draw.moved' : 'offer.declined.draw';
  return sideSentence(key, d.by, {}, { kind, names: st.names });
}
