// limits.mjs: the shape of the code, counted, against the limits of
// docs/server.md and docs/web-client.md. Prints each count and its limit;
// exits 1 when one is passed (make test-docs runs it).
//   1. server/: no file includes a header of a layer above its own folder,
//      and no circle of calls between the files (a file "calls" another
//      when it names a function or variable the other defines);
//   2. C functions over 80 lines in engine/, protocol/, server/, cli/: at most 5;
//   3. web modules that import model.js's `model` itself: at most 3;
//   4. branches on a game's name in web/i18n.js: none (the kind
//      descriptors of web/kinds.js carry what differs).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, basename, relative, resolve } from 'node:path';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const read = (p) => readFileSync(join(ROOT, p), 'utf8');
function walk(dir, exts, out = []) {
  for (const f of readdirSync(join(ROOT, dir)).sort()) {
    const p = join(dir, f);
    if (statSync(join(ROOT, p)).isDirectory()) walk(p, exts, out);
    else if (exts.some((e) => f.endsWith(e))) out.push(p);
  }
  return out;
}
// C text without comments and strings (so names in them do not count).
const code = (s) => s.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, '')
  .replace(/"(?:[^"\\\n]|\\.)*"/g, '""').replace(/'(?:[^'\\\n]|\\.)*'/g, "''");

let failed = 0;
function report(what, n, limit, items) {
  const bad = n > limit;
  console.log(`${bad ? 'FAIL' : 'ok  '} ${what}: ${n} (limit ${limit})`);
  if (items.length) for (const i of items) console.log(`       ${i}`);
  if (bad) failed++;
}

// ---- 1. the server's layers ----
const LAYERS = ['server', 'server/net', 'server/events', 'server/rooms', 'server/store',
  'server/rules', 'server/base'];
const rank = (p) => LAYERS.indexOf(dirname(p));
const srv = walk('server', ['.c', '.h']);
const up = [];
for (const f of srv) {
  if (rank(f) < 0) { up.push(`${f}: in no layer folder`); continue; }
  for (const m of read(f).matchAll(/^#include "(server\/[^"]+)"/gm))
    if (rank(m[1]) < rank(f)) up.push(`${f} includes ${m[1]}`);
}
report('server: includes of a higher layer', up.length, 0, up);

// Units: a .c with its .h; what each defines (functions and variables at
// file scope, not static), then who names what.
const unit = (p) => p.replace(/\.[ch]$/, '');
const defs = new Map(); // name -> unit
const texts = new Map(); // unit -> code of its .c
for (const f of srv.filter((p) => p.endsWith('.c'))) {
  const src = code(read(f));
  texts.set(unit(f), src);
  const lines = src.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^(static|typedef|__attribute__|#|\s|}|{|$)/.test(l)) continue;
    let m;
    if (lines[i + 1] === '{' || /\)\s*$/.test(l)) {
      let j = i; while (j < lines.length && lines[j] !== '{' && !/;\s*$/.test(lines[j])) j++;
      if (lines[j] === '{' && (m = /([A-Za-z_]\w*)\s*\(/.exec(l))) defs.set(m[1], unit(f));
    } else if ((m = /^(?:const\s+)?[\w\s*]*?\**\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])*\s*(?:=[^;]*)?;\s*$/.exec(l)) &&
               !/\(/.test(l.split('=')[0]))
      defs.set(m[1], unit(f));
  }
}
const edges = new Map();
for (const [u, src] of texts) {
  const to = new Set();
  for (const m of src.matchAll(/\b[A-Za-z_]\w*\b/g)) {
    const d = defs.get(m[0]);
    if (d && d !== u) to.add(d);
  }
  edges.set(u, to);
}
// Circles: strongly connected components of more than one unit (Tarjan).
const circles = [];
{
  let index = 0; const idx = new Map(), low = new Map(), stack = [], on = new Set();
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of edges.get(v) || []) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = []; let w;
      do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) circles.push(c.sort().join(' <-> '));
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) strong(v);
}
report('server: circles of calls between files', circles.length, 0, circles);
const upCalls = [];
for (const [u, to] of edges)
  for (const d of to) if (rank(d) < rank(u)) upCalls.push(`${u}.c names ${[...defs].filter(([n, v]) => v === d && new RegExp(`\\b${n}\\b`).test(texts.get(u))).map(([n]) => n).slice(0, 4).join(', ')} of ${d}.c`);
report('server: calls from a lower layer up', upCalls.length, 0, upCalls);

// ---- 2. long functions ----
const long = [];
for (const dir of ['engine', 'protocol', 'server', 'cli'])
  for (const f of walk(dir, ['.c'])) {
    const L = read(f).split('\n');
    for (let i = 0; i < L.length; i++) {
      if (L[i] !== '{') continue;
      let s = i - 1;
      while (s > 0 && !/^\S/.test(L[s])) s--;
      const m = /([A-Za-z_]\w*)\s*\(/.exec(L[s]);
      if (!m) continue;
      let e = i + 1;
      while (e < L.length && L[e] !== '}') e++;
      if (e - s + 1 > 80) long.push([e - s + 1, `${f}: ${m[1]} (${e - s + 1} lines)`]);
    }
  }
long.sort((a, b) => b[0] - a[0]);
report('C functions over 80 lines', long.length, 5, long.map((x) => x[1]));

// ---- 3. who imports the shown model itself ----
const importers = [];
for (const f of walk('web', ['.js'])) {
  if (f.includes('/v/') || basename(f) === 'sw-files.js') continue;
  for (const m of read(f).matchAll(/import\s*{([^}]*)}\s*from\s*'\.\/model\.js'/g))
    if (m[1].split(',').some((n) => n.trim().split(/\s+as\s+/)[0] === 'model')) importers.push(relative('web', f));
}
report("web modules importing model.js's model", importers.length, 3, importers);

// ---- 4. branches on a game's name in i18n.js ----
const branches = [...read('web/i18n.js').replace(/\/\/.*$/gm, '')
  .matchAll(/\bisTogyz\b|[!=]==?\s*'(?:togyz|oware)'|'(?:togyz|oware)'\s*[!=]==?/g)].length;
report("branches on a game's name in web/i18n.js", branches, 0, []);

process.exit(failed ? 1 : 0);
