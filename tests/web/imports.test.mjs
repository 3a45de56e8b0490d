// imports.test.mjs: who reads the screen's state from model.js's `model`
// (the state of the screen shown, published by its controller). The
// controllers' modules do (online.js, local.js: each binds its controller
// to the page) and the root (app.js, which hands it to review.js's
// intents); no
// other module may: a view is a function of the state it is given
// (docs/web-client.md). The last view that read it, names.js's seatName,
// is handed the room's names by its caller; study.js (the record
// screen's controller) is handed the state shown by app.js, as the
// views' buttons are. Nor is there a page's kind for a view to read
// (kind.js keeps none): the start page's controller holds the game it
// offers, each screen's state its own.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
// The controllers' modules.
const CONTROLLERS = ['local.js', 'online.js'];
// The root, which opens the screens and hands the draw pass the state of
// the one shown.
const ROOT = ['app.js'];

// Whether src imports the binding `model` of model.js (also renamed: `model as x`).
export const importsState = (src) => [...src.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*['"]\.\/model\.js['"]/g)]
  .some((m) => m[1].split(',').some((name) => /^\s*model(\s+as\s+\w+)?\s*$/.test(name)));

test('the parser sees the state imported, renamed or not, and nothing else', () => {
  assert.equal(importsState("import { model, facts } from './model.js';"), true);
  assert.equal(importsState("import { facts, model as shown } from './model.js';"), true);
  assert.equal(importsState("import {\n  newModel,\n  model,\n} from './model.js';"), true);
  assert.equal(importsState("import { newModel, facts } from './model.js';"), false);
  assert.equal(importsState("import { model } from './other.js';"), false);
});

test('no module but a controller (or the root) imports the state', () => {
  const readers = fs.readdirSync(WEB).filter((f) => f.endsWith('.js'))
    .filter((f) => importsState(fs.readFileSync(path.join(WEB, f), 'utf8'))).sort();
  const stray = readers.filter((f) => !CONTROLLERS.includes(f) && !ROOT.includes(f));
  assert.deepEqual(stray, []);
});

test('the controllers make their state and are handed nothing global for it', () => {
  for (const f of ['online.js', 'local.js']) {
    const src = fs.readFileSync(path.join(WEB, f), 'utf8');
    const body = src.slice(src.indexOf('export function'), src.indexOf("// ---- the page's binding"))
      .replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    assert.match(body, /const model = newModel\(/, f);
    assert.doesNotMatch(body, /\bshown(Model)?\b/, `${f}: the controller reads the screen shown`);
  }
});

// The start page's controller (start.js's startScreen) holds the game it
// offers: its body makes its state and touches no page, storage or
// global (its effects do).
test("the start page's controller holds its state and touches no page", () => {
  const src = fs.readFileSync(path.join(WEB, 'start.js'), 'utf8');
  const body = src.slice(src.indexOf('export function startScreen'), src.indexOf('// ---- the view'))
    .replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  assert.ok(body.length > 200, 'found the controller');
  assert.match(body, /const state = Object\.seal\(/);
  assert.doesNotMatch(body, /\$\(|document|window|localStorage|chosenKind|setModel/);
});

// No page's kind: kind.js keeps no variable (a mutable kind read by
// whichever screen is shown), exports no getter or setter of one, and no
// module asks for one. Each screen's state holds its game: the start
// page's controller, a room's or a game's state, the event page's.
test('there is no page kind: kind.js keeps nothing, no module asks for it', async () => {
  const src = fs.readFileSync(path.join(WEB, 'kind.js'), 'utf8').replace(/\/\/.*$/gm, '');
  assert.doesNotMatch(src, /^(export\s+)?(let|var)\s/m, 'kind.js keeps a variable');
  const mod = await import('../../web/kind.js');
  assert.deepEqual(Object.keys(mod).filter((k) => /kind$/i.test(k) && /^(get|set|current|page)/.test(k)), []);
  const fromKind = (src) => [...src.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*['"]\.\/kind\.js['"]/g)]
    .flatMap((m) => m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean));
  assert.deepEqual(fromKind("import { kindOf, getKind as k,\n setKind } from './kind.js';"), ['kindOf', 'getKind', 'setKind']);
  const askers = fs.readdirSync(WEB).filter((f) => f.endsWith('.js'))
    .flatMap((f) => fromKind(fs.readFileSync(path.join(WEB, f), 'utf8')).filter((n) => /^(get|set)Kind$/.test(n)).map((n) => `${f}: ${n}`));
  assert.deepEqual(askers, []);
});
