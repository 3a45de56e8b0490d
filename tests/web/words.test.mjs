// words.test.mjs: the words of a game come from the kind the caller is
// handed. A key may have a Togyz Kumalak variant ("togyz.<key>" in a
// language file); a module asks for it with the kind of its screen, board
// or panel, or the club event's page with its event's (i18n.js's
// tIn(kind, …), wordsIn(kind), names.js's and texts.js's Who), never
// through t(), which is Oware's words and reads no page's kind. So every
// t() call must name a key no game changes: a literal (or a choice of literals) without a Togyz variant, a
// template whose fixed start no variant has, or one of the few variables
// listed below with the keys they carry. And texts.js's sentences are
// handed their game by every caller (their last argument).
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

// Every key that has a Togyz variant in some language (plural and .pl
// forms folded into their key).
function variantKeys() {
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name.endsWith('.json')) files.push(path.join(dir, e.name));
    }
  };
  walk(path.join(WEB, 'i18n'));
  const keys = new Set();
  for (const f of files) {
    for (const k of Object.keys(JSON.parse(fs.readFileSync(f, 'utf8')))) {
      if (!k.startsWith('togyz.')) continue;
      const key = k.slice(6);
      keys.add(key);
      keys.add(key.replace(/\.(zero|one|two|few|many|other|pl)$/, ''));
    }
  }
  return keys;
}

// Variables handed to t() and the keys they carry (none has a variant).
const VARIABLE_KEYS = {
  'ui.js:key': 'screen.*: the game screen\'s heading',
  'start.js:key': 'ai.level.<level>.desc',
  'start.js:bad': 'clock.error.*, name.bad',
  'texts.js:key': 'error.<code>',
  'study.js:key': 'the record reader\'s reasons, ogn.*',
  'event.js:k': 'event.error.<code>, error.<code>',
  'event-view.js:k': 'event.error.<code>, error.<code>',
};

// The arguments of each call of fn in src, split at the commas at depth 0
// (a template's ${…} read as text: none holds a comma here).
function calls(src, fn) {
  const out = [];
  for (const m of src.matchAll(new RegExp(`(?<![\\w.$])${fn}\\(`, 'g'))) {
    let depth = 0, i = m.index + fn.length + 1, quote = null, from = i;
    const args = [];
    for (; i < src.length; i++) {
      const c = src[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') { if (depth === 0) break; depth--; }
      else if (c === ',' && depth === 0) { args.push(src.slice(from, i).trim()); from = i + 1; }
    }
    const last = src.slice(from, i).trim();
    if (last) args.push(last);
    out.push({ args, line: src.slice(0, m.index).split('\n').length });
  }
  return out;
}

// The first argument of each t( call in src.
const firstArgs = (src) => calls(src, 't').map(({ args, line }) => ({ arg: args[0] || '', line }));

// Why arg may reach a key with a Togyz variant ('' when it cannot).
function risk(arg, file, keys) {
  const literals = [...arg.matchAll(/'([^'\\]*)'/g)].map((x) => x[1]);
  if (/^'[^']*'$/.test(arg) || (/\?/.test(arg) && literals.length && !/`/.test(arg))) {
    const bad = literals.filter((k) => keys.has(k));
    return bad.length ? `has a Togyz variant: ${bad.join(', ')}` : '';
  }
  const tpl = /^`([^`$]*)\$\{/.exec(arg);
  if (tpl) {
    const prefix = tpl[1];
    const bad = [...keys].filter((k) => k.startsWith(prefix));
    return bad.length ? `\`${prefix}…\` may be ${bad.slice(0, 3).join(', ')}` : '';
  }
  if (/^\w+$/.test(arg) && VARIABLE_KEYS[`${file}:${arg}`]) return '';
  return `a key the test cannot read: ${arg}`;
}

test('the variants are found, and the check sees one', () => {
  const keys = variantKeys();
  assert.ok(keys.has('side.south') && keys.has('app.title') && keys.has('last.move'), [...keys].slice(0, 5).join());
  assert.equal(risk("'side.south'", 'x.js', keys), 'has a Togyz variant: side.south');
  assert.match(risk('`side.${s}`', 'x.js', keys), /side\.south/);
  assert.equal(risk("a ? 'chat.bad' : 'chat.rate_limited'", 'x.js', keys), '');
  assert.equal(risk('`conn.${a}`', 'x.js', keys), '');
  assert.match(risk('key', 'x.js', keys), /cannot read/);
  assert.deepEqual(firstArgs("t('a', { b: t(`c.${d}`) }) + wordsIn(k)('e') + x.t('f')").map((a) => a.arg), ["'a'", '`c.${d}`']);
});

test('no t() reaches a key a game changes, the event page\'s neither', () => {
  const keys = variantKeys();
  const found = [];
  for (const f of fs.readdirSync(WEB).filter((n) => n.endsWith('.js'))) {
    if (f === 'i18n.js') continue;
    const src = fs.readFileSync(path.join(WEB, f), 'utf8');
    // Only the page's t() from i18n.js: a module's own t (a kind's words) is not it.
    const imported = /import\s*\{[^}]*\bt\b[^}]*\}\s*from\s*'\.\/i18n\.js'/.test(src);
    if (!imported) continue;
    for (const { arg, line } of firstArgs(src)) {
      const why = risk(arg, f, keys);
      if (why) found.push(`${f}:${line}: t(${arg}): ${why}`);
    }
  }
  assert.deepEqual(found, []);
});

// texts.js's sentences and the arguments each takes, whose last says the
// game (left out, the page's kind: for the node tests of the sentences),
// and names.js's, whose first (a Who) does. tsc lets a JavaScript call
// leave arguments out, so they are counted here.
const SENTENCES = {
  sideName: 2, sideSentence: 4, lastText: 3, moveSaid: 4, resultText: 3, resultSentence: 3, engineText: 2, declinedText: 4,
  seatName: 2, displayName: 2, sideWords: 2, nameAndSide: 2,
};

test('every sentence of texts.js and names.js is handed its game', () => {
  const short = [];
  for (const f of fs.readdirSync(WEB).filter((n) => n.endsWith('.js'))) {
    if (/^event/.test(f)) continue;
    const src = fs.readFileSync(path.join(WEB, f), 'utf8').replace(/^export (const|function) \w+.*$/gm, '');
    for (const [fn, n] of Object.entries(SENTENCES)) {
      for (const { args, line } of calls(src, fn)) if (args.length !== n) short.push(`${f}:${line}: ${fn}(${args.join(', ')})`);
    }
  }
  assert.deepEqual(short, []);
  assert.deepEqual(calls('lastText(a, f(b, c), { d, e })', 'lastText')[0].args, ['a', 'f(b, c)', '{ d, e }']);
});

test('the words read no page\'s kind: t() is Oware\'s', async () => {
  const src = fs.readFileSync(path.join(WEB, 'i18n.js'), 'utf8');
  // kind.js's data only (KEY_PREFIX, kindOf): never a kind the page or
  // the browser chose.
  assert.doesNotMatch(src, /getKind|chosenKind|localStorage\.getItem\('oware\.kind'\)/,
    'i18n.js reads a page kind');
  assert.match(src, /import \{ KEY_PREFIX, kindOf \} from '\.\/kind\.js';/);
  assert.match(src, /export function t\(key, params\) \{ return tIn\('oware', key, params\); \}/);
  // The event page's own modules hand their game: none reads the page's kind.
  for (const f of fs.readdirSync(WEB).filter((n) => /^event.*\.js$/.test(n))) {
    assert.doesNotMatch(fs.readFileSync(path.join(WEB, f), 'utf8'), /getKind/, f);
  }
});
