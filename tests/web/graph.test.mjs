// graph.test.mjs: the web client's modules (web/*.js) import each other
// without a cycle, with app.js at the root: every module the page loads is
// reached from it. Static `import … from './x.js'`, `export … from './x.js'`
// and dynamic `import('./x.js')` count; workers (new URL('x.js', …)) do not,
// they are separate graphs.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

// The relative imports of a module's source, as file names of web/.
export function importsOf(src) {
  // Comments and strings in comments would only add false edges: drop comments.
  const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = new Set();
  const patterns = [
    /\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?['"](\.\/[^'"]+)['"]/g,  // import x from './a.js'; import './a.js'
    /\bexport\s+(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\s+['"](\.\/[^'"]+)['"]/g,  // export … from './a.js'
    /\bimport\s*\(\s*['"](\.\/[^'"]+)['"]\s*\)/g,  // import('./a.js')
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.add(path.basename(m[1]));
  return [...out];
}

function graph() {
  const g = new Map();
  for (const f of fs.readdirSync(WEB).filter((n) => n.endsWith('.js')).sort()) {
    g.set(f, importsOf(fs.readFileSync(path.join(WEB, f), 'utf8')));
  }
  return g;
}

// The cycles of g (each as a path that returns to its start), by depth-first search.
export function cycles(g) {
  const found = [];
  const state = new Map();  // 1: on the current path, 2: done
  const stack = [];
  const visit = (n) => {
    state.set(n, 1);
    stack.push(n);
    for (const m of g.get(n) || []) {
      if (state.get(m) === 1) found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of g.keys()) if (!state.has(n)) visit(n);
  return found;
}

test('the parser sees every form of import', () => {
  const src = [
    "import { a } from './a.js';",
    "import b from \"./b.js\";",
    "import * as c from './c.js';",
    "import './d.js';",
    "export { e } from './e.js';",
    "export * from './f.js';",
    "const g = await import('./g.js');",
    "import {\n  h,\n  i,\n} from './h.js';",
    "// import { x } from './x.js';",
    "new Worker(new URL('w.js', import.meta.url));",
  ].join('\n');
  assert.deepEqual(importsOf(src).sort(), ['a.js', 'b.js', 'c.js', 'd.js', 'e.js', 'f.js', 'g.js', 'h.js']);
});

test('the cycle finder finds a cycle, and none where there is none', () => {
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(cycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), []);
});

test('web/ has no import cycle', () => {
  const g = graph();
  for (const [f, deps] of g) for (const d of deps) assert.ok(g.has(d), `${f} imports ${d}, which is not in web/`);
  const found = cycles(g);
  assert.deepEqual(found.map((c) => c.join(' -> ')), []);
});

test('app.js is the root: it reaches every page module, and nothing imports it', () => {
  const g = graph();
  // But boot.js, which make writes and index.html loads: it imports app.js
  // alone, from the folder named after the files (v/<hash>/app.js).
  assert.deepEqual(g.get('boot.js'), ['app.js']);
  assert.match(fs.readFileSync(path.join(WEB, 'boot.js'), 'utf8'), /^import '\.\/v\/[0-9a-f]{16}\/app\.js';$/m);
  g.delete('boot.js');
  for (const [f, deps] of g) assert.ok(!deps.includes('app.js'), `${f} imports app.js`);
  const seen = new Set(['app.js']);
  const todo = ['app.js'];
  while (todo.length) for (const d of g.get(todo.pop())) if (!seen.has(d)) { seen.add(d); todo.push(d); }
  // The workers' scripts are their own roots (the service worker, sw.js,
  // too, and sw-files.js, the list make writes for it to importScripts).
  const workers = ['ai-worker.js', 'togyz-worker.js', 'sw.js', 'sw-files.js'];
  const unreached = [...g.keys()].filter((f) => !seen.has(f) && !workers.includes(f));
  assert.deepEqual(unreached, []);
});
