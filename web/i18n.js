// i18n.js: the client's words, kept as data: one file per language,
// web/i18n/<lang>.json, of which the page fetches only its own (initLang,
// awaited before the first draw; the service worker keeps them all for use
// without the network). How to add a language: docs/translating.md.
// t(key, params) fills {name} placeholders; elements with data-i18n="key"
// (text), data-i18n-label="key" (aria-label) or data-i18n-title="key" get
// their text from applyStatic(). A key may have a Togyz Kumalak variant,
// "togyz.<key>", so the sides are White and Black there, its rules and
// records its own: the caller says which game its words are about, the
// kind it is handed (a screen's state, a board's, a panel's):
// tIn(kind, key, params), or wordsIn(kind), a t() for that game. t()
// alone is Oware's words, for keys no game changes: tests/web/words.test.mjs
// fails on any t() with a key that has a Togyz variant (or may have one).
// Grammar: a key called with a number params.n may have plural forms
// "<key>.<category>" (Intl.PluralRules: zero, one, two, few, many, other),
// taken before the key itself; numbers in params are written with the
// language's decimal sign (fmtNum), and dates by fmtDate.
// A screen that few visits open keeps its words apart, in
// web/i18n/<part>/<lang>.json (the club event's page: event/), fetched
// with the screen (loadPart) and merged into the language's strings, so a
// first visit does not fetch them.

import { KEY_PREFIX, kindOf } from './kind.js';

// The languages, each named in itself (the selector's words).
export const LANG_NAMES = { en: 'English', es: 'Español', fr: 'Français', kk: 'Қазақша', ru: 'Русский' };
export const LANGS = Object.keys(LANG_NAMES);
const STORE_KEY = 'oware.lang';
// Each language's strings, once fetched (with the parts loaded).
const tables = {};
// The parts of the words the page uses (loadPart).
const parts = new Set();
// The parts merged into tables[lang], as "<lang>/<part>".
const partsIn = new Set();
let lang = 'en';
let table = {};
let plurals = new Intl.PluralRules('en');
// Each language's decimal sign, where the browser's Intl lacks its data
// (Chromium's Kazakh: "2.5", "M12 5"; then dates in digits, fmtDate).
const DECIMAL = { en: '.', es: ',', fr: ',', kk: ',', ru: ',' };
let numbers = numberFormat('en', {});
let dateWords = true;

// A language kept: the choice made in the selector (localStorage, for
// good), or the one a shared link asked for (sessionStorage: this tab only).
function kept(store) {
  try { return store().getItem(STORE_KEY); } catch { return null; }
}
function keep(store, l) {
  try {
    if (l) store().setItem(STORE_KEY, l);
    else store().removeItem(STORE_KEY);
  } catch { /* private mode, or no storage */ }
}
const local = () => localStorage;
const session = () => sessionStorage;

// The language a page opens in: ?lang= (a shared link; kept for this tab
// only, so that its other pages follow), else the choice kept in this
// browser, else the first of the browser's languages that the client
// speaks, else English.
export function pickLang() {
  let asked = null;
  try { asked = new URLSearchParams(location.search).get('lang'); } catch { /* no location */ }
  if (asked && LANG_NAMES[asked]) {
    keep(session, asked);
    return asked;
  }
  for (const l of [kept(session), kept(local)]) if (l && LANG_NAMES[l]) return l;
  const nav = typeof navigator === 'object' ? navigator : {};
  const prefs = nav.languages && nav.languages.length ? nav.languages : [nav.language || 'en'];
  return prefs.map((l) => String(l).toLowerCase().slice(0, 2)).find((l) => LANG_NAMES[l]) || 'en';
}

// Fetches the strings of l once (web/i18n/<l>.json, beside this module),
// with the parts the page uses.
export async function loadLang(l) {
  if (!tables[l]) {
    const resp = await fetch(new URL(`./i18n/${l}.json`, import.meta.url));
    if (!resp.ok) throw new Error(`i18n/${l}.json: HTTP ${resp.status}`);
    tables[l] = await resp.json();
  }
  for (const p of parts) await loadPartIn(l, p);
  return tables[l];
}

async function loadPartIn(l, p) {
  if (partsIn.has(`${l}/${p}`)) return;
  const resp = await fetch(new URL(`./i18n/${p}/${l}.json`, import.meta.url));
  if (!resp.ok) throw new Error(`i18n/${p}/${l}.json: HTTP ${resp.status}`);
  Object.assign(tables[l], await resp.json());
  partsIn.add(`${l}/${p}`);
}

// The words of part (a screen's: 'event') in the page's language, from
// now on in every language the page switches to. Resolves once they are
// there (a part that cannot be had leaves its keys showing).
export async function loadPart(p) {
  parts.add(p);
  if (tables[lang]) {
    try { await loadPartIn(lang, p); } catch { /* its keys show */ }
  }
}

function use(l, strings = tables[l]) {
  lang = l;
  table = strings;
  plurals = new Intl.PluralRules(l);
  numbers = numberFormat(l, {});
  dateWords = !/^M\d/.test(new Intl.DateTimeFormat(l, { month: 'short' }).format(0));
  document.documentElement.lang = l;
}

// Loads the page's language (English if its file cannot be had) and makes
// it the page's; resolves to it. Awaited before anything is drawn. With no
// file at all (no network, nothing kept) the keys show, and the engines'
// failure to load says the rest.
export async function initLang() {
  const l = pickLang();
  for (const c of l === 'en' ? ['en'] : [l, 'en']) {
    try {
      await loadLang(c);
      use(c);
      return c;
    } catch { /* the next one */ }
  }
  use(l, {});
  return l;
}

export function getLang() { return lang; }

// Switches to l, kept in this browser, and writes the static texts again
// in kind's game (the screen's; left out, Oware's); resolves once done (at
// once when l's strings are already here).
export function setLang(l, kind = 'oware') {
  if (!LANG_NAMES[l]) return Promise.resolve();
  const done = () => {
    use(l);
    keep(local, l);
    keep(session, null);
    applyStatic(document, kind);
  };
  if (tables[l] && [...parts].every((p) => partsIn.has(`${l}/${p}`))) { done(); return Promise.resolve(); }
  return loadLang(l).then(done);
}

// The language selector (<select id="lang">): its options, each language
// named in itself; a choice switches the page (its static texts in the
// game kindNow() says, or resolves to: the screen's), then calls redraw().
/** @param {() => void} redraw @param {() => string | Promise<string>} [kindNow] */
export function wireLang(redraw, kindNow = () => 'oware') {
  const sel = document.getElementById('lang');
  sel.replaceChildren(...LANGS.map((l) => {
    const o = document.createElement('option');
    o.value = l;
    o.lang = l;
    o.textContent = LANG_NAMES[l];
    return o;
  }));
  sel.value = lang;
  sel.addEventListener('change', () => {
    Promise.resolve(kindNow()).then((k) => setLang(sel.value, k)).then(redraw, () => { sel.value = lang; });
  });
}

// A number in the page's language: "0.5" in English, "0,5" in Spanish,
// French, Kazakh and Russian; digits: the fraction digits always shown
// (as toFixed), else up to two as needed.
// Each "<lang>/<digits>" NumberFormat, made once.
const fixed = {};
export function fmtNum(v, digits) {
  if (digits === undefined) return numbers.format(v);
  const k = `${lang}/${digits}`;
  if (!fixed[k]) fixed[k] = numberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return fixed[k].format(v);
}

// l's numbers (no grouping; opts: fraction digits), with l's decimal sign.
function numberFormat(l, opts) {
  const f = new Intl.NumberFormat(l, { useGrouping: false, maximumFractionDigits: 2, ...opts });
  return { format: (v) => f.format(v).replace('.', DECIMAL[l] || '.') };
}
const two = (v) => String(v).padStart(2, '0');

// A date (a Date, or its time in ms) in the page's language; opts as
// Intl.DateTimeFormat's (default: the day, month and year); in digits
// ("05.12.2026, 14:30") where the browser has no month names for it.
/** @param {Date | number} d @param {Intl.DateTimeFormatOptions} [opts] */
export function fmtDate(d, opts = { day: 'numeric', month: 'long', year: 'numeric' }) {
  if (dateWords || !opts.day) return new Intl.DateTimeFormat(lang, opts).format(d);
  const at = new Date(d);
  return `${two(at.getDate())}.${two(at.getMonth() + 1)}${opts.year ? `.${at.getFullYear()}` : ''}${opts.hour ? `, ${two(at.getHours())}:${two(at.getMinutes())}` : ''}`;
}

// The traditional name of Togyz Kumalak's hole n (1..9) where the page's
// language has them (togyz.hole.names: Kazakh and Russian), else ''.
export function holeName(n) {
  const names = table['togyz.hole.names'];
  return (names && names.split(', ')[Number(n) - 1]) || '';
}

// The plural category of n in the page's language ('one', 'few', ...).
export const pluralOf = (n) => plurals.select(n);

// The key's text: kind's own variant first (its KEY_PREFIX, kind.js),
// each with its plural form for cat before the plain key.
function lookup(kind, key, cat) {
  const pick = (k) => {
    const v = cat ? table[`${k}.${cat}`] : undefined;
    return v !== undefined ? v : table[k];
  };
  const prefix = KEY_PREFIX[kindOf(kind)];
  let s = prefix ? pick(prefix + key) : undefined;
  if (s === undefined) s = pick(key);
  return s;
}

// The words of a key no game changes (words.test.mjs): Oware's. A key a
// game may change is asked with the kind the caller is handed (tIn,
// wordsIn): a screen's state, a board's, a panel's, the club event's.
export function t(key, params) { return tIn('oware', key, params); }

// t() for kind's game ('oware' or 'togyz'): the words of a screen, a
// board or a panel, from the kind it is handed.
/** @param {string} kind @returns {(key: string, params?: object) => string} */
export const wordsIn = (kind) => (key, params) => tIn(kind, key, params);

// The words of key in kind's game ('oware' or 'togyz'): its Togyz variant
// when kind is 'togyz' and the language has one.
export function tIn(kind, key, params) {
  const n = params ? params.n : undefined;
  const cat = n !== undefined && n !== '' && !Number.isNaN(Number(n)) ? plurals.select(Number(n)) : null;
  const s = lookup(kind, key, cat);
  if (s === undefined) return key;
  if (params) {
    return s.replace(/\{(\w+)\}/g, (m, k) => {
      const v = params[k];
      if (v === undefined) return m;
      return typeof v === 'number' ? numbers.format(v) : String(v);
    });
  }
  return s;
}

// Whether the language has key (in kind's game: its Togyz Kumalak
// variant counts; kind left out: the plain key only).
export function has(key, kind = 'oware') {
  const prefix = KEY_PREFIX[kindOf(kind)];
  return table[key] !== undefined || (prefix !== '' && table[prefix + key] !== undefined);
}

// The static texts under root in kind's game (left out: Oware's, as the
// page's first draw, before any screen, writes them).
/** @param {Document | Element} [root] @param {string} [kind] */
export function applyStatic(root = document, kind = 'oware') {
  const tk = wordsIn(kind);
  // Under an element whose words come with a part (data-i18n-part), a
  // key not loaded yet is left alone: the part's screen writes it then.
  /** @type {[string, string, (el: HTMLElement, text: string) => void][]} */
  const writes = [
    ['data-i18n', 'i18n', (el, text) => { el.textContent = text; }],
    ['data-i18n-label', 'i18nLabel', (el, text) => { el.setAttribute('aria-label', text); }],
    ['data-i18n-title', 'i18nTitle', (el, text) => { el.title = text; }],
  ];
  for (const [attr, field, write] of writes) {
    root.querySelectorAll(`[${attr}]`).forEach((/** @type {HTMLElement} */ el) => {
      const key = el.dataset[field];
      if (has(key, kind) || !el.closest('[data-i18n-part]')) write(el, tk(key));
    });
  }
  const sel = root.getElementById && root.getElementById('lang');
  if (sel && sel.value !== lang) sel.value = lang;
  document.title = tk('app.title');
}

// For tests: the keys that one of the languages loaded has and another
// lacks ("<lang>:<key>").
export function missingKeys() {
  const out = [];
  const have = Object.keys(tables);
  for (const a of have) for (const b of have) {
    for (const k of Object.keys(tables[a])) if (tables[b][k] === undefined) out.push(`${b}:${k}`);
  }
  return out;
}
