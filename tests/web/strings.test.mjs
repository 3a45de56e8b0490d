// strings.test.mjs: the client's words in every language (web/i18n/*.json,
// docs/translating.md): each file has every key of English with the same
// placeholders, nothing is left in English, and plurals, numbers and dates
// come out in each language's own forms.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const DIR = new URL('../../web/i18n/', import.meta.url);
const FILES = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
// The parts a screen fetches with itself (i18n.js's loadPart): a folder
// of files by language, checked with the language's own as one.
const PARTS = fs.readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const readFile = (p) => JSON.parse(fs.readFileSync(new URL(p, DIR), 'utf8'));
const read = (l) => Object.assign({}, readFile(`${l}.json`), ...PARTS.map((p) => readFile(`${p}/${l}.json`)));
const STRINGS = Object.fromEntries(FILES.map((l) => [l, read(l)]));

test('each part has a file a language, and no key of the language\'s own', () => {
  assert.deepEqual(PARTS, ['event', 'keyboard', 'ogn']);
  for (const p of PARTS) {
    const langs = fs.readdirSync(new URL(`${p}/`, DIR)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    assert.deepEqual(langs, FILES, p);
    for (const l of FILES) {
      const own = readFile(`${l}.json`);
      assert.deepEqual(Object.keys(readFile(`${p}/${l}.json`)).filter((k) => own[k] !== undefined), [], `${p}/${l}.json`);
    }
  }
});
const EN = STRINGS.en;

// i18n.js in node: a page with nothing on it, and its files read from disk.
globalThis.document = { documentElement: {}, querySelectorAll: () => [], title: '' };
globalThis.fetch = async (url) => ({ ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(url), 'utf8')) });
const i18n = await import('../../web/i18n.js');

// The words a sentence about a side may use for it (names.js's sideWords:
// {side} bare, {the}, {The}, {of}; texts.js passes {by} beside them, and
// resultSentence {winner}/{wof}/{wthe} and {loser}/{lof}/{lThe}): one
// placeholder each.
const SAME = { the: 'side', The: 'side', of: 'side', by: 'side', wof: 'winner', lof: 'loser', wthe: 'winner', lThe: 'loser' };
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];

// The key a language's key stands for in English: a Togyz Kumalak variant
// ("togyz.<key>") or a plural form ("<key>.<category>") that English does
// without stands for the key itself.
function baseOf(l, k) {
  if (EN[k] !== undefined) return k;
  const cats = new Intl.PluralRules(l).resolvedOptions().pluralCategories;
  const m = /^(.*)\.(\w+)$/.exec(k);
  if (m && cats.includes(m[2])) {
    const b = baseOf(l, m[1]);
    if (b) return b;
  }
  if (k.startsWith('togyz.')) return baseOf(l, k.slice(6));
  return null;
}

// Placeholders a language may leave out or add: ogn.mark's {4} is the
// engine's English "seed"/"seeds" (study.js), which another language says
// itself; a Togyz hole's traditional name, {name}, where the language has
// them (togyz.hole.names).
const OPTIONAL = { 'ogn.mark': ['4'], 'pit.label': ['name'], 'pit.label.one': ['name'], 'read.pit': ['name'], 'read.pit.tuzdyk': ['name'] };

function placeholders(k, s, pluralForm) {
  const set = new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => SAME[m[1]] || m[1]));
  if (pluralForm) set.delete('n');   // "1 seed" in English, "{n} камень" for 1, 21, 31…
  for (const p of OPTIONAL[k] || []) set.delete(p);
  return [...set].sort().join(',');
}

test('the languages of i18n.js are the files of web/i18n/, each named in itself', () => {
  assert.deepEqual([...i18n.LANGS].sort(), FILES);
  assert.deepEqual(i18n.LANG_NAMES, { en: 'English', es: 'Español', fr: 'Français', kk: 'Қазақша', ru: 'Русский' });
});

for (const l of FILES.filter((f) => f !== 'en')) {
  test(`${l}: every key of English, no other, each with the same placeholders`, () => {
    const d = STRINGS[l];
    assert.deepEqual(Object.keys(EN).filter((k) => d[k] === undefined), [], 'missing');
    assert.deepEqual(Object.keys(d).filter((k) => !baseOf(l, k)), [], 'keys English does not have');
    const wrong = [];
    for (const [k, v] of Object.entries(d)) {
      assert.equal(typeof v, 'string', k);
      const b = baseOf(l, k);
      const plural = k !== b || CATEGORIES.includes(k.split('.').pop());
      if (placeholders(b, v, plural) !== placeholders(b, EN[b], plural)) wrong.push(`${k}: ${v}`);
    }
    assert.deepEqual(wrong, []);
  });
}

// Words that stay the same in every language: the games' and formats'
// names, and the notation a record or a pasted position is written in.
// (A key ending in ".plural" is a flag, yes or no, not a text.)
const ALLOWED = new Set(['oware', 'abapa', 'aualé', 'json', 'fen', 'ogn', 'utf', 'ctrl', 'esc', 'ko', 'mb', 'kb',
  'result', 'continued', 'name', 'value', 'pits', 'captured', 'turn', 'south', 'tuzdyk', 'tuzdyks', 'togyz',
  'kumalak', 'min', 'max',
  // Tie-breaks named after their authors, and the event's export formats.
  'buchholz', 'sonneborn', 'berger', 'bh', 'sb', 'trf', 'csv']);
// Words spelt as in English that are the language's own.
const ALLOWED_IN = {
  es: ['club', 'chat'],
  fr: ['solution', 'minutes', 'minute', 'positions', 'club', 'expert', 'amateur', 'message', 'variante', 'champion'],
  kk: [],
  ru: [],
};
// English words that no other language's sentence has.
const ENGLISH = new Set(['the', 'and', 'your', 'you', 'is', 'with', 'this', 'that', 'from', 'seeds', 'seed', 'move',
  'moves', 'game', 'pit', 'hole', 'wins', 'won', 'lost', 'not', 'to', 'of', 'opponent', 'play', 'room']);
const words = (s) => s.replace(/\{\w+\}/g, ' ').toLowerCase().match(/\p{L}+/gu) || [];

for (const l of FILES.filter((f) => f !== 'en')) {
  test(`${l}: nothing left in English`, () => {
    const left = [];
    const own = new Set(ALLOWED_IN[l]);
    const ok = (x) => ALLOWED.has(x) || own.has(x);
    for (const [k, v] of Object.entries(STRINGS[l])) {
      if (k.endsWith('.plural')) continue;
      const b = baseOf(l, k);
      const w = words(v);
      if (v === EN[b] && w.some((x) => !ok(x) && x.length > 1)) left.push(`${k} (as in English): ${v}`);
      const english = [...new Set(w.filter((x) => ENGLISH.has(x)))];
      if (english.length >= 2) left.push(`${k} (${english.join(', ')}): ${v}`);
      // Cyrillic: a Latin word is English left behind unless allowed.
      if (l === 'kk' || l === 'ru') {
        const latin = w.filter((x) => /^[a-zé]{3,}$/.test(x) && !ok(x));
        if (latin.length) left.push(`${k} (${latin.join(', ')}): ${v}`);
      }
    }
    assert.deepEqual(left, []);
  });
}

// "{n} seeds" in each language for 1, 2, 5, 21 and 0.5 (a pit's name for
// screen readers), and a number with one decimal (the analysis's seeds).
const SEEDS = {
  en: ['1 seed', '2 seeds', '5 seeds', '21 seeds', '0.5 seeds'],
  es: ['1 semilla', '2 semillas', '5 semillas', '21 semillas', '0,5 semillas'],
  fr: ['1 graine', '2 graines', '5 graines', '21 graines', '0,5 graine'],
  kk: ['1 құмалақ', '2 құмалақ', '5 құмалақ', '21 құмалақ', '0,5 құмалақ'],
  ru: ['1 камень', '2 камня', '5 камней', '21 камень', '0,5 камня'],
};
const SPECTATORS = {
  en: ['1 spectators', '2 spectators', '5 spectators', '21 spectators'],
  es: ['1 espectadores', '2 espectadores', '5 espectadores', '21 espectadores'],
  fr: ['1 spectateurs', '2 spectateurs', '5 spectateurs', '21 spectateurs'],
  kk: ['1 көрермен', '2 көрермен', '5 көрермен', '21 көрермен'],
  ru: ['1 зритель', '2 зрителя', '5 зрителей', '21 зритель'],
};
const THREE = { en: '3.0', es: '3,0', fr: '3,0', kk: '3,0', ru: '3,0' };
const MONTH = { en: 'December', es: 'diciembre', fr: 'décembre', kk: 'желтоқсан', ru: 'декабря' };

for (const l of FILES) {
  test(`${l}: plural forms, numbers and dates`, async () => {
    await i18n.setLang(l);
    assert.equal(i18n.getLang(), l);
    const got = [1, 2, 5, 21, 0.5].map((n) => i18n.tIn('oware', 'pit.label', { pit: 'a', owner: '·', n }));
    // (French puts a no-break space before a colon.)
    assert.deepEqual(got, SEEDS[l].map((s) => `a${l === 'fr' ? '\u00a0' : ''}: ${s}, ·`));
    // watchers.one says "One spectator" apart; the other counts are plural forms.
    const watchers = [1, 2, 5, 21].map((n) => i18n.tIn('oware', 'watchers.many', { n }));
    assert.deepEqual(watchers, SPECTATORS[l]);
    assert.equal(i18n.fmtNum(3, 1), THREE[l]);
    assert.equal(i18n.fmtNum(0.5), l === 'en' ? '0.5' : '0,5');
    assert.equal(i18n.fmtNum(1500), '1500', 'no grouping: a rating reads the same');
    assert.match(i18n.fmtDate(Date.UTC(2026, 11, 5, 12), { day: 'numeric', month: 'long', timeZone: 'UTC' }), new RegExp(MONTH[l]));
  });
}

test('the traditional names of Togyz Kumalak\'s holes in Kazakh and Russian, nowhere else', async () => {
  for (const l of FILES) {
    await i18n.setLang(l);
    const names = [1, 5, 9].map(i18n.holeName);
    assert.deepEqual(names, { kk: ['Арт', 'Бел', 'Маңдай'], ru: ['Арт', 'Бел', 'Мандай'] }[l] || ['', '', ''], l);
  }
  await i18n.setLang('kk');
  assert.equal(i18n.tIn('togyz', 'pit.label', { pit: '2', name: i18n.holeName(2), n: 7, owner: 'сіздің отауыңыз' }),
    '2 (Тектұрмас): 7 құмалақ, сіздің отауыңыз');
});

test('a Togyz Kumalak variant wins over the plain key, its plural forms too', async () => {
  await i18n.setLang('ru');
  const s = i18n.tIn('togyz', 'last.capture', { The: 'Белые', pit: '5', pits: '3', n: 21 });
  assert.equal(s, 'Белые: ход из лунки 5, взят 21 камень (лунка 3).');
  assert.equal(i18n.tIn('oware', 'last.capture', { The: 'Юг', pit: 'c', pits: 'D', n: 5 }), 'Юг: ход c, взято 5 камней (D).');
  await i18n.setLang('fr');
  assert.equal(i18n.tIn('togyz', 'puzzle.task', { side: 'Blancs' }), 'Les Blancs jouent\u00a0: trouvez le meilleur coup.');
  assert.equal(i18n.tIn('oware', 'puzzle.task', { side: 'Sud' }), 'Le Sud joue\u00a0: trouvez le meilleur coup.');
});
