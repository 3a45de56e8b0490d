// names.test.mjs: the words a player's name may not read as (issue 52,
// part 2; issue 49, item 9) are the language files' own: the server's list
// (protocol/text_words.h) and the client's (web/name-words.js) are what
// protocol/gen_words.mjs makes of web/i18n/ now, so a translation added or
// changed cannot be forgotten; names.js's checks refuse every form of a
// side's name the page shows, a side's name followed by a dash, and the
// words of a club event, and take honest names.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { installPage } from './fake-dom.mjs';

installPage();
globalThis.navigator = /** @type {any} */ ({ onLine: true, languages: ['en'], maxTouchPoints: 0 });
const { header, webModule, collect } = await import('../../protocol/gen_words.mjs');
const { cleanName, loadNameWords } = await import('../../web/names.js');
const { eventWord } = await import('../../web/name-check.js');
// The word lists come with the first name checked (not the first visit).
await loadNameWords();

const root = new URL('../../', import.meta.url);
const read = (f) => readFileSync(new URL(f, root), 'utf8');

test('the lists of words are made from the language files as they are now (make words)', () => {
  assert.equal(read('protocol/text_words.h'), header());
  assert.equal(read('web/name-words.js'), webModule());
});

test('every side in every form and language of the page is a word no name may be', () => {
  const { sides } = collect();
  for (const lang of ['en', 'es', 'fr', 'kk', 'ru']) {
    const words = { ...JSON.parse(read(`web/i18n/${lang}.json`)) };
    for (const key of ['side.south', 'side.north', 'togyz.side.south', 'togyz.side.north',
      'side.the.south', 'side.the.north', 'togyz.side.the.north', 'side.of.north', 'togyz.side.of.south']) {
      const shown = words[key].replace(/\p{Cf}/gu, '');
      assert.ok(sides.some((s) => s.word.toLowerCase() === shown.toLowerCase()), `${lang} ${key}: ${shown}`);
    }
  }
  for (const { word, where } of sides) assert.equal(cleanName(word), null, `${word} (${where})`);
  for (const name of ['Ақтар', 'Қаралар', 'қаралар', 'Ақтардың', 'el Sur', 'les Noirs', 'Юга', 'белых', 'Ақ', 'Қара'])
    assert.equal(cleanName(name), null, name);
});

test('a side followed by punctuation or a symbol, dashes included, is refused', () => {
  for (const name of ['South—', 'sUr —', 'North―', 'White─', 'South -', 'South –', 'South…', '—Negras'])
    assert.equal(cleanName(name), null, name);
});

test('the words of a club event are refused in an event, names near them are not', () => {
  const bad = ['bye', '(bye)', 'organiser', 'withdrawn', 'white_forfeit', 'Draw', '1-0', '?',
    'Ama (withdrawn)', 'Tablas', 'Ничья', 'Ama (вне турнира)', 'Ama (forfait)', '½–½'];
  for (const name of bad) assert.ok(eventWord(name), name);
  for (const name of ['Ama', 'Byers', 'Drawson', 'Lo', 'Ama (Accra)', 'Kofi 2'])
    assert.ok(!eventWord(name), name);
});

test('honest names are taken', () => {
  for (const name of ['Ama', 'Amma', 'José', 'Jose', 'Southpaw', 'Sur del río', 'Ақбота', 'Қарлығаш', 'Noirs et blancs'])
    assert.equal(cleanName(name), name);
});
