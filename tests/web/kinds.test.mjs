// kinds.test.mjs: web/kinds.js's records, one per game, are what the page
// asks instead of testing a kind's name: the keys that pick a pit, the wire
// form, a hole in a sentence, a saved start position checked. And web/
// tests no kind by its name outside kind.js and kinds.js (i18n.js's own
// lookup of Togyz strings aside).
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../web/engine.js';
import { loadTogyz } from '../../web/togyz.js';
import { KIND, kindRec, kindByPits } from '../../web/kinds.js';
import { KINDS } from '../../web/kind.js';
import { LADDERS } from '../../web/ai.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
// The page's words in node (i18n.js): a page with nothing on it, English
// read from disk.
globalThis.document = { documentElement: {}, querySelectorAll: () => [], title: '' };
globalThis.fetch = async (url) => ({ ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(url), 'utf8')) });
await (await import('../../web/i18n.js')).setLang('en');
await loadEngine(fs.readFileSync(path.join(WEB, 'engine.wasm')));
await loadTogyz(fs.readFileSync(path.join(WEB, 'togyz.wasm')));

test('one record a kind, found by name, by anything else as Oware, and by its board', () => {
  assert.deepEqual(Object.keys(KIND), KINDS);
  for (const k of KINDS) assert.equal(kindRec(k).name, k);
  for (const k of [undefined, null, 'chess', 'toString', 3]) assert.equal(kindRec(k).name, 'oware');
  assert.equal(kindByPits(12).name, 'oware');
  assert.equal(kindByPits(18).name, 'togyz');
  assert.equal(kindByPits(0).name, 'oware');
  assert.deepEqual([KIND.oware.row, KIND.togyz.row], [6, 9]);
  assert.equal(KIND.oware.ladder, LADDERS.oware);
  assert.equal(KIND.togyz.ladder, LADDERS.togyz);
  assert.ok(Object.isFrozen(KIND.oware) && Object.isFrozen(KIND.togyz));
});

test('the keys that pick a pit of the side to move', () => {
  const o = KIND.oware.pitForKey, z = KIND.togyz.pitForKey;
  assert.deepEqual(['a', 'F', 'c'].map((k) => o(k, 'south')), ['a', 'f', 'c']);
  assert.deepEqual(['a', 'F', 'c'].map((k) => o(k, 'north')), ['A', 'F', 'C']);
  for (const k of ['g', '1', 'ab', '', 'Enter', 'ArrowLeft']) assert.equal(o(k, 'south'), null, k);
  assert.deepEqual(['1', '9', '5'].map((k) => z(k, 'south')), ['a', 'i', 'e']);
  assert.deepEqual(['1', '9', '5'].map((k) => z(k, 'north')), ['A', 'I', 'E']);
  for (const k of ['0', 'a', '10', '', 'F1']) assert.equal(z(k, 'north'), null, k);
});

test('the wire form of a move and of create', () => {
  assert.equal(KIND.oware.wirePit('C'), 'C');
  assert.equal(KIND.togyz.wirePit('C'), '3');
  assert.equal(KIND.togyz.wirePit('i'), '9');
  assert.deepEqual(KIND.oware.createFields, {});
  assert.deepEqual(KIND.togyz.createFields, { kind: 'togyz' });
  const st = { game: { pits: [], legal: [] }, moves: [] };
  assert.equal(KIND.oware.fromWire(st), st);
  const wire = { start: null, moves: [7, 3], game: { turn: 'south', legal: [1, 2] }, last: { pit: 3, sown: [12, 13], captured: [] } };
  const page = KIND.togyz.fromWire(wire);
  assert.deepEqual(page.moves, ['g', 'C']);
  assert.deepEqual(page.game.legal, ['a', 'b']);
  assert.deepEqual([page.last.pit, page.last.sown], ['C', ['D', 'E']]);
});

test('a hole in a sentence', () => {
  assert.equal(KIND.oware.holeName('c'), 'c');
  assert.match(KIND.togyz.holeName('B'), /2/);
  assert.notEqual(KIND.togyz.holeName('B'), KIND.togyz.holeName('b'));
});

test('a saved start position: copied when the engine takes it, else null', () => {
  const pos = { pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], captured: { south: 0, north: 0 }, turn: 'north', extra: 1 };
  const got = KIND.oware.validStart(pos);
  assert.deepEqual(got, { pits: pos.pits, captured: pos.captured, turn: 'north' });
  assert.notEqual(got.pits, pos.pits);
  assert.equal(KIND.oware.validStart({ ...pos, pits: [1] }), null);
  assert.equal(KIND.oware.validStart(null), null);
  const tz = { pits: Array(18).fill(9), captured: { south: 0, north: 0 }, turn: 'south' };
  assert.deepEqual(KIND.togyz.validStart(tz), { ...tz, tuzdyk: { south: null, north: null } });
  assert.equal(KIND.togyz.validStart(pos), null);
  assert.equal(KIND.oware.replay(['c', 'A'], null).moves.length, 2);
});

// The kind is a value: a module asks its record, it does not test the name.
test("web/ names no kind in a test outside kind.js and kinds.js", () => {
  const own = ['kind.js', 'kinds.js', 'i18n.js'];
  const found = [];
  for (const f of fs.readdirSync(WEB).filter((n) => n.endsWith('.js') && !own.includes(n))) {
    const src = fs.readFileSync(path.join(WEB, f), 'utf8');
    for (const m of src.matchAll(/\bisTogyz\b|[!=]==?\s*'(?:togyz|oware)'|'(?:togyz|oware)'\s*[!=]==?/g)) found.push(`${f}: ${m[0]}`);
  }
  assert.deepEqual(found, []);
});
