// wording.test.mjs: the result sentences of web/texts.js in node, without a
// browser: every end reason from every viewpoint (the player who won, who
// lost, a spectator; a draw; for an aborted game who aborted and when), in
// English and Spanish, each one sentence. The browser tests (words.test.mjs)
// show them on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

// i18n.js touches the page only to set its language and static texts.
globalThis.document = { documentElement: {}, querySelectorAll: () => [], title: '' };
// It fetches its strings (web/i18n/<lang>.json): here they come from the files.
globalThis.fetch = async (url) => ({ ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(url), 'utf8')) });

const { setLang, loadLang } = await import('../../web/i18n.js');
await Promise.all(['en', 'es'].map(loadLang));
const { resultSentence } = await import('../../web/texts.js');

const seated = { south: { taken: true }, north: { taken: true } };
const lone = { south: { taken: true }, north: { taken: false } };

// A state that ended by reason with winner (null when aborted).
function ended(reason, winner, { moves = ['c', 'A', 'd'], seats = seated, abortedBy = null } = {}) {
  return {
    game: { over: true, reason, winner, captured: { south: 20, north: 28 }, pits: Array(12).fill(0) },
    moves, seats, aborted_by: abortedBy,
  };
}

// One sentence: a capital (or a number) first, one full stop, at the end;
// no placeholder or key left.
function oneSentence(s, label) {
  assert.match(s, /^[A-Z0-9¡¿ÁÉÍÓÚÑ]/, `${label}: starts a sentence: ${s}`);
  assert.match(s, /[^.]\.$/, `${label}: ends with one full stop: ${s}`);
  assert.equal(s.indexOf('.'), s.length - 1, `${label}: one sentence: ${s}`);
  assert.doesNotMatch(s, /[{}]|result\./, `${label}: no placeholder: ${s}`);
}

// Every decided reason: winner (north) / loser (south) / spectator / draw.
const EN = {
  score: {
    won: 'You captured more than half of the seeds and won.',
    lost: 'Your opponent captured more than half of the seeds, so you lost.',
    watch: 'North captured more than half of the seeds and won.',
    draw: 'Each side captured 24 seeds, so the game is a draw.',
  },
  repetition: {
    won: 'The position occurred three times; each side keeps the seeds in its row, so you won.',
    lost: 'The position occurred three times; each side keeps the seeds in its row, so you lost.',
    watch: 'The position occurred three times; each side keeps the seeds in its row, so North won.',
    draw: 'The position occurred three times; each side keeps the seeds in its row, so the game is a draw.',
  },
  move_limit: {
    won: '160 moves passed without a capture; each side keeps the seeds in its row, so you won.',
    lost: '160 moves passed without a capture; each side keeps the seeds in its row, so you lost.',
    watch: '160 moves passed without a capture; each side keeps the seeds in its row, so North won.',
    draw: '160 moves passed without a capture; each side keeps the seeds in its row, so the game is a draw.',
  },
  no_moves: {
    won: 'The player to move had no move; each side keeps the seeds in its row, so you won.',
    lost: 'The player to move had no move; each side keeps the seeds in its row, so you lost.',
    watch: 'The player to move had no move; each side keeps the seeds in its row, so North won.',
    draw: 'The player to move had no move; each side keeps the seeds in its row, so the game is a draw.',
  },
  resign: {
    won: 'Your opponent resigned, so you won.',
    lost: 'You resigned, so your opponent won.',
    watch: 'South resigned, so North won.',
  },
  agreement: { draw: 'The players agreed to a draw.' },
  abandoned: {
    won: 'Your opponent left the game and did not come back in time, so you won.',
    lost: 'You left the game and did not come back in time, so your opponent claimed the win.',
    watch: 'South left the game and did not come back in time, so North won.',
  },
  timeout: {
    won: 'Your opponent ran out of time, so you won.',
    lost: 'You ran out of time, so your opponent won.',
    watch: 'South ran out of time, so North won.',
  },
};

// Spanish names an unnamed side with its article (issue 28, minor 12).
const ES_WATCH = {
  score: 'Victoria del Norte: ha capturado más de la mitad de las semillas.',
  repetition: 'La posición se ha repetido tres veces; cada lado se queda con las semillas de su fila y la victoria es del Norte.',
  resign: 'El Sur se ha rendido: gana el Norte.',
  abandoned: 'Abandono del Sur, que no volvió a tiempo: la victoria es del Norte.',
  timeout: 'Se acabó el tiempo del Sur: la victoria es del Norte.',
};

test('every end reason from the winner, the loser and a spectator, in both languages', () => {
  for (const [reason, views] of Object.entries(EN)) {
    for (const [view, want] of Object.entries(views)) {
      const st = ended(reason, view === 'draw' ? 'draw' : 'north');
      const readers = view === 'won' ? ['north'] : view === 'lost' ? ['south'] : view === 'watch' ? [null] : ['south', 'north', null];
      for (const me of readers) {
        setLang('en');
        const en = resultSentence(st, me, 'oware');
        assert.equal(en, want, `${reason} read by ${me || 'a spectator'}`);
        oneSentence(en, `${reason}/${view}/en`);
        setLang('es');
        const es = resultSentence(st, me, 'oware');
        oneSentence(es, `${reason}/${view}/es`);
        assert.notEqual(es, en, `${reason}/${view}: Spanish`);
        if (view === 'watch' && ES_WATCH[reason]) assert.equal(es, ES_WATCH[reason]);
      }
    }
  }
  // The winner and the loser never read the same sentence, nor the spectator's.
  setLang('en');
  for (const reason of ['score', 'repetition', 'move_limit', 'no_moves', 'resign', 'abandoned', 'timeout']) {
    const st = ended(reason, 'south');
    const seen = new Set(['south', 'north', null].map((me) => resultSentence(st, me, 'oware')));
    assert.equal(seen.size, 3, reason);
  }
});

test('an aborted game says who aborted it and when', () => {
  setLang('en');
  const cases = [
    // [moves, seats, aborted_by, reader, sentence]
    [[], seated, 'south', 'south', 'You aborted the game before the first move.'],
    [[], seated, 'south', 'north', 'Your opponent aborted the game before the first move.'],
    [[], seated, 'south', null, 'South aborted the game before the first move.'],
    [[], seated, null, 'north', 'The game was aborted before the first move.'],
    [['c'], seated, 'north', 'north', 'You aborted the game after the first move.'],
    [['c'], seated, 'north', 'south', 'Your opponent aborted the game after the first move.'],
    [['c'], seated, 'north', null, 'North aborted the game after the first move.'],
    [['c'], seated, null, null, 'The game was aborted after the first move.'],
    [[], lone, 'south', 'south', 'You closed the room before your opponent arrived.'],
    [[], lone, 'south', null, 'South closed the room before anyone joined.'],
    [[], lone, null, null, 'The room was closed before anyone joined.'],
  ];
  for (const [moves, seats, by, me, want] of cases) {
    const st = ended('aborted', null, { moves, seats, abortedBy: by });
    setLang('en');
    assert.equal(resultSentence(st, me, 'oware'), want);
    setLang('es');
    oneSentence(resultSentence(st, me, 'oware'), `aborted es: ${want}`);
  }
  setLang('es');
  assert.equal(resultSentence(ended('aborted', null, { moves: ['c'], abortedBy: 'north' }), null, 'oware'),
    'El Norte ha anulado la partida después de la primera jugada.');
});


// Issue 28, minor 12: a side without a name has its article in Spanish
// ("El Norte sembró", "Gana el Norte"), and a Togyz side is a plural
// ("Las Negras sembraron", "Ganan las Negras"); English is unchanged.
test('Spanish sides with their article, Togyz sides as plurals', async () => {
  const { lastText, resultText } = await import('../../web/texts.js');
  const last = (pit, seeds = 0) => ({ pit, sown: [], captured: seeds ? ['b'] : [], seeds });
  const won = (winner) => ({ over: true, reason: 'score', winner });
  // Each sentence is handed its game (a Who: the kind, no names).
  const cases = [
    ['es', 'oware', (who) => lastText(last('D'), 'north', who), 'El Norte sembró D.'],
    ['es', 'oware', (who) => lastText(last('c', 2), 'south', who), 'El Sur sembró c y capturó 2 semillas (b).'],
    ['es', 'oware', (who) => resultText(won('north'), null, who), 'Gana el Norte.'],
    ['es', 'togyz', (who) => lastText(last('C'), 'north', who), 'Las Negras sembraron el hoyo 3.'],
    ['es', 'togyz', (who) => resultText(won('north'), null, who), 'Ganan las Negras.'],
    ['es', 'togyz', (who) => resultSentence(ended('resign', 'north'), null, who.kind), 'Las Blancas se han rendido: ganan las Negras.'],
    ['en', 'oware', (who) => lastText(last('D'), 'north', who), 'North sowed D.'],
    ['en', 'oware', (who) => resultText(won('north'), null, who), 'North wins.'],
    ['en', 'togyz', (who) => lastText(last('C'), 'north', who), 'Black sowed hole 3.'],
    ['en', 'togyz', (who) => resultText(won('north'), null, who), 'Black wins.'],
  ];
  for (const [lang, kind, said, want] of cases) {
    setLang(lang);
    assert.equal(said({ kind, names: null }), want, `${lang} ${kind}`);
  }
});
