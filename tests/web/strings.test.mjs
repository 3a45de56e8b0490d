// strings.test.mjs: the client's words in every language (web/i18n/*.json,
// docs/translating.md): each file has every key of English with the same
// placeholders, nothing is left in English, and plurals, numbers and dates
// come out in each language's own forms.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { HOLE_LETTER } from './hole-letters.mjs';

const DIR = new URL('../../web/i18n/', import.meta.url);
const FILES = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
// The parts a screen fetches with itself (i18n.js's loadPart): a folder
// of files by language, checked with the language's own as one.
const PARTS = fs.readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const readFile = (p) => JSON.parse(fs.readFileSync(new URL(p, DIR), 'utf8'));
const read = (l) => Object.assign({}, readFile(`${l}.json`), ...PARTS.map((p) => readFile(`${p}/${l}.json`)));
const STRINGS = Object.fromEntries(FILES.map((l) => [l, read(l)]));

test('each part has a file a language, and no key of the language\'s own', () => {
  assert.deepEqual(PARTS, ['editor', 'event', 'keyboard', 'ogn', 'push']);
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
// A variant the code asks for where it applies: name.of.vowel, name.of
// before a name opening with a vowel (names.js: French "d’Ana").
const VARIANTS = { 'name.of.vowel': 'name.of' };
function baseOf(l, k) {
  if (EN[k] !== undefined) return k;
  if (VARIANTS[k]) return VARIANTS[k];
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

// ---- Every sentence filled the way the code fills it (issue 52) ----
// The values the code hands each key: the English text's placeholders,
// and beyond them the side's words where the code hands them all
// (names.js's sideWords: texts.js's sideSentence and resultSentence,
// analysis.js), and n where a number is handed under another name too.
// A placeholder the code does not hand stays raw on the page ("case
// {of}"), so a translation may use only these.
const SIDE_FORMS = ['side', 'the', 'The', 'of'];
const BY_SIDE = [/^last\.(slam|tuzdyk|capture|move)$/, /^over\.winner$/, /^offer\.declined\./, /^clock\.deadline\.side$/,
  /^result\.aborted\./, /^an\.(axis\.ahead|proven|eval|loss\.lets|end\.won|winning)$/];
const RESULT = /^result\.(?!aborted\.)\w+\.(won|lost|watch|draw)$/;
const RESULT_FORMS = ['winner', 'loser', 'wof', 'lof', 'wthe', 'lThe'];
const HANDED = {
  'puzzle.task': ['the'],                 // puzzles.js: {side} and {the}
  'an.eval': ['n'], 'an.loss.seeds': ['n'],  // the seeds as n too, for the plural
  'pit.label': ['name'],                  // board.js: a Togyz hole's traditional name
  'read.pit': ['name'], 'read.pit.tuzdyk': ['name'],  // ear.js: the same, read by ear
};
// The key's base: without "togyz.", its plural or ".pl" ending.
function baseKey(l, k) {
  let b = baseOf(l, k) || k;
  if (b.startsWith('togyz.') && EN[b.slice(6)] !== undefined) b = b.slice(6);
  if (b.endsWith('.pl') && EN[b] === undefined) b = b.slice(0, -3);
  return b.endsWith('.pl') && EN[b.slice(0, -3)] !== undefined ? b.slice(0, -3) : b;
}
function handed(b) {
  const own = new Set([...(EN[b] || EN[`togyz.${b}`] || '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  // An English plural form ("1 seed") is handed what its key is.
  const m = /^(.*)\.(one|other)$/.exec(b);
  if (m && EN[m[1]] !== undefined) return handed(m[1]);
  if (BY_SIDE.some((re) => re.test(b))) SIDE_FORMS.forEach((p) => own.add(p));
  if (RESULT.test(b)) RESULT_FORMS.forEach((p) => own.add(p));
  (HANDED[b] || []).forEach((p) => own.add(p));
  return own;
}

// What the code hands, as it does: a number as a number, a side's words
// from names.js for each game, unnamed and named (a name opening with a
// vowel, for French "d’Ana"), a date as clock.js writes it.
globalThis.localStorage = { getItem: () => null, setItem() {}, removeItem() {} };
const names = await import('../../web/names.js');
const NUMBERS = { n: 5, got: 1, total: 3, done: 1, points: 2.5, place: 1, round: 2, board: 3, loss: 1.5, depth: 12,
  s: 5, d: 2, h: 3, m: 4, south: 12, north: 9, k: 4, max: 300, count: 3, streak: 4, rating: 1500, rounds: 5,
  min: 5, inc: 3, num: 7, code: 42, at: 12 };
// Only a side's own words (sideWords) may be a name: where the code hands
// {side} alone, it is the side's bare word (sideName).
function samples(l, kind, named, bySide) {
  const who = { kind, names: named && bySide ? { south: 'Ana', north: 'Bruno' } : null };
  const sw = names.sideWords(who, 'north');
  const ww = names.sideWords(who, 'south');
  return {
    ...NUMBERS,
    side: sw.side, the: sw.the, The: sw.The, of: sw.of, by: names.displayName(who, 'north'),
    winner: names.displayName(who, 'south'), loser: names.displayName(who, 'north'),
    wof: ww.of, lof: sw.of, wthe: ww.the, lThe: sw.The,
    name: 'Ana', white: 'Ana', black: 'Bruno', southName: 'Ana', northName: 'Bruno', names: 'Ana, Bruno', text: 'hi',
    pit: kind === 'togyz' ? '3' : 'c', pits: kind === 'togyz' ? '5' : 'A, B', hole: '4', landed: 'd', move: 'c',
    first: 'c', last: 'f', second: 'D', best: 'd', line: 'c, D, e', cls: 'x', why: 'y', view: 'z', what: 'w', owner: 'o', where: 'a',
    mark: 3, v: '+1,5', at_text: '', date: '5', time: '5:00', control: '5+3', level: 'L', game: 'G', title: 'T',
    list: 'BH', result: 'Ana won (26–12)', token: 'x', fen: 'f', pos: 'p', 1: '12', 2: 'c', 3: '2', 4: 'seeds', date_: '',
  };
}

for (const l of FILES) {
  test(`${l}: every placeholder of every key is one the code hands, filled in both games, with names and sides`, async () => {
    await i18n.setLang(l);
    const raw = [];
    for (const k of Object.keys(STRINGS[l])) {
      if (k.endsWith('.plural') || k === 'togyz.hole.names') continue;
      const b = baseKey(l, k);
      const ok = handed(b);
      const used = [...STRINGS[l][k].matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const foreign = used.filter((p) => !ok.has(p));
      if (foreign.length) raw.push(`${k}: {${foreign.join('}, {')}} is not handed: ${STRINGS[l][k]}`);
      // Filled as the page fills it, in each game, unnamed and named.
      for (const kind of ['oware', 'togyz']) {
        for (const named of [false, true]) {
          const all = samples(l, kind, named, ok.has('of') || ok.has('wof'));
          const params = Object.fromEntries([...ok].map((p) => [p, all[p]]));
          const s = STRINGS[l][k].replace(/\{(\w+)\}/g, (m, p) => (params[p] === undefined ? m : String(params[p])));
          if (/\{\w+\}/.test(s)) raw.push(`${k} (${kind}${named ? ', named' : ''}): ${s}`);
        }
      }
    }
    assert.deepEqual([...new Set(raw)], []);
  });
}

// A number followed by the noun it counts ("{n} graines") agrees with it:
// the number must be handed as n, the only value t() chooses a plural
// form by, and the language must have the forms its plural rules ask
// for (English and Spanish "1 seed", French "0 graine", "1 graine",
// Russian "1 камень", "5 камней"; Kazakh keeps the noun as it is). A
// number under another name ("{points} points") can never agree.
// Which numbers count a noun, English says: "{n} seeds", "{points}
// points", not "Round {n} is paired", "{south} to {north}"; a unit's
// abbreviation ("5 s", "2 д") is no noun either.
const NOT_COUNTED = /^(?:s|с|d|j|h|m|min|ч|дн|мин|сағ|күн|of|is|to|vs|has|and|or|de|sur|из)$/u;
// Keys whose n is a number's name, not a count: "Ronde {n} appariée".
const ORDINAL_N = ['event.announce.round', 'learn.hole'];
// Each a form needed, or forms of which one is needed (the key serves the
// other: Russian "камня" for few, or "камней" for many).
const FORMS_NEEDED = { en: ['one'], es: ['one'], fr: ['one'], kk: [], ru: ['one', 'few|many'] };
// The numbers t() chooses a form by: n, and the values shown for it.
const AS_N = ['n', 'v', 'loss'];
// The other numbers the code hands that count something (not a round's,
// a board's or a place's number, nor a score). chat.count's max is 300.
const COUNTS = ['got', 'total', 'done', 'points', 'count', 'streak', 'rounds', 'seeds'];
// Forms never shown: watchers.many (1 is watchers.one), clock.control.days
// (1 is clock.control.day), puzzle.engine.ahead (0 is puzzle.engine.even,
// 1 its .one), captures (2 seeds or more: last.capture, preview.captures,
// import.mark, whose 0 only French's one covers), event.max (2 players or
// more; Russian "не более" takes the genitive: one "игрока", else
// "игроков"), chat.show.unread in English ("1 new"); an.eval and an.loss.seeds show a decimal ("1,0"), which takes
// the fraction's form (the key) but in French.
const NEVER = { 'watchers.many': ['one'], 'clock.control.days': ['one'], 'puzzle.engine.ahead': ['one'],
  'preview.captures': ['one'], 'last.capture': ['one'], 'import.mark': ['en:one', 'es:one'], 'event.max': ['one', 'ru:few|many'],
  'chat.show.unread': ['en:one'],
  'an.eval': ['en:one', 'es:one', 'ru:one', 'ru:few|many'], 'an.loss.seeds': ['en:one', 'es:one', 'ru:one', 'ru:few|many'] };
const counts = (s, p) => [...s.matchAll(new RegExp(`\\{${p}\\}[\\s\\u00a0]+(\\p{L}+)`, 'gu'))].some((m) => !NOT_COUNTED.test(m[1]));
const countedIn = (s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].filter((p) => counts(s, p));
for (const l of FILES) {
  test(`${l}: a counted number is n, and its noun has the forms of ${l}'s plural rules`, () => {
    const bad = [];
    const d = STRINGS[l];
    for (const [k, v] of Object.entries(d)) {
      if (k.endsWith('.plural')) continue;
      const b = baseKey(l, k);
      const ok = handed(b);
      const en = EN[b] || EN[`togyz.${b}`] || '';
      // A number under another name than n, counting a noun here and in English.
      if (FORMS_NEEDED[l].length) {
        for (const p of new Set([...countedIn(en), ...countedIn(v)])) {
          if (COUNTS.includes(p) && counts(v, p)) bad.push(`${k}: {${p}} counts a noun but is not n: ${v}`);
        }
      }
      // A key (not a form) whose n counts: its forms.
      if (k !== b && k !== `togyz.${b}`) continue;
      if (CATEGORIES.includes(k.split('.').pop())) continue;
      if (!ok.has('n') || ORDINAL_N.includes(b) || !AS_N.some((p) => counts(v, p))) continue;
      for (const cat of FORMS_NEEDED[l]) {
        if ((NEVER[b] || []).some((x) => x === cat || x === `${l}:${cat}`)) continue;
        if (cat.split('|').every((c) => d[`${k}.${c}`] === undefined)) bad.push(`${k}: no .${cat} form: ${v}`);
      }
    }
    assert.deepEqual(bad, []);
  });
}

// A Togyz Kumalak text names a hole by its number, as the board does,
// never by a Latin letter (Oware's a-f, the data's a-i): hole-letters.mjs,
// which the lessons' test uses too.
for (const l of FILES) {
  test(`${l}: no Togyz Kumalak text names a hole by a Latin letter`, () => {
    const bad = Object.entries(STRINGS[l])
      .filter(([k, v]) => k.startsWith('togyz.') && k !== 'togyz.side.plural' && HOLE_LETTER[l].test(v.replace(/\{\w+\}/g, '3')))
      .map(([k, v]) => `${k}: ${v}`);
    assert.deepEqual(bad, []);
  });
}

test('the checks catch what they are for (as the texts once were)', () => {
  // A hole by its letter.
  assert.ok(HOLE_LETTER.fr.test('A est passée de 3 à 4'));
  assert.ok(HOLE_LETTER.ru.test('В A стало 4 вместо 3'));
  assert.ok(!HOLE_LETTER.en.test("Black's hole 1 went from 3 to 4"));
  // A placeholder the code does not hand.
  assert.ok(!handed('pit.owner.side').has('of'));
  assert.ok(handed('clock.deadline.side').has('The') && handed('result.resign.watch').has('lof'));
  // A count under another name, and a missing form.
  assert.deepEqual(countedIn('Final place: {place}, with {points} points.'), ['points']);
  assert.deepEqual(countedIn('Position après {n} coups sur {total}'), ['n']);
  assert.deepEqual(countedIn('Ronde {n}\u00a0: {done} résultats sur {total}'), ['done']);
  assert.deepEqual(countedIn('Position après le coup {n} sur {total}'), []);
});

// Russian and Kazakh write Togyz Kumalak's sides in lower case within a
// sentence ("Перевес: белые", "ақтар алда"; review findings R14, K24):
// the subject form is lower case (t() capitalises {The} at a sentence's
// start), and a key the code hands it uses it, not the bare, capitalised
// word, anywhere but at the start (a key handed the bare word alone, a
// label in parentheses, keeps it).
test('Russian and Kazakh: Togyz Kumalak\'s sides in lower case within a sentence', () => {
  for (const l of ['ru', 'kk']) {
    for (const side of ['south', 'north']) {
      const w = STRINGS[l][`togyz.side.the.${side}`];
      assert.equal(w, w.toLowerCase(), `${l}: togyz.side.the.${side}`);
    }
    const bad = Object.keys(STRINGS[l]).filter((k) => handed(baseKey(l, k)).has('the') && STRINGS[l][k].indexOf('{side}') > 0);
    assert.deepEqual(bad, [], `${l}: {side} within a sentence where {the} is handed`);
  }
});

test('French writes d’ before a name opening with a vowel (name.of.vowel), de before another', async () => {
  await i18n.setLang('fr');
  const of = (name) => names.sideWords({ kind: 'oware', names: { south: name } }, 'south').of;
  assert.deepEqual(['Ana', 'Élodie', 'Bruno', 'Hugo'].map(of), ['d’Ana', 'd’Élodie', 'de Bruno', 'de Hugo']);
  assert.equal(i18n.tIn('oware', 'an.end.won', names.sideWords({ kind: 'oware', names: { north: 'Ana' } }, 'north')),
    'Fin de la partie\u00a0: victoire d’Ana.');
  await i18n.setLang('es');
  assert.equal(of('Ana'), 'de Ana', 'a language without name.of.vowel');
});
