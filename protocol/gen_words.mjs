#!/usr/bin/env node
// gen_words.mjs: the words a player's name may not read as, taken from the
// page's language files (web/i18n/*.json, web/i18n/event/*.json) so that a
// new translation, or a new word in one, cannot be forgotten. It writes
// protocol/text_words.h (the server's lists, for protocol/text.c) and
// web/name-words.js (the client's, for web/names.js and web/event.js):
// `make words` runs it (`node protocol/gen_words.mjs`); test-web fails when
// either file differs from what it would write now (--check does the same).
//
// - The sides' names, every form the page shows: Oware's South and North
//   and Togyz Kumalak's White and Black in each language, bare
//   (`side.south`), as a subject (`side.the.south`: "el Sur", "les Noirs")
//   and after a noun (`side.of.south`: "del Sur", "Юга", "Ақтардың"), and
//   the sides the name's explanations name ("name.bad",
//   "event.error.bad_name": "… (South, North, White, Black…)"), which they
//   promise are refused, and the colours a language says for a side
//   (SPOKEN_SIDE_WORDS: Kazakh's Ақ, Қара). Format characters (the soft
//   hyphens that let a long Kazakh word break) are left out: a name may
//   not hold them.
// - The words of a club event that a name may not be (docs/events.md):
//   how the event page shows results, byes, forfeits and a withdrawal
//   (`event.result.*`, `event.record.draw`, `event.record.double_forfeit`,
//   `event.player.out`), its organiser (`event.org.title`), and the words
//   of the protocol and the exports (FIXED_EVENT_WORDS); and the text the
//   page puts after a withdrawn player's name (`event.player.withdrawn`
//   without its `{name}`), which a name may not end with.
// The lists keep the first of words equal but for case; the order is fixed (English,
// then the other languages by code; keys in the order below).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HEADER = 'protocol/text_words.h';
const MODULE = 'web/name-words.js';

const SIDE_KEYS = ['side.south', 'side.north', 'togyz.side.south', 'togyz.side.north',
  'side.the.south', 'side.the.north', 'togyz.side.the.south', 'togyz.side.the.north',
  'side.of.south', 'side.of.north', 'togyz.side.of.south', 'togyz.side.of.north'];
const EXPLAINED_KEYS = ['name.bad', 'event.error.bad_name'];
// The colours as a language says them for a side where the page shows
// them only with a suffix: Kazakh's Ақ and Қара ("white", "black"), the
// stems of the sides Ақтар and Қаралар, which a reader takes for them.
const SPOKEN_SIDE_WORDS = { kk: ['Ақ', 'Қара'] };
const EVENT_KEYS = ['event.result.white', 'event.result.draw', 'event.result.black',
  'event.result.white_forfeit', 'event.result.black_forfeit', 'event.result.double_forfeit',
  'event.result.bye', 'event.result.rr_bye', 'event.result.none', 'event.record.draw',
  'event.record.double_forfeit', 'event.player.out', 'event.org.title'];
const SUFFIX_KEY = 'event.player.withdrawn';
// The protocol's results (PROTOCOL.md, `event_result`), the exports' words
// for byes and withdrawals (CSV's `withdrawn` column), results as written
// by hand.
const FIXED_EVENT_WORDS = ['white_forfeit', 'black_forfeit', 'double_forfeit', 'forfeit',
  'draw', 'bye', 'withdrawn', 'organiser', 'organizer', '1-0', '0-1', '1/2-1/2', '0-0'];

const FORMAT = /\p{Cf}/gu;

function languages(dir) {
  const langs = readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5)).sort();
  return ['en', ...langs.filter((l) => l !== 'en')];
}

function read(file) {
  return JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
}

// The words of a language's two files: [{word, where}] for each list.
export function collect() {
  const sides = [], events = [], suffixes = [];
  const add = (list, word, where) => {
    const w = word.replace(FORMAT, '').trim();
    if (w && !list.some((x) => x.word.toLowerCase() === w.toLowerCase())) list.push({ word: w, where });
  };
  for (const lang of languages('web/i18n')) {
    const files = [`web/i18n/${lang}.json`, `web/i18n/event/${lang}.json`].map((f) => {
      try { return read(f); } catch (e) { if (e.code === 'ENOENT') return {}; throw e; }
    });
    const all = Object.assign({}, ...files);
    for (const k of SIDE_KEYS)
      if (typeof all[k] === 'string') add(sides, all[k], `${lang} ${k}`);
    for (const k of EXPLAINED_KEYS) {
      const m = typeof all[k] === 'string' && /\(([^()]*)\)[^()]*$/.exec(all[k]);
      if (m)
        for (const w of m[1].split(/[,،、]/))
          add(sides, w.replace(/…|\.\.\./g, ''), `${lang} ${k}`);
    }
    for (const w of SPOKEN_SIDE_WORDS[lang] || []) add(sides, w, `${lang} colour`);
    for (const k of EVENT_KEYS)
      if (typeof all[k] === 'string') add(events, all[k], `${lang} ${k}`);
    if (typeof all[SUFFIX_KEY] === 'string' && all[SUFFIX_KEY].startsWith('{name}'))
      add(suffixes, all[SUFFIX_KEY].slice('{name}'.length), `${lang} ${SUFFIX_KEY}`);
  }
  for (const w of FIXED_EVENT_WORDS) add(events, w, 'protocol, exports');
  return { sides, events, suffixes };
}

// A C string literal of s (UTF-8 bytes escaped; "" after an escape that a
// hex digit follows).
function cString(s) {
  let out = '"', escaped = false;
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (b >= 0x80) {
      out += '\\x' + b.toString(16).padStart(2, '0');
      escaped = true;
      continue;
    }
    if (escaped && /[0-9a-fA-F]/.test(c)) out += '" "';
    escaped = false;
    out += c === '"' || c === '\\' ? '\\' + c : c;
  }
  return out + '"';
}

function cList(name, list) {
  const rows = list.map(({ word, where }) =>
    `\t{${cString(word)}, ${cString(where)}}, /* ${word.replace(/\*\//g, '* /')} */`);
  return `static const struct text_word ${name}[] = {\n${rows.join('\n')}\n};\n`;
}

export function header() {
  const { sides, events, suffixes } = collect();
  return `/* text_words.h: generated by protocol/gen_words.mjs from web/i18n/<lang>.json
 * and web/i18n/event/<lang>.json; do not edit (\`make words\`). The words a name may
 * not read as (protocol/text.c): each with where the page shows it. */
#ifndef PROTO_TEXT_WORDS_H
#define PROTO_TEXT_WORDS_H

struct text_word {
\tconst char *word, *where;
};

/* The sides' names, every form the page shows, in every language. */
${cList('text_side_words', sides)}
/* The words of a club event's page, protocol and exports. */
${cList('text_event_words', events)}
/* What the event page puts after a withdrawn player's name. */
${cList('text_event_suffixes', suffixes)}
#endif
`;
}

export function webModule() {
  const { sides, events, suffixes } = collect();
  const js = (list) => `[\n${list.map((x) => `  ${JSON.stringify(x.word)},`).join('\n')}\n]`;
  return `// name-words.js: generated by protocol/gen_words.mjs from web/i18n/*.json and
// web/i18n/event/*.json; do not edit (\`make words\`). The words a name may
// not read as (protocol/PROTOCOL.md, "Names and chat"; docs/events.md).
// @ts-check

// The sides' names, every form the page shows, in every language.
export const SIDE_WORDS = ${js(sides)};

// The words of a club event's page, protocol and exports.
export const EVENT_WORDS = ${js(events)};

// What the event page puts after a withdrawn player's name.
export const EVENT_SUFFIXES = ${js(suffixes)};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const want = { [HEADER]: header(), [MODULE]: webModule() };
  let stale = 0;
  for (const [file, text] of Object.entries(want)) {
    if (process.argv.includes('--check')) {
      let now = '';
      try { now = readFileSync(join(ROOT, file), 'utf8'); } catch { /* missing: stale */ }
      if (now !== text) {
        console.error(`${file} is stale: run make words`);
        stale = 1;
      }
    } else {
      writeFileSync(join(ROOT, file), text);
    }
  }
  process.exit(stale);
}
